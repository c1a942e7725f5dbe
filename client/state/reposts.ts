import { apiCreatePost, apiGetPost, apiPinPost, apiRepostPost, apiUnpinPost, apiUnrepostPost } from '../api/posts.js'
import type { EventPayloads, Post } from '../api/types.js'
import { insertPost, insertRepost, placePinned } from './lists.js'
import { cachePosts, postCache } from './post-cache.js'
import { postData, type PostDraft } from './posts.js'
import { session } from './session.js'
import { showError } from './toasts.js'
import { toggleQueue } from './toggle-queue.js'

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

/** Shows the post reposted by me or not, the count moved by one; nothing when it already shows that. */
function showReposted(postId: string, reposted: boolean): void {
  const post = postCache.byId[postId]
  if (!post || post.reposted === reposted) return
  post.reposted = reposted
  post.repostCount = Math.max(0, post.repostCount + (reposted ? 1 : -1))
}

/** Shows the post pinned on its author's open profile or not; nothing when it already shows that. */
function showPinned(postId: string, pinned: boolean): void {
  const post = postCache.byId[postId]
  if (!post || (post.pinned === true) === pinned) return
  if (pinned) post.pinned = true
  else delete post.pinned
  placePinned(post)
}

/** Reads a post again, for the count a refusal did not carry. */
function refreshPost(postId: string): void {
  apiGetPost(postId).then(
    (post) => cachePosts([post]),
    // The count stays as shown until the next read or live event; the button is already right.
    () => undefined,
  )
}

/*
 * Reposts and pins go through the toggle queue as likes do (toggle-queue.ts): the button shows the
 * latest click at once, one write a post is on its way, and however clicks and answers interleave the
 * button ends where the server is.
 */
const repostWrites = toggleQueue<Post>({
  send: (postId, repost) => (repost ? apiRepostPost(postId) : apiUnrepostPost(postId)),
  settle: (_postId, post) => cachePosts([post]),
  restore(postId, reposted, how, error) {
    showReposted(postId, reposted)
    // The write that failed asked for the opposite of what the server holds.
    if (how === 'failed')
      showError(error, () => void toggleRepost(postId), reposted ? 'undo the repost' : 'repost the post')
    if (how === 'already') refreshPost(postId)
  },
  already: { on: ['already_reposted'], off: ['not_reposted'] },
})

const pinWrites = toggleQueue<Post>({
  send: (postId, pin) => (pin ? apiPinPost(postId) : apiUnpinPost(postId)),
  settle(_postId, post) {
    cachePosts([post])
    placePinned(post)
  },
  restore(postId, pinned, how, error) {
    showPinned(postId, pinned)
    if (how === 'failed') showError(error, undefined, pinned ? 'unpin the post' : 'pin the post')
  },
  // Pinning a pinned post, or unpinning one that is not, is no refusal: the server answers with the post.
  already: { on: [], off: [] },
})

/** Reposts or undoes my repost at once; the server is told the latest intent. */
export async function toggleRepost(postId: string): Promise<void> {
  const post = postCache.byId[postId]
  if (!post || !session.user) return
  const reposted = post.reposted
  showReposted(postId, !reposted)
  await repostWrites.toggle(postId, !reposted, reposted)
}

/** Pins or unpins one of my posts at once; the server is told the latest intent. */
export async function togglePin(postId: string): Promise<void> {
  const post = postCache.byId[postId]
  if (!post || !session.user) return
  const pinned = post.pinned === true
  showPinned(postId, !pinned)
  await pinWrites.toggle(postId, !pinned, pinned)
}

/** Forgets every repost and pin intent still queued: the next person's clicks start afresh. */
export function reset(): void {
  repostWrites.forget()
  pinWrites.forget()
}

/** Sends a post that quotes another; resolves whether it was sent. */
export async function createQuote(draft: PostDraft, quoteOf: string): Promise<boolean> {
  try {
    const post = await apiCreatePost({ ...postData({ content: draft.content, media: draft.media }), quoteOf })
    cachePosts([post])
    insertPost(post, { inHome: true })
    return true
  } catch (error) {
    showError(error, undefined, 'send the post')
    return false
  }
}
