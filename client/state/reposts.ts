import { apiCreatePost, apiGetPost, apiPinPost, apiRepostPost, apiUnpinPost, apiUnrepostPost } from '../api/posts.js'
import type { EventPayloads } from '../api/types.js'
import { insertPost, insertRepost, placePinned } from './lists.js'
import { cachePosts, postCache } from './post-cache.js'
import type { PostDraft } from './posts.js'
import { session } from './session.js'
import { showError } from './toasts.js'

/** Reposts, quotes and pins: optimistic where a button flips, and in step with live events. */

/** A repost or its undoing, as a live event tells it: the count, my own state, and the home feed it may reach. */
export function applyRepost(event: EventPayloads['post.reposted']): void {
  const mine = event.user.username === session.username
  const post = postCache.byId[event.postId]
  if (post) {
    post.repostCount = event.repostCount
    if (mine) post.reposted = event.reposted
  }
  if (!event.reposted || !event.post) return
  const following = session.user?.following ?? []
  const follows = (username: string) => following.some((user) => user.username === username)
  const author = event.post.username
  // A post by me or by someone I follow is in the feed as itself; a repost reaches me from those I follow.
  if (author === session.username || follows(author)) return
  if (!mine && !follows(event.user.username)) return
  const shared = event.post
  if (shared.quoteOf === undefined || shared.quote !== undefined) return insertRepost(shared, mine)
  // A quote comes without the quoted post, which depends on who reads it: this reader's view is read.
  const { repostedBy, repostedAt } = shared
  apiGetPost(shared._id).then(
    (post) => insertRepost({ ...post, repostedBy, repostedAt }, mine),
    () => undefined,
  )
}

export function applyPin({ postId, pinned }: EventPayloads['post.pinned']): void {
  const post = postCache.byId[postId]
  if (!post) return
  if (pinned) post.pinned = true
  else delete post.pinned
  placePinned(post)
}

/** Shows the post reposted by me or not at once; the server's answer, or the error, settles it. */
export async function toggleRepost(postId: string): Promise<void> {
  const post = postCache.byId[postId]
  if (!post || !session.user) return
  const reposted = post.reposted
  const show = (on: boolean, count: number) => {
    const current = postCache.byId[postId]
    if (!current) return
    current.reposted = on
    current.repostCount = Math.max(0, count)
  }
  const count = post.repostCount
  show(!reposted, count + (reposted ? -1 : 1))
  try {
    cachePosts([await (reposted ? apiUnrepostPost(postId) : apiRepostPost(postId))])
  } catch (error) {
    show(reposted, count)
    showError(error, () => void toggleRepost(postId), reposted ? 'undo the repost' : 'repost the post')
  }
}

export async function togglePin(postId: string): Promise<void> {
  const post = postCache.byId[postId]
  if (!post) return
  try {
    const changed = await (post.pinned ? apiUnpinPost(postId) : apiPinPost(postId))
    cachePosts([changed])
    placePinned(changed)
  } catch (error) {
    showError(error, undefined, post.pinned ? 'unpin the post' : 'pin the post')
  }
}

/** Sends a post that quotes another; resolves whether it was sent. */
export async function createQuote(draft: PostDraft, quoteOf: string): Promise<boolean> {
  const { content, mediaUrl, mediaAlt } = draft
  const media = mediaUrl ? { mediaUrl, type: 'image' as const, mediaAlt: mediaAlt ?? '' } : {}
  try {
    const post = await apiCreatePost({ content, ...media, quoteOf })
    cachePosts([post])
    insertPost(post, { inHome: true })
    return true
  } catch (error) {
    showError(error, undefined, 'send the post')
    return false
  }
}
