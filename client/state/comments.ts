import { proxy } from 'valtio'
import { apiGetComments } from '../api/comments.js'
import type { Comment, EventPayloads } from '../api/types.js'
import { renameBy, withPerson, type Author } from '../lib/people.js'
import { loadPaged, type Paged } from './paged.js'
import { postCache } from './post-cache.js'

/** As many as the server gives at once: most posts' comments come in one page. */
const PAGE = 100

const initial = () => ({
  /**
   * The comments of each post whose comments are open, by post id, read a page at a time. Lists send
   * compact posts without their comments, so these are read when opened rather than taken from them.
   */
  byPost: {} as Record<string, Paged<Comment>>,
  /** Comments whose removal the post's count has taken, so a removal told twice (an answer, its event) counts once. */
  removed: {} as Record<string, true>,
})

export const comments = proxy(initial())

/** The first page of a post's comments (fresh) or the next one. */
export function loadComments(postId: string, more = false): Promise<void> {
  return loadPaged(comments.byPost, postId, postId, more && postId in comments.byPost, async (cursor) => {
    const reply = await apiGetComments(postId, { limit: PAGE, cursor })
    return { items: reply.comments, nextCursor: reply.nextCursor ?? null }
  })
}

/** The comments are closed: what was read of them goes, and opening them again reads them afresh. */
export function closeComments(postId: string): void {
  delete comments.byPost[postId]
}

/** Every copy this tab holds of a post's comments: the cached post's own (a whole post carries some) and the list read. */
function heldLists(postId: string): Comment[][] {
  const held: Comment[][] = []
  const post = postCache.byId[postId]
  if (post) held.push(post.comments)
  const read = comments.byPost[postId]
  if (read?.loaded) held.push(read.items)
  return held
}

function heldCopies(postId: string, commentId: string): Comment[] {
  return heldLists(postId).flatMap((list) => list.filter((c) => c._id === commentId))
}

/**
 * The comments of a write's answer (the changed post's newest): each one updated where the tab holds it,
 * and added to the list read, which is how my own new comment enters it.
 */
export function takeComments(postId: string, answered: readonly Comment[]): void {
  const read = comments.byPost[postId]
  for (const comment of answered) {
    const copies = heldCopies(postId, comment._id)
    for (const copy of copies) Object.assign(copy, comment)
    if (read?.loaded && !read.items.some((c) => c._id === comment._id)) read.items.push(comment)
  }
}

/*
 * Live deltas (and the answers to my own writes). Each is safe to apply twice, since the tab's own write
 * comes back to it as an event too, before or after the write's answer. A compact post holds none of its
 * comments, so its count moves with the deltas: once for each comment, known by its id.
 */

export function receiveComment({ postId, comment }: EventPayloads['comment.added']): void {
  if (heldCopies(postId, comment._id).length > 0 || comments.removed[comment._id]) return
  const post = postCache.byId[postId]
  if (post) {
    post.comments.push(comment)
    if (post.commentCount !== undefined) post.commentCount += 1
  }
  const read = comments.byPost[postId]
  if (read?.loaded) read.items.push(comment)
}

/** A comment deleted; `counted` when the post in the cache already says so (my own delete's answer). */
export function dropComment({ postId, commentId }: EventPayloads['comment.deleted'], counted = false): void {
  if (comments.removed[commentId]) return
  comments.removed[commentId] = true
  const post = postCache.byId[postId]
  if (post) {
    post.comments = post.comments.filter((c) => c._id !== commentId)
    if (!counted && post.commentCount !== undefined) post.commentCount = Math.max(0, post.commentCount - 1)
  }
  const read = comments.byPost[postId]
  if (read) read.items = read.items.filter((c) => c._id !== commentId)
}

/** A comment this tab does not hold stays unknown: an edit or a vote alone cannot make it (no author, no date). */
export function reviseComment({ postId, commentId, text, updatedAt }: EventPayloads['comment.updated']): void {
  for (const comment of heldCopies(postId, commentId)) Object.assign(comment, { text, updatedAt })
}

/** An upvote (or a downvote) by `user`, which takes back their vote the other way. */
export function voteOnComment({ postId, commentId, user, up, updatedAt }: EventPayloads['comment.voted']): void {
  for (const comment of heldCopies(postId, commentId)) {
    comment.votes.upvotedBy = withPerson(comment.votes.upvotedBy, user, up)
    comment.votes.downvotedBy = withPerson(comment.votes.downvotedBy, user, !up)
    comment.updatedAt = updatedAt
  }
}

/** An author's current name and avatar on their comments in the lists read (the cached posts': post-cache.ts). */
export function renameCommenter(author: Author): void {
  for (const read of Object.values(comments.byPost)) for (const comment of read.items) renameBy(comment, author)
}

/** After a gap in the live events: the comments open are read again. */
export function reloadComments(): void {
  for (const postId of Object.keys(comments.byPost)) void loadComments(postId)
}

export function reset(): void {
  Object.assign(comments, initial())
}
