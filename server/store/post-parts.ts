import { CURSOR, decodeCursor, encodeCursor, pageByOffset } from './cursor.js'
import type { CommentRecord, LockedPost, Page, PageRequest, PostRecord } from './types.js'

/** Every image URL a post shows, the first first. */
export const imageUrlsOf = (post: Pick<PostRecord, 'mediaUrl' | 'moreMedia'>): string[] =>
  post.mediaUrl === '' ? [] : [post.mediaUrl, ...(post.moreMedia ?? []).map((image) => image.url)]

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

const order = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

/** The reposters, the most recent repost first, paged by the repost's time and the reposter's id. */
export function repostersOf(post: PostRecord | undefined, page: PageRequest): Page<string> {
  const hide = new Set(page.hide ?? [])
  const after = page.cursor === undefined ? undefined : decodeCursor(page.cursor, CURSOR.byTime)
  const newestFirst = [...(post?.reposts ?? [])]
    .filter((repost) => !hide.has(repost.userId))
    .sort((a, b) => (a.at === b.at ? order(b.userId, a.userId) : order(b.at, a.at)))
    .filter((repost) => {
      if (!after) return true
      const [at, id] = after as [string, string]
      const time = new Date(at).toISOString()
      return repost.at < time || (repost.at === time && repost.userId < id)
    })
  const limit = page.limit ?? newestFirst.length
  const kept = newestFirst.slice(0, limit)
  const last = kept.at(-1)
  return {
    items: kept.map((repost) => repost.userId),
    nextCursor: newestFirst.length > limit && last ? encodeCursor([last.at, last.userId]) : null,
  }
}

export const commentsOf = (post: PostRecord | undefined, page: PageRequest): Page<CommentRecord> =>
  post ? pageByOffset(post.comments, page) : nothing

export const commentOf = (post: PostRecord | undefined, commentId: string): CommentRecord | undefined =>
  post?.comments.find((comment) => comment._id === commentId)

export const likedIn = (posts: readonly PostRecord[], userId: string): Set<string> =>
  new Set(posts.filter((post) => post.likedBy.includes(userId)).map((post) => post._id))

/** How many likes of each post are by `userIds`, by post id; posts without one are left out. */
export function likesByIn(posts: readonly PostRecord[], userIds: readonly string[]): Map<string, number> {
  const people = new Set(userIds)
  const counts = new Map<string, number>()
  for (const post of posts) {
    const count = post.likedBy.reduce((sum, id) => (people.has(id) ? sum + 1 : sum), 0)
    if (count > 0) counts.set(post._id, count)
  }
  return counts
}
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

/** The post without its lists, as a write that locks it learns it. */
export function lockedOf(post: PostRecord | undefined): LockedPost | undefined {
  if (!post) return undefined
  const { likedBy: _likes, dislikedBy: _dislikes, comments: _comments, versions: _versions, ...locked } = post
  return locked
}

/** Each id once and only the known, in their order; `taken` holds ids an earlier list kept. */
function keptOf(ids: readonly string[], known: (id: string) => boolean, taken: Set<string>): string[] {
  return ids.filter((id) => known(id) && !taken.has(id) && taken.add(id) !== undefined)
}

/**
 * A post as a store takes it in: only the likes, dislikes, comments and votes of people who exist, each
 * once (a like wins over a dislike, an upvote over a downvote), and the counts of what was kept.
 */
export function withKnownPeople(post: PostRecord, known: (id: string) => boolean): PostRecord {
  const reacted = new Set<string>()
  const likedBy = keptOf(post.likedBy, known, reacted)
  const dislikedBy = keptOf(post.dislikedBy, known, reacted)
  const comments = post.comments
    .filter((comment) => known(comment.authorId))
    .map((comment) => withKnownVoters(comment, known))
  return withCounts({ ...post, likedBy, dislikedBy, comments })
}

export function withKnownVoters(comment: CommentRecord, known: (id: string) => boolean): CommentRecord {
  const voted = new Set<string>()
  const upvotedBy = keptOf(comment.upvotedBy, known, voted)
  return { ...comment, upvotedBy, downvotedBy: keptOf(comment.downvotedBy, known, voted) }
}
