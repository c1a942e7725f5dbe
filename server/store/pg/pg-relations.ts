import { CURSOR } from '../cursor.js'
import type { MuteRecord, Page, PageRequest, Relation, Relations } from '../types.js'
import type { Queryable } from './connect.js'
import { limitOf, readCursor, seqPage } from './keyset.js'
import { isUuid } from './records.js'

/**
 * Blocks, mutes and whom a user follows on PostgreSQL: each read one statement by the primary keys or
 * blocks_page, mutes_page, blocks_blocked.
 */
const nothing = { items: [], nextCursor: null }
const seqBefore = (page: PageRequest) =>
  page.cursor === undefined ? Number.MAX_SAFE_INTEGER : readCursor(page.cursor, CURSOR.byPosition)[0]
const muteOf = (row: { id: string; until: Date | null }): MuteRecord =>
  row.until === null ? { userId: row.id } : { userId: row.id, until: row.until.toISOString() }

export async function relationsOf(sql: Queryable, userId: string, at: string): Promise<Relations> {
  if (!isUuid(userId)) return { blocking: [], blockedBy: [], muting: [] }
  const rows = await sql<{ kind: 'blocks' | 'blockedBy' | 'mutes'; id: string; until: Date | null }[]>`
    SELECT 'blocks' AS kind, b.blocked_id AS id, NULL::timestamptz AS until FROM blocks b WHERE b.blocker_id = ${userId}
    UNION ALL
    SELECT 'blockedBy', b.blocker_id, NULL FROM blocks b WHERE b.blocked_id = ${userId}
    UNION ALL
    SELECT 'mutes', m.muted_id, m.until FROM mutes m
    WHERE m.muter_id = ${userId} AND (m.until IS NULL OR m.until > ${at}::timestamptz)`
  const of = (kind: string) => rows.filter((row) => row.kind === kind)
  return {
    blocking: of('blocks').map((row) => row.id),
    blockedBy: of('blockedBy').map((row) => row.id),
    muting: of('mutes').map(muteOf),
  }
}

export async function relationBetween(
  sql: Queryable,
  viewerId: string,
  otherId: string,
  at: string,
): Promise<Relation> {
  if (!isUuid(viewerId) || !isUuid(otherId)) return { blocks: false, blockedBy: false, mutes: false }
  const [row] = await sql<Relation[]>`
    SELECT
      EXISTS (SELECT 1 FROM blocks WHERE blocker_id = ${viewerId} AND blocked_id = ${otherId}) AS blocks,
      EXISTS (SELECT 1 FROM blocks WHERE blocker_id = ${otherId} AND blocked_id = ${viewerId}) AS "blockedBy",
      EXISTS (SELECT 1 FROM mutes WHERE muter_id = ${viewerId} AND muted_id = ${otherId}
              AND (until IS NULL OR until > ${at}::timestamptz)) AS mutes`
  return row ?? { blocks: false, blockedBy: false, mutes: false }
}

/** relationBetween for every pair, in one statement; a pair with an id that is no uuid stands in no relation. */
export async function relationsBetween(
  sql: Queryable,
  pairs: readonly (readonly [string, string])[],
  at: string,
): Promise<Relation[]> {
  const none: Relation = { blocks: false, blockedBy: false, mutes: false }
  const asked = pairs.flatMap(([viewerId, otherId], n) =>
    isUuid(viewerId) && isUuid(otherId) ? [{ n, viewerId, otherId }] : [],
  )
  const found: Relation[] = pairs.map(() => none)
  if (asked.length === 0) return found
  const rows = await sql<(Relation & { n: number })[]>`
    SELECT q.n::int AS n,
      EXISTS (SELECT 1 FROM blocks WHERE blocker_id = q.viewer AND blocked_id = q.other) AS blocks,
      EXISTS (SELECT 1 FROM blocks WHERE blocker_id = q.other AND blocked_id = q.viewer) AS "blockedBy",
      EXISTS (SELECT 1 FROM mutes WHERE muter_id = q.viewer AND muted_id = q.other
              AND (until IS NULL OR until > ${at}::timestamptz)) AS mutes
    FROM unnest(${asked.map((pair) => pair.n)}::int[], ${asked.map((pair) => pair.viewerId)}::uuid[],
      ${asked.map((pair) => pair.otherId)}::uuid[]) AS q(n, viewer, other)`
  for (const { n, blocks, blockedBy, mutes } of rows) found[n] = { blocks, blockedBy, mutes }
  return found
}

