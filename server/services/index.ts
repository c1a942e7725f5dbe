import { createAccountService, type AccountDeps, type AccountService } from './account.js'
import { createAccountDeletion, type AccountDeletion } from './account-deletion.js'
import { createAccountExport, type AccountExport } from './account-export.js'
import { createAccountImport, hostOf, type AccountImport } from './account-import.js'
import type { ImportLimits } from './archive-reader.js'
import { createAuthService, tokenFor, type AuthDeps, type AuthService } from './auth.js'
import { createCommentsService, type CommentsService } from './comments.js'
import { createFollowRequestsService, type FollowRequestsService } from './follow-requests.js'
import { createConversationsService, type ConversationsService } from './conversations.js'
import { createJobOverview, type JobOverview } from './job-overview.js'
import type { JobHandlers } from './jobs.js'
import { createLinkCards, type LinkCards } from './link-cards.js'
import { createLinkFetcher, type LinkFetchOptions } from './link-fetch.js'
import type { MediaStorage } from '../media/media-storage.js'
import type { MediaUrls } from '../media/media-urls.js'
import { createMediaService, type MediaService } from './media.js'
import { createMediaDeletion } from './media-deletion.js'
import { createMediaAttachments, type MediaAttachments } from './media-attachments.js'
import { createIdempotency, type Idempotency } from './idempotency.js'
import { createModerationService, type ModerationService } from './moderation.js'
import { createReportsService, type ReportsService } from './reports.js'
import { createNotificationsService, type NotificationsService } from './notifications.js'
import { createPollsService, type PollsService } from './polls.js'
import { createPostsService, type PostsService } from './posts.js'
import { createScheduledPostsService, type ScheduledPostsService } from './scheduled-posts.js'
import { createRelationsService, type RelationsService } from './relations.js'
import { createSearchService, type SearchService } from './search.js'
import { createTwoFactorService, type TwoFactorService } from './two-factor.js'
import { createUsersService, type UsersService } from './users.js'
import { createClientAppsService, type ClientAppsDeps, type ClientAppsService } from './client-apps.js'
import { createMarkersService, type MarkersService } from './markers.js'
import { createCustomEmojis, type CustomEmojis } from './custom-emojis.js'
import { createMailNotifications, type MailNotifications } from './mail-notifications.js'
import { createPushService, type PushDeps, type PushService } from './push.js'
import { createTimelinesService, type TimelinesService } from './timelines.js'
import { createFiltersService, type FiltersService } from './filters.js'
import { createListsService, type ListsService } from './lists.js'

import { createFederationPeople, type FederationPeople } from './federation-people.js'
import { createFederationFollows, type FederationFollows } from './federation-follows.js'
import { createRemoteComments, type RemoteComments } from './remote-comments.js'
import { createRemoteReactions, type RemoteReactions } from './remote-reactions.js'
import { createRemotePosts, type RemotePosts } from './remote-posts.js'
import { createRemotePeople, type RemotePeople } from './remote-people.js'
/** Every rule of the app, one service a resource; routes reach them through this. */
export interface Services {
  scheduledPosts: ScheduledPostsService
  auth: AuthService
  account: AccountService
  accountDeletion: AccountDeletion
  accountExport: AccountExport
  accountImport: AccountImport
  twoFactor: TwoFactorService
  users: UsersService
  posts: PostsService
  polls: PollsService
  comments: CommentsService
  media: MediaService
  /** Uploads of the Mastodon client API, named by id until a post shows them. */
  mediaAttachments: MediaAttachments
  /** Writes sent again with the same Idempotency-Key, answered once. */
  idempotency: Idempotency
  notifications: NotificationsService
  conversations: ConversationsService
  search: SearchService
  reports: ReportsService
  moderation: ModerationService
  relations: RelationsService
  followRequests: FollowRequestsService
  /** The apps of the Mastodon client API and their OAuth grants. */
  clientApps: ClientAppsService
  markers: MarkersService
  /** The community's custom emoji (DECISIONS §15). */
  customEmojis: CustomEmojis
  /** Web Push subscriptions and their pushes (DECISIONS §15). */
  push: PushService
  mail: MailNotifications
  /** Keyword filters, Mastodon's filters v2 (DECISIONS §15). */
  filters: FiltersService
  /** Lists of people one follows, each its own timeline (DECISIONS §15). */
  lists: ListsService
  /** The Mastodon client API's timelines, paged by its status ids. */
  timelines: TimelinesService
  /** Who has an ActivityPub actor, and what it says (DECISIONS §14). */
  federationPeople: FederationPeople
  /** People of other servers, found and kept as users (DECISIONS §14). */
  remotePeople: RemotePeople
  /** Follows with people of other servers, as their servers tell of them. */
  federationFollows: FederationFollows
  /** Posts both ways with other servers. */
  remotePosts: RemotePosts
  remoteComments: RemoteComments
  remoteReactions: RemoteReactions
  /** Absent when link previews are off. */
  linkCards: LinkCards | undefined
  jobs: JobOverview
  /** What runs each kind of job that has work (services/jobs.ts); the others wait for a handler of their own. */
  jobHandlers: JobHandlers
}

