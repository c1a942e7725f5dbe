import type postgres from 'postgres'
import { CURSOR } from '../cursor.js'
import type { AuthoredComment, CommentRecord, Page, PageRequest } from '../types.js'
import type { Queryable } from './connect.js'
import { hidden, limitOf, readCursor, seqPage } from './keyset.js'
import { commentJson, isUuid, toCommentRecord, type CommentJson } from './records.js'

/**
 * A post's likes and comments beyond what its row shows, each read by an index from where the cursor
 * left off (post_reactions_recent, post_reactions_user, comments_post).
 */
const nothing = { items: [], nextCursor: null }
const seqOf = (page: PageRequest) =>
  page.cursor === undefined ? undefined : readCursor(page.cursor, CURSOR.byPosition)[0]

export async function likedAmong(sql: Queryable, userId: string, postIds: readonly string[]): Promise<Set<string>> {
  const ids = postIds.filter(isUuid)
  if (!isUuid(userId) || ids.length === 0) return new Set()
  const rows = await sql<{ post_id: string }[]>`
    SELECT r.post_id FROM post_reactions r WHERE r.user_id = ${userId} AND r.liked AND r.post_id = ANY(${ids}::uuid[])`
  return new Set(rows.map((row) => row.post_id))
}

/** How many likes of each post are by `userIds`, by post id (post_reactions_user); posts without one are left out. */
export async function countLikesBy(
  sql: Queryable,
  postIds: readonly string[],
  userIds: readonly string[],
): Promise<Map<string, number>> {
  const posts = postIds.filter(isUuid)
  const people = userIds.filter(isUuid)
  if (posts.length === 0 || people.length === 0) return new Map()
  const rows = await sql<{ post_id: string; likes: number }[]>`
    SELECT r.post_id, count(*)::int AS likes FROM post_reactions r
    WHERE r.liked AND r.user_id = ANY(${people}::uuid[]) AND r.post_id = ANY(${posts}::uuid[])
    GROUP BY r.post_id`
  return new Map(rows.map((row) => [row.post_id, row.likes]))
}

/** The most recent like first; the cursor is the last like's place in the order they were made. */
export async function listLikers(sql: Queryable, postId: string, page: PageRequest): Promise<Page<string>> {
  if (!isUuid(postId)) return nothing
  const rows = await sql<{ user_id: string; seq: string }[]>`
    SELECT r.user_id, r.seq FROM post_reactions r
    WHERE r.post_id = ${postId} AND r.liked AND r.seq < ${seqOf(page) ?? Number.MAX_SAFE_INTEGER}
      ${hidden(sql, 'r.user_id', page.hide)}
    ORDER BY r.seq DESC ${limitOf(sql, page.limit)}`
  return seqPage(rows, page.limit, (row) => row.user_id)
}

export async function getComment(
  sql: Queryable,
  postId: string,
  commentId: string,
): Promise<CommentRecord | undefined> {
  if (!isUuid(postId) || !isUuid(commentId)) return undefined
  const [row] = await sql<{ comment: CommentJson }[]>`
    SELECT ${commentJson(sql)} AS comment FROM comments c WHERE c.id = ${commentId} AND c.post_id = ${postId}`
  return row && toCommentRecord(row.comment)
}

/** Oldest first; the cursor is the last comment's place in the order they were made. */
export async function listComments(sql: Queryable, postId: string, page: PageRequest): Promise<Page<CommentRecord>> {
  if (!isUuid(postId)) return nothing
  const rows = await sql<{ seq: string; comment: CommentJson }[]>`
    SELECT c.seq, ${commentJson(sql)} AS comment FROM comments c
    WHERE c.post_id = ${postId} AND c.seq > ${seqOf(page) ?? 0} ${hidden(sql, 'c.author_id', page.hide)}
    ORDER BY c.seq ${limitOf(sql, page.limit)}`
  return seqPage(rows, page.limit, (row) => toCommentRecord(row.comment))
}

/**
 * Runs `changed` (a statement that returns a row when it changed something) and moves the post's count
 * in `column` by `delta` in the same statement, only when it did; whether it did.
 */
export async function countedChange(
  sql: Queryable,
  changed: postgres.PendingQuery<postgres.Row[]>,
  post: { id: string; column: 'like_count' | 'repost_count'; delta: number; at: string },
): Promise<boolean> {
  const rows = await sql`
    WITH changed AS (${changed})
    UPDATE posts SET ${sql(post.column)} = ${sql(post.column)} + ${post.delta}, updated_at = ${post.at}
    WHERE id = ${post.id} AND EXISTS (SELECT 1 FROM changed)
    RETURNING id`
  return rows.length > 0
}

/** The user's comments across every post, oldest first, by comments_author. */
export async function listCommentsBy(
  sql: Queryable,
  userId: string,
  page: PageRequest,
): Promise<Page<AuthoredComment>> {
  if (!isUuid(userId)) return nothing
  const rows = await sql<{ seq: string; post_id: string; comment: CommentJson }[]>`
    SELECT c.seq, c.post_id, ${commentJson(sql)} AS comment FROM comments c
    WHERE c.author_id = ${userId} AND c.seq > ${seqOf(page) ?? 0}
    ORDER BY c.seq ${limitOf(sql, page.limit)}`
  return seqPage(rows, page.limit, (row) => ({ postId: row.post_id, comment: toCommentRecord(row.comment) }))
}

/** The posts the user likes, the oldest like first. */
export async function listLikedPostIds(sql: Queryable, userId: string, page: PageRequest): Promise<Page<string>> {
  if (!isUuid(userId)) return nothing
  const rows = await sql<{ post_id: string; seq: string }[]>`
    SELECT r.post_id, r.seq FROM post_reactions r
    WHERE r.user_id = ${userId} AND r.liked AND r.seq > ${seqOf(page) ?? 0}
    ORDER BY r.seq ${limitOf(sql, page.limit)}`
  return seqPage(rows, page.limit, (row) => row.post_id)
}
