import { CURSOR } from '../cursor.js'
import type { AudienceScope, FeedRepost, FeedRepostQuery, Page, PageRequest, PostRecord } from '../types.js'
import { inAudience, travels } from './audience-sql.js'
import { plannedEachRun, type Queryable } from './connect.js'
import { hidden, limitOf, pageFrom, readCursor } from './keyset.js'
import { countedChange } from './pg-post-parts.js'
import { isUuid, postColumns, toPostRecord, type PostRow } from './records.js'

/** Reposts and pins on PostgreSQL: the reposts table, read by its reposts_user_time index, and posts_pinned. */

export async function repostedAmong(sql: Queryable, userId: string, postIds: readonly string[]): Promise<Set<string>> {
  const ids = postIds.filter(isUuid)
  if (!isUuid(userId) || ids.length === 0) return new Set()
  const rows = await sql<{ post_id: string }[]>`
    SELECT r.post_id FROM reposts r WHERE r.user_id = ${userId} AND r.post_id = ANY(${ids}::uuid[])`
  return new Set(rows.map((row) => row.post_id))
}

/** Who reposts the post, the most recent repost first, by the repost's time and the reposter's id. */
export async function listReposters(sql: Queryable, postId: string, page: PageRequest): Promise<Page<string>> {
  if (!isUuid(postId)) return { items: [], nextCursor: null }
  let after = sql``
  if (page.cursor !== undefined) {
    const [at, id] = readCursor(page.cursor, CURSOR.byTime)
    after = sql`AND (r.created_at, r.user_id) < (${at}, ${id}::uuid)`
  }
  const rows = await sql<{ user_id: string; created_at: Date }[]>`
    SELECT r.user_id, r.created_at FROM reposts r
    WHERE r.post_id = ${postId} ${after} ${hidden(sql, 'r.user_id', page.hide)}
    ORDER BY r.created_at DESC, r.user_id DESC ${limitOf(sql, page.limit)}`
  return pageFrom(
    rows,
    page.limit,
    (row) => [row.created_at.toISOString(), row.user_id],
    (row) => row.user_id,
  )
}

/**
 * Each post reposted by one of `authors` (none of `hide`), written by none of them and of an audience that
 * travels, at its first such repost: DISTINCT ON picks it, and the keyset runs over that time and the post's id.
 */
export async function listFeedReposts(
  sql: Queryable,
  authors: readonly string[],
  query: FeedRepostQuery,
): Promise<Page<FeedRepost>> {
  const ids = authors.filter(isUuid)
  if (ids.length === 0) return { items: [], nextCursor: null }
  const oldest = query.sort === 'oldest'
  let after = sql``
  if (query.cursor !== undefined) {
    const [at, id] = readCursor(query.cursor, CURSOR.byTime)
    after = oldest
      ? sql`WHERE (f.at, f.post_id) > (${at}, ${id}::uuid)`
      : sql`WHERE (f.at, f.post_id) < (${at}, ${id}::uuid)`
  }
  const order = oldest ? sql`f.at, f.post_id` : sql`f.at DESC, f.post_id DESC`
  const rows = await plannedEachRun(sql<(PostRow & { by: string; at: Date })[]>`
    SELECT f.by, f.at, ${postColumns(sql)}
    FROM (
      SELECT f.* FROM (
        SELECT DISTINCT ON (r.post_id) r.post_id, r.user_id AS by, r.created_at AS at
        FROM reposts r JOIN posts p ON p.id = r.post_id
        WHERE r.user_id = ANY(${ids}::uuid[]) AND NOT (p.author_id = ANY(${ids}::uuid[])) ${travels(sql)}
          ${hidden(sql, 'r.user_id', query.hide)} ${hidden(sql, 'p.author_id', query.hide)}
        ORDER BY r.post_id, r.created_at, r.user_id
      ) f ${after} ORDER BY ${order} ${limitOf(sql, query.limit)}
    ) f JOIN posts p ON p.id = f.post_id
    ORDER BY ${order}`)
  return pageFrom(
    rows,
    query.limit,
    (row) => [row.at.toISOString(), row.id],
    (row) => ({ post: toPostRecord(row), by: row.by, at: row.at.toISOString() }),
  )
}

export async function listPinned(sql: Queryable, userId: string, audience?: AudienceScope): Promise<PostRecord[]> {
  if (!isUuid(userId)) return []
  const rows = await sql<PostRow[]>`
    SELECT ${postColumns(sql)} FROM posts p
    WHERE p.author_id = ${userId} AND p.pinned_at IS NOT NULL ${inAudience(sql, audience)}
    ORDER BY p.pinned_at DESC, p.id DESC`
  return rows.map(toPostRecord)
}

/** The repost row and the count on the post change together, in one statement, as a like does. */
export async function setRepost(
  sql: Queryable,
  postId: string,
  userId: string,
  reposted: boolean,
  at: string,
): Promise<boolean> {
  if (!isUuid(postId) || !isUuid(userId)) return false
  const changed = reposted
    ? sql`
        INSERT INTO reposts (post_id, user_id, created_at)
        SELECT p.id, u.id, ${at} FROM posts p, users u WHERE p.id = ${postId} AND u.id = ${userId}
        ON CONFLICT (post_id, user_id) DO NOTHING
        RETURNING 1`
    : sql`DELETE FROM reposts WHERE post_id = ${postId} AND user_id = ${userId} RETURNING 1`
  return countedChange(sql, changed, { id: postId, column: 'repost_count', delta: reposted ? 1 : -1, at })
}

export async function setPinned(sql: Queryable, postId: string, at: string | null): Promise<void> {
  if (!isUuid(postId)) return
  await sql`UPDATE posts SET pinned_at = ${at} WHERE id = ${postId}`
}
