import { apiGetPost } from '../api/posts.js'
import type { Post } from '../api/types.js'
import { insertPost, lists, loadBookmarks, markBookmark } from '../state/lists.js'
import { dropComment, receiveComment, reviseComment, voteOnComment } from '../state/comments.js'
import { cachePosts, editCachedPost, likeCachedPost, postCache } from '../state/post-cache.js'
import { dropNotificationsAbout, receiveNotification, setUnread } from '../state/notifications.js'
import { receiveReport } from '../state/moderation.js'
import { applyPost, removePost } from '../state/posts.js'
import { hidePerson } from '../state/relations.js'
import { applyPin, applyRepost } from '../state/reposts.js'
import { markBookmarked, session } from '../state/session.js'
import { applyProfile, forgetUser } from '../state/users.js'
import {
  dropMessage,
  receiveConversation,
  receiveConversationHidden,
  receiveDirectPost,
} from '../state/conversations.js'
import { applyLiveFollow, receiveFollowRequest } from '../state/follows.js'
import { refreshPeopleLists } from '../state/people-lists.js'
import type { LiveMessage, LiveName, LivePayloads, RawMessage } from './messages.js'
import { refetchOnScreen, refetchPostsOnScreen } from './refetch.js'

/**
 * My own posts appear at once; others' wait behind 'N new posts' in the lists whose scope they are in. A
 * direct message goes to its conversation instead.
 */
function receivePost(post: Post): void {
  if (post.visibility === 'direct') return receiveDirectPost(post)
  // A quote comes without the quoted post, which depends on who reads it: this reader's view is read.
  if (post.quoteOf !== undefined && post.quote === undefined) {
    apiGetPost(post._id).then(receivePost, () => undefined)
    return
  }
  const mine = post.username === session.username
  const followed = session.user?.following.some((u) => u.username === post.username) ?? false
  if (insertPost(post, { inHome: mine || followed, wait: !mine })) applyPost(post)
}

function forgetPost(postId: string): void {
  removePost(postId)
  dropMessage(postId)
  markBookmarked(postId, false)
  dropNotificationsAbout({ postId })
}

/** The event names only the post: an open bookmark list fetches one it has not seen, to show it on top. */
async function changeBookmark(postId: string, bookmarked: boolean): Promise<void> {
  markBookmarked(postId, bookmarked)
  if (bookmarked && lists.bookmarks.loaded && !postCache.byId[postId]) {
    try {
      cachePosts([await apiGetPost(postId)])
    } catch {
      // The post is out of reach (gone, or the network is): the whole list is refetched instead.
      return loadBookmarks()
    }
  }
  markBookmark(postId, bookmarked)
}

/**
 * Someone voted: the event carries no counts, which this reader may not be allowed to see, so a post on
 * screen is read again, as this reader sees it.
 */
async function refreshPoll(postId: string): Promise<void> {
  if (!postCache.byId[postId]) return
  try {
    cachePosts([await apiGetPost(postId)])
  } catch {
    // Out of reach (gone, or offline): the next event or refetch brings it.
  }
}

type Handlers = { [K in LiveName]: (data: LivePayloads[K]) => void }

/** Each event carries what changed, and each change reaches only what this tab holds (state/post-cache, state/comments, state/users). */
const handlers: Handlers = {
  'post.created': ({ post }) => receivePost(post),
  'post.updated': editCachedPost,
  'post.liked': likeCachedPost,
  'post.reposted': applyRepost,
  'post.pinned': applyPin,
  'post.deleted': ({ postId }) => forgetPost(postId),
  'poll.voted': ({ postId }) => void refreshPoll(postId),
  'comment.added': receiveComment,
  'comment.updated': reviseComment,
  'comment.deleted': (data) => {
    dropComment(data)
    dropNotificationsAbout(data)
  },
  'comment.voted': voteOnComment,
  // An unfollow of mine hides the person's followers-only posts; a follow of mine (a request accepted) shows them.
  'user.followed': (data) => applyLiveFollow(data, true),
  'user.unfollowed': (data) => applyLiveFollow(data, false),
  'follow_request.created': receiveFollowRequest,
  'conversation.updated': receiveConversation,
  'conversation.deleted': receiveConversationHidden,
  'user.updated': applyProfile,
  // An account deleted: its posts each got post.deleted; its comments and rows go here at once. Its likes,
  // reposts, votes and replies on others' posts went too, so what is shown is read again for their counts.
  'user.deleted': (data) => {
    hidePerson(data.username)
    forgetUser(data)
    refetchPostsOnScreen()
  },
  'bookmark.added': ({ postId }) => void changeBookmark(postId, true),
  'bookmark.removed': ({ postId }) => void changeBookmark(postId, false),
  // Another tab blocked or muted someone: their posts and comments leave this one too; lifting either refetches.
  'user.blocked': ({ user }) => hidePerson(user.username),
  'user.unblocked': () => refetchOnScreen(),
  'user.muted': ({ user }) => hidePerson(user.username),
  'user.unmuted': () => refetchOnScreen(),
  // A moderator suspended someone: their posts and comments leave every screen; a lifted suspension refetches.
  'user.suspended': ({ username }) => hidePerson(username),
  'user.unsuspended': () => refetchOnScreen(),
  'notification.created': receiveNotification,
  'notification.read': setUnread,
  // Moderators' streams only: the queue's count in the navigation, and the report on top of an open queue.
  'report.created': receiveReport,
  // My own filters or lists changed in another tab or app: what they shape is read again.
  'filters.changed': () => refetchOnScreen(),
  'lists.changed': () => refreshPeopleLists(),
  reset: () => refetchOnScreen(),
}

/** Every name a stream listens for; the table above is checked to have one handler per event of the contract. */
export const LIVE_NAMES = Object.keys(handlers) as LiveName[]

function isLiveName(name: string): name is LiveName {
  return Object.hasOwn(handlers, name)
}

/** Applies one event to the state, so every screen that shows what it changed changes with it. */
export function applyLiveEvent(message: LiveMessage | RawMessage): void {
  if (!isLiveName(message.name)) return
  // The name picks the handler and the server's contract ties the data to the name; TypeScript cannot
  // follow that through a union, hence the widened handler.
  const handler = handlers[message.name] as (data: unknown) => void
  handler(message.data)
}