export async function listBlocks(sql: Queryable, userId: string, page: PageRequest): Promise<Page<string>> {
  if (!isUuid(userId)) return nothing
  const rows = await sql<{ id: string; seq: string }[]>`
    SELECT b.blocked_id AS id, b.seq FROM blocks b WHERE b.blocker_id = ${userId} AND b.seq < ${seqBefore(page)}
    ORDER BY b.seq DESC ${limitOf(sql, page.limit)}`
  return seqPage(rows, page.limit, (row) => row.id)
}

export async function listMutes(
  sql: Queryable,
  userId: string,
  at: string,
  page: PageRequest,
): Promise<Page<MuteRecord>> {
  if (!isUuid(userId)) return nothing
  const rows = await sql<{ id: string; until: Date | null; seq: string }[]>`
    SELECT m.muted_id AS id, m.until, m.seq FROM mutes m
    WHERE m.muter_id = ${userId} AND (m.until IS NULL OR m.until > ${at}::timestamptz) AND m.seq < ${seqBefore(page)}
    ORDER BY m.seq DESC ${limitOf(sql, page.limit)}`
  return seqPage(rows, page.limit, muteOf)
}

/**
 * The block, then the end of the follow requests between the two and of the follows between them both
 * ways, with their counts: the follows that ended, or undefined when the block was there already (or
 * either user is not).
 */
export async function block(
  sql: Queryable,
  blockerId: string,
  blockedId: string,
  at: string,
): Promise<[string, string][] | undefined> {
  if (!isUuid(blockerId) || !isUuid(blockedId) || blockerId === blockedId) return undefined
  const [added] = await sql`
    INSERT INTO blocks (blocker_id, blocked_id, created_at)
    SELECT a.id, b.id, ${at} FROM users a, users b WHERE a.id = ${blockerId} AND b.id = ${blockedId}
    ON CONFLICT DO NOTHING RETURNING 1`
  if (!added) return undefined
  await sql`
    DELETE FROM follow_requests
    WHERE (follower_id = ${blockerId} AND followee_id = ${blockedId}) OR (follower_id = ${blockedId} AND followee_id = ${blockerId})`
  const ended = await sql<{ follower_id: string; followee_id: string }[]>`
    WITH ended AS (
      DELETE FROM follows
      WHERE (follower_id = ${blockerId} AND followee_id = ${blockedId}) OR (follower_id = ${blockedId} AND followee_id = ${blockerId})
      RETURNING follower_id, followee_id
    ), counted AS (
      UPDATE users u SET follower_count = u.follower_count - (SELECT count(*)::int FROM ended e WHERE e.followee_id = u.id),
        updated_at = ${at}
      WHERE u.id IN (SELECT follower_id FROM ended UNION SELECT followee_id FROM ended)
    )
    SELECT follower_id, followee_id FROM ended`
  return ended.map((row) => [row.follower_id, row.followee_id])
}

export async function unblock(sql: Queryable, blockerId: string, blockedId: string): Promise<boolean> {
  if (!isUuid(blockerId) || !isUuid(blockedId)) return false
  const rows = await sql`DELETE FROM blocks WHERE blocker_id = ${blockerId} AND blocked_id = ${blockedId} RETURNING 1`
  return rows.length > 0
}

/** A mute again replaces the one there, running or not, and moves it to the front of the list. */
export async function mute(sql: Queryable, muterId: string, mute: MuteRecord, at: string): Promise<boolean> {
  if (!isUuid(muterId) || !isUuid(mute.userId) || muterId === mute.userId) return false
  const rows = await sql`
    INSERT INTO mutes (muter_id, muted_id, created_at, until)
    SELECT a.id, b.id, ${at}, ${mute.until ?? null}::timestamptz FROM users a, users b
    WHERE a.id = ${muterId} AND b.id = ${mute.userId}
    ON CONFLICT (muter_id, muted_id) DO UPDATE
      SET until = EXCLUDED.until, created_at = EXCLUDED.created_at, seq = nextval('activity_seq')
    RETURNING 1`
  return rows.length > 0
}

export async function unmute(sql: Queryable, muterId: string, mutedId: string): Promise<boolean> {
  if (!isUuid(muterId) || !isUuid(mutedId)) return false
  const rows = await sql`DELETE FROM mutes WHERE muter_id = ${muterId} AND muted_id = ${mutedId} RETURNING 1`
  return rows.length > 0
}

/** Which of these people the user follows, by the follows primary key. */
export async function followedAmong(sql: Queryable, userId: string, otherIds: readonly string[]): Promise<Set<string>> {
  const ids = otherIds.filter(isUuid)
  if (!isUuid(userId) || ids.length === 0) return new Set()
  const rows = await sql<{ id: string }[]>`
    SELECT f.followee_id AS id FROM follows f WHERE f.follower_id = ${userId} AND f.followee_id = ANY(${ids}::uuid[])`
  return new Set(rows.map((row) => row.id))
}
