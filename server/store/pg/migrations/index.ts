import type { Queryable } from '../connect.js'
import * as initial from './0001_initial.js'
import * as notificationsSearch from './0002_notifications_search.js'
import * as boundedPosts from './0003_bounded_posts.js'
import * as usernameKeys from './0004_username_keys.js'
import * as tokenRevocation from './0005_token_revocation.js'
import * as streamSlots from './0006_stream_slots.js'
import * as blocksMutes from './0007_blocks_mutes.js'
import * as moderation from './0008_moderation.js'
import * as accountSecurity from './0009_account_security.js'
import * as postEdits from './0010_post_edits.js'
import * as repostsPins from './0011_reposts_pins.js'
import * as conversations from './0012_conversations.js'
import * as linkCards from './0013_link_cards.js'
import * as accountData from './0014_account_data.js'
import * as profileMedia from './0016_profile_media.js'
import * as eventPeople from './0017_event_people.js'
import * as jobs from './0018_jobs.js'
import * as eventAbout from './0019_event_about.js'
import * as audiences from './0020_audiences.js'
import * as followRequests from './0021_follow_requests.js'
import * as directConversations from './0022_direct_conversations.js'
import * as mediaUses from './0024_media_uses.js'
import * as clientApps from './0025_client_apps.js'
import * as federation from './0026_federation.js'
import * as remotePeople from './0027_remote_people.js'
import * as remotePosts from './0030_remote_posts.js'
import * as threadsImages from './0035_threads_images.js'
import * as filtersLists from './0040_filters_lists.js'
import * as pushSubscriptions from './0045_push_subscriptions.js'
import * as postVersionsScheduled from './0055_post_versions_scheduled.js'
import * as quotePolicy from './0060_quote_policy.js'
import * as mailAlerts from './0061_mail_alerts.js'
import * as customEmojis from './0062_custom_emojis.js'

/**
 * One step of the schema. Applied migrations are never edited (their checksum is kept and checked at
 * every start): a change is a new migration with the next version.
 */
export interface Migration {
  version: number
  name: string
  sql: string
  /**
   * Fills what the SQL added from the rows already there, when SQL alone cannot work it out; runs once,
   * right after the SQL, in the same transaction. Not part of the checksum.
   */
  backfill?: (sql: Queryable) => Promise<void>
}

/** In version order. */
export const MIGRATIONS: readonly Migration[] = [
  initial,
  notificationsSearch,
  boundedPosts,
  usernameKeys,
  tokenRevocation,
  streamSlots,
  blocksMutes,
  moderation,
  accountSecurity,
  postEdits,
  repostsPins,
  conversations,
  linkCards,
  accountData,
  profileMedia,
  eventPeople,
  jobs,
  eventAbout,
  audiences,
  followRequests,
  directConversations,
  mediaUses,
  clientApps,
  federation,
  remotePeople,
  remotePosts,
  threadsImages,
  filtersLists,
  pushSubscriptions,
  postVersionsScheduled,
  quotePolicy,
  mailAlerts,
  customEmojis,
]
