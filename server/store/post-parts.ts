import { CURSOR, decodeCursor, encodeCursor, pageByOffset } from './cursor.js'
import type { CommentRecord, Page, PageRequest, PostRecord } from './types.js'

/**
 * The paged reads of a post's likes and comments, for the embedded store, whose records hold them all;
 * an unknown post (undefined) has none.
 */
const nothing = { items: [], nextCursor: null }

/** The likers, the most recent first, read from the end of `likedBy` without copying it. */
export function likersOf(post: PostRecord | undefined, page: PageRequest): Page<string> {
  if (!post) return nothing
  const ids = post.likedBy
  const start = page.cursor === undefined ? 0 : (decodeCursor(page.cursor, CURSOR.byPosition)[0] as number)
  const end = Math.min(ids.length, start + (page.limit ?? ids.length))
  const items: string[] = []
  for (let i = start; i < end; i++) items.push(ids[ids.length - 1 - i] as string)
  return { items, nextCursor: end < ids.length ? encodeCursor([end]) : null }
}

export const commentsOf = (post: PostRecord | undefined, page: PageRequest): Page<CommentRecord> =>
  post ? pageByOffset(post.comments, page) : nothing

export const commentOf = (post: PostRecord | undefined, commentId: string): CommentRecord | undefined =>
  post?.comments.find((comment) => comment._id === commentId)

export const likedIn = (posts: readonly PostRecord[], userId: string): Set<string> =>
  new Set(posts.filter((post) => post.likedBy.includes(userId)).map((post) => post._id))

export const repostedIn = (posts: readonly PostRecord[], userId: string): Set<string> =>
  new Set(posts.filter((post) => post.reposts?.some((repost) => repost.userId === userId)).map((post) => post._id))

/**
 * The record with its counts, worked out from its lists: databases written before the counts existed
 * hold none. The same record when they are right already.
 */
export function withCounts(post: PostRecord): PostRecord {
  const likeCount = post.likedBy.length
  const commentCount = post.comments.length
  const repostCount = post.reposts?.length ?? 0
  if (post.likeCount === likeCount && post.commentCount === commentCount && (post.repostCount ?? 0) === repostCount)
    return post
  const { repostCount: _stale, ...rest } = post
  return { ...rest, likeCount, commentCount, ...(repostCount > 0 ? { repostCount } : {}) }
}
