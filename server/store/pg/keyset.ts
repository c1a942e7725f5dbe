import { decodeCursor, encodeCursor, type CursorKey, type CursorPart } from '../cursor.js'
import type { Page } from '../types.js'
import type { Queryable } from './connect.js'

/**
 * Keyset pages over PostgreSQL. A cursor is the last item's sort key, encoded as the embedded store
 * encodes its own, so clients see one format, and checked as that store checks it (cursor.ts) before
 * a part reaches a query: a part that passes is one PostgreSQL takes (a time it can hold, a uuid, text
 * without NUL), so a forged cursor is the same 400 here as there, never a failed statement.
 */
export function readCursor<const P extends readonly CursorPart[]>(
  cursor: string,
  parts: P,
): { [I in keyof P]: KeyPart<P[I]> } {
  const key = decodeCursor(cursor, parts).map((part, i) => (parts[i] === 'time' ? new Date(part) : part))
  return key as { [I in keyof P]: KeyPart<P[I]> }
}

type KeyPart<K> = K extends 'time' ? Date : K extends 'count' | 'position' ? number : string

/** `LIMIT n + 1`, so a page knows whether another follows; nothing without a limit. */
export const limitOf = (sql: Queryable, limit: number | undefined) =>
  limit === undefined ? sql`` : sql`LIMIT ${limit + 1}`

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