export interface ServicesDeps
  extends
    AuthDeps,
    Pick<AccountDeps, 'mailer' | 'publicUrl' | 'warn'>,
    Pick<ClientAppsDeps, 'signAppToken' | 'tokenSeconds'> {
  /** Where uploaded images are kept: a folder or a bucket. */
  mediaStorage: MediaStorage
  /** What an upload's URL is, and which URLs name uploads of this server's. */
  mediaUrls: MediaUrls
  /** Whether per-user limits (the hourly cap on reports) hold. */
  rateLimit: boolean
  /** How link cards' pages are fetched; no cards are made without it (LINK_PREVIEWS=false). */
  linkFetch: LinkFetchOptions | undefined
  /** How long a poll's day lasts, in seconds. */
  pollDaySeconds: number
  /** How far ahead a post must be scheduled, in seconds. */
  scheduleMinSeconds?: number
  /** How long notification mail waits for the rest of a burst (MAIL_BATCH_SECONDS). */
  mailBatchSeconds?: number
  /** How much an account's import may bring. */
  importLimits: ImportLimits
  /** The VAPID keys pushes are signed with, and where pushes may go. */
  push: Pick<PushDeps, 'vapid' | 'allow' | 'ca' | 'resolve'>
  /** Whether posts are sent to other servers (FEDERATION). */
  federation?: boolean
}

/** The services over one store and clock; posts learn an uploaded image's size from the media service. */
export function createServices({
  mediaStorage,
  mediaUrls,
  signToken,
  guestLogin,
  registration,
  passwordHashCost,
  rateLimit,
  importLimits,
  secrets,
  mailer,
  publicUrl,
  warn,
  linkFetch,
  pollDaySeconds,
  scheduleMinSeconds,
  mailBatchSeconds = 60,
  signAppToken,
  tokenSeconds,
  push: pushOptions,
  federation = false,
  ...deps
}: ServicesDeps): Services {
  const media = createMediaService({ storage: mediaStorage, urls: mediaUrls })
  const linkCards =
    linkFetch &&
    createLinkCards({
      ...deps,
      fetcher: createLinkFetcher(linkFetch),
      saveImage: async (bytes) => (await media.saveFetched(bytes)).url,
      hasImage: async (url) => {
        const key = media.keyOf(url)
        return key === undefined || (await media.has(key))
      },
      log: warn,
    })
  const account = createAccountService({
    ...deps,
    secrets,
    mailer,
    publicUrl,
    warn,
    passwordHashCost,
    tokenFor: (holder) => tokenFor(signToken, holder),
  })
  const polls = createPollsService(deps)
  const mediaDeletion = createMediaDeletion({ store: deps.store, media })
  const auth = createAuthService({ ...deps, signToken, guestLogin, registration, secrets, passwordHashCost })
  const remotePosts = createRemotePosts({ ...deps, federating: federation })
  const remoteComments = createRemoteComments({ ...deps, federating: federation })
  const remoteReactions = createRemoteReactions({ ...deps, federating: federation, posts: () => posts })
  const posts = createPostsService({
    ...deps,
    sizeOf: (url) => media.sizeOf(url),
    linkCards,
    pollDaySeconds,
    federate: (tx, post, send, at) => remotePosts.federate(tx, post, send, at),
    federateReaction: (tx, kind, userId, post, on, at) => remoteReactions.federate(tx, kind, userId, post, on, at),
  })
  const scheduledPosts = createScheduledPostsService({ ...deps, posts, minSeconds: scheduleMinSeconds })
  const search = createSearchService(deps)
  const remotePeople = createRemotePeople({ ...deps, publicUrl })
  const notifications = createNotificationsService(deps)
  const mail = createMailNotifications({ ...deps, mailer, secrets, publicUrl, batchSeconds: mailBatchSeconds })
  const push = createPushService({ ...deps, ...pushOptions, secrets, auth, notifications, publicUrl, log: warn })
  return {
    auth,
    clientApps: createClientAppsService({ ...deps, auth, signAppToken, tokenSeconds }),
    markers: createMarkersService(deps),
    customEmojis: createCustomEmojis({ ...deps, media }),
    filters: createFiltersService(deps),
    lists: createListsService(deps),
    account,
    accountDeletion: createAccountDeletion({ ...deps, media, federating: federation }),
    accountExport: createAccountExport({ ...deps, media }),
    accountImport: createAccountImport({
      ...deps,
      limits: importLimits,
      publicHost: hostOf(publicUrl),
      saveImage: (bytes) => media.saveBytes(bytes),
      pixelsOf: (bytes) => media.pixelsOf(bytes),
      removeMedia: (url) => media.remove(url),
    }),
    twoFactor: createTwoFactorService({ ...deps, secrets }),
    users: createUsersService({ ...deps, remotePeople }),
    posts,
    scheduledPosts,
    polls,
    comments: createCommentsService({
      ...deps,
      federateComment: (tx, post, comment, send, at) => remoteComments.federate(tx, post, comment, send, at),
    }),
    media,
    mediaAttachments: createMediaAttachments({ ...deps, media }),
    idempotency: createIdempotency(deps),
    notifications,
    push,
    mail,
    conversations: createConversationsService(deps),
    search,
    timelines: createTimelinesService({ store: deps.store, posts, search }),
    reports: createReportsService({ ...deps, rateLimit }),
    moderation: createModerationService(deps),
    relations: createRelationsService(deps),
    followRequests: createFollowRequestsService(deps),
    federationPeople: createFederationPeople({ ...deps, secrets }),
    remotePeople,
    federationFollows: createFederationFollows(deps),
    remotePosts,
    remoteComments,
    remoteReactions,
    linkCards,
    jobs: createJobOverview(deps),
    jobHandlers: {
      'poll-close': (job, run) => polls.runCloseJob(job, run),
      'scheduled-post': (job, run) => scheduledPosts.runJob(job, run),
      ...(linkCards ? { 'link-card': (job, run) => linkCards.run(job, run) } : {}),
      ...(mailer
        ? { mail: (job) => (job.payload.template === 'notifications' ? mail.runJob(job) : account.runMailJob(job)) }
        : {}),
      'media-delete': (job) => mediaDeletion.run(job),
      push: (job, run) => push.runJob(job, run.signal),
    },
  }
}
