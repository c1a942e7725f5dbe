import { apiGetPost } from '../api/posts.js'
import type { Post, User } from '../api/types.js'
import { insertPost, lists, loadBookmarks, markBookmark } from '../state/lists.js'
import { cachePosts, postCache, updateAuthor } from '../state/post-cache.js'
import { applyPost, removePost } from '../state/posts.js'
import { session, setBookmarks } from '../state/session.js'
import { applyUser, users } from '../state/users.js'
import type { LiveMessage, LiveName, LivePayloads, RawMessage } from './messages.js'
import { refetchOnScreen } from './refetch.js'

/** A changed post matters only where it is shown; caching every post of the network would grow without end. */
function updatePost(post: Post): void {
  if (postCache.byId[post._id]) applyPost(post)
}

/** My own posts appear at once; others' wait behind 'N new posts' in the lists whose scope they are in. */
function receivePost(post: Post): void {
  const mine = post.username === session.username
  const followed = session.user?.following.some((u) => u.username === post.username) ?? false
  if (insertPost(post, { inHome: mine || followed, wait: !mine })) applyPost(post)
}

function forgetPost(postId: string): void {
  removePost(postId)
  const bookmarks = session.user?.bookmarks
  if (bookmarks?.includes(postId)) setBookmarks(bookmarks.filter((id) => id !== postId))
}

/** A public record (no email, no bookmarks) of a user this tab shows, or only their name on posts. */
function updateUser(user: User): void {
  const shown =
    user.username === session.username ||
    users.byUsername[user.username] !== undefined ||
    users.suggestions.some((u) => u._id === user._id)
  if (shown) applyUser(user)
  else updateAuthor(user)
}

async function changeBookmark({ postId, bookmarks }: LivePayloads['bookmark.added']): Promise<void> {
  setBookmarks(bookmarks)
  const bookmarked = bookmarks.includes(postId)
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

type Handlers = { [K in LiveName]: (data: LivePayloads[K]) => void }

const handlers: Handlers = {
  'post.created': ({ post }) => receivePost(post),
  'post.updated': ({ post }) => updatePost(post),
  'post.liked': ({ post }) => updatePost(post),
  'post.deleted': ({ postId }) => forgetPost(postId),
  'comment.added': ({ post }) => updatePost(post),
  'comment.updated': ({ post }) => updatePost(post),
  'comment.deleted': ({ post }) => updatePost(post),
  'comment.voted': ({ post }) => updatePost(post),
  'user.followed': ({ user, followUser }) => {
    updateUser(user)
    updateUser(followUser)
  },
  'user.unfollowed': ({ user, followUser }) => {
    updateUser(user)
    updateUser(followUser)
  },
  'user.updated': ({ user }) => updateUser(user),
  'bookmark.added': (data) => void changeBookmark(data),
  'bookmark.removed': (data) => void changeBookmark(data),
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
