import { MSG, badRequest } from '../../errors.js'
import { encodeCursor, type CursorKey } from '../cursor.js'
import type { Page } from '../types.js'
import type { Queryable } from './connect.js'
import { isUuid } from './records.js'

/**
 * Keyset pages over PostgreSQL. A cursor is the last item's sort key, encoded as the embedded store
 * encodes its own, so clients see one format; its parts are checked here before they reach a query,
 * where a malformed one would fail the statement instead of being refused.
 */
const invalid = () => badRequest(MSG.badCursor)

export function timeOf(part: CursorKey[number] | undefined): Date {
  const time = typeof part === 'string' ? new Date(part) : undefined
  if (!time || Number.isNaN(time.getTime())) throw invalid()
  return time
}

export function idOf(part: CursorKey[number] | undefined): string {
  if (!isUuid(part)) throw invalid()
  return part
}

/** A text key part, such as a lower-case username. */
export function textOf(part: CursorKey[number] | undefined): string {
  if (typeof part !== 'string') throw invalid()
  return part
}

/** `LIMIT n + 1`, so a page knows whether another follows; nothing without a limit. */
export const limitOf = (sql: Queryable, limit: number | undefined) =>
  limit === undefined ? sql`` : sql`LIMIT ${limit + 1}`

/** A count (at most `max`, as an int column holds) or a sequence number, which a JS number keeps exactly. */
export function countOf(part: CursorKey[number] | undefined, max = Number.MAX_SAFE_INTEGER): number {
  if (typeof part !== 'number' || !Number.isSafeInteger(part) || part < 0 || part > max) throw invalid()
  return part
}

/**
 * A page from rows read with `LIMIT limit + 1`: the extra row only says that another page follows,
 * and the cursor is the key of the last row kept.
 */
export function pageFrom<R, T>(
  rows: readonly R[],
  limit: number | undefined,
  keyOf: (row: R) => CursorKey,
  toItem: (row: R) => T,
): Page<T> {
  const more = limit !== undefined && rows.length > limit
  const kept = more ? rows.slice(0, limit) : rows
  const last = kept[kept.length - 1]
  return { items: kept.map(toItem), nextCursor: more && last !== undefined ? encodeCursor(keyOf(last)) : null }
}
