import { CURSOR } from '../cursor.js'
import type { Page, PageRequest } from '../types.js'
import type { Queryable } from './connect.js'
import { hidden, limitOf, readCursor, seqPage } from './keyset.js'
import { isUuid } from './records.js'

/**
 * Follow requests on PostgreSQL (migration 21): one row each, numbered by `activity_seq` like follows, so
 * a person's waiting list pages by it, the oldest first; accepting one moves it into `follows` in one
 * statement that keeps the follower count with it.
 */
const seqAfter = (page: PageRequest) => (page.cursor === undefined ? 0 : readCursor(page.cursor, CURSOR.byPosition)[0])

export async function listFollowRequests(sql: Queryable, userId: string, page: PageRequest): Promise<Page<string>> {
  if (!isUuid(userId)) return { items: [], nextCursor: null }
  const rows = await sql<{ id: string; seq: string }[]>`
    SELECT r.follower_id AS id, r.seq FROM follow_requests r
    WHERE r.followee_id = ${userId} AND r.seq > ${seqAfter(page)} ${hidden(sql, 'r.follower_id', page.hide)}
    ORDER BY r.seq ${limitOf(sql, page.limit)}`
  return seqPage(rows, page.limit, (row) => row.id)
}

export async function requestedAmong(
  sql: Queryable,
  followerId: string,
  userIds: readonly string[],
): Promise<Set<string>> {
  const asked = userIds.filter(isUuid)
  if (!isUuid(followerId) || asked.length === 0) return new Set()
  const rows = await sql<{ id: string }[]>`
    SELECT followee_id AS id FROM follow_requests
    WHERE follower_id = ${followerId} AND followee_id = ANY(${asked}::uuid[])`
  return new Set(rows.map((row) => row.id))
}

/** Refused, by the insert itself, between two people of whom one already follows the other that way. */
export async function addFollowRequest(
  sql: Queryable,
  followerId: string,
  followeeId: string,
  at: string,
): Promise<boolean> {
  if (!isUuid(followerId) || !isUuid(followeeId) || followerId === followeeId) return false
  const rows = await sql`
    INSERT INTO follow_requests (follower_id, followee_id, created_at)
    SELECT a.id, b.id, ${at} FROM users a, users b
    WHERE a.id = ${followerId} AND b.id = ${followeeId}
      AND NOT EXISTS (SELECT 1 FROM follows f WHERE f.follower_id = a.id AND f.followee_id = b.id)
    ON CONFLICT DO NOTHING RETURNING 1`
  return rows.length > 0
}

export async function removeFollowRequest(sql: Queryable, followerId: string, followeeId: string): Promise<boolean> {
  if (!isUuid(followerId) || !isUuid(followeeId)) return false
  const rows = await sql`
    DELETE FROM follow_requests WHERE follower_id = ${followerId} AND followee_id = ${followeeId} RETURNING 1`
  return rows.length > 0
}

/**
 * The requests to the followee (from `followerId` alone, when given) turned into follows, the oldest first,
 * with the followee's count and both sides' `updatedAt` moved as `follow` moves them: the followers whose
 * request there was, in that order.
 */
export async function acceptFollowRequests(
  sql: Queryable,
  followeeId: string,
  followerId: string | undefined,
  at: string,
): Promise<string[]> {
  if (!isUuid(followeeId) || (followerId !== undefined && !isUuid(followerId))) return []
  const whose = followerId === undefined ? sql`` : sql`AND follower_id = ${followerId}`
  const rows = await sql<{ follower_id: string }[]>`
    WITH accepted AS (
      DELETE FROM follow_requests WHERE followee_id = ${followeeId} ${whose} RETURNING follower_id, followee_id, seq
    ), followed AS (
      INSERT INTO follows (follower_id, followee_id)
      SELECT follower_id, followee_id FROM accepted ORDER BY seq
      ON CONFLICT DO NOTHING RETURNING follower_id
    ), counted AS (
      UPDATE users u
      SET follower_count = u.follower_count + (u.id = ${followeeId})::int * (SELECT count(*)::int FROM followed),
        updated_at = ${at}
      WHERE (u.id = ${followeeId} OR u.id IN (SELECT follower_id FROM followed)) AND EXISTS (SELECT 1 FROM followed)
    )
    SELECT follower_id FROM accepted ORDER BY seq`
  return rows.map((row) => row.follower_id)
}
