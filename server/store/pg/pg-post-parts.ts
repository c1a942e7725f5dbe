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
