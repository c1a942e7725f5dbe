import { apiLogout } from '../api/auth.js'
import { reset as resetComments } from './comments.js'
import { reset as resetConversations } from './conversations.js'
import { resetEarlyHome } from './early-home.js'
import { reset as resetFollows } from './follows.js'
import { reset as resetLists } from './lists.js'
import { reset as resetModeratedPeople } from './moderated-people.js'
import { reset as resetModeration } from './moderation.js'
import { reset as resetNetwork } from './network.js'
import { reset as resetNotifications } from './notifications.js'
import { reset as resetPeopleLists } from './people-lists.js'
import { reset as resetPostCache } from './post-cache.js'
import { reset as resetPosts } from './posts.js'
import { reset as resetRelations } from './relations.js'
import { reset as resetReposts } from './reposts.js'
import { reset as resetSearch } from './search.js'
import { forgetSession, session } from './session.js'
import { reset as resetToasts } from './toasts.js'
import { resetEmojis } from './emojis.js'
import { reset as resetUsers } from './users.js'

/**
 * Every module of client/state, by file name, and how it goes back to its start; null for one that
 * holds nothing of its own. Signing out runs them all, so that whoever signs in next in this tab sees
 * nothing of the last person, not even for a frame. test/client/sign-out.test.tsx reads the folder and
 * fails when a module is missing here.
 */
export const STATE_RESETS = {
  comments: resetComments,
  /** Conversations, the one on screen and the unread badge of Messages. */
  conversations: resetConversations,
  'early-home': resetEarlyHome,
  /** The community's custom emoji, read again by the next person. */
  emojis: resetEmojis,
  /** The follow requests waiting for my answer. */
  follows: resetFollows,
  lists: resetLists,
  'moderated-people': resetModeratedPeople,
  moderation: resetModeration,
  network: resetNetwork,
  notifications: resetNotifications,
  /** A helper for paged lists; the lists are in the stores that use it. */
  paged: null,
  /** My lists of people and the people of the one open. */
  'people-lists': resetPeopleLists,
  'post-cache': resetPostCache,
  /** Actions, and the like and bookmark intents still queued. */
  posts: resetPosts,
  relations: resetRelations,
  /** Actions only: a report holds nothing once sent. */
  reports: null,
  /** The repost and pin intents still queued; reposts, quotes and pins themselves live in the post cache and the lists. */
  reposts: resetReposts,
  search: resetSearch,
  session: forgetSession,
  'sign-out': null,
  toasts: resetToasts,
  /** A helper for likes, bookmarks, reposts and pins; their queues are in posts and reposts. */
  'toggle-queue': null,
  users: resetUsers,
} as const satisfies Record<string, (() => void) | null>

/** Every store back to its start, as on a fresh load of the app signed out. */
export function clearState(): void {
  for (const reset of Object.values(STATE_RESETS)) reset?.()
}

/** Ends the session at once: the server is told to drop the token (its failure is of no concern), and every store forgets it. */
export function logout(): void {
  if (session.token) apiLogout().catch(() => {})
  clearState()
}
