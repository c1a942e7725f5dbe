import { decodeCursor, encodeCursor, type CursorKey, type CursorPart } from '../cursor.js'
import type { Page } from '../types.js'
import type { Queryable } from './connect.js'
import { isUuid } from './records.js'

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

/**
 * `AND column <> ALL(hide)`: the people hidden from the reader (services/visibility.ts) left out inside
 * the query, before its LIMIT, so a page stays full and its cursor right. Nothing when none are hidden.
 */
export function hidden(sql: Queryable, column: string, hide: readonly string[] | undefined) {
  const ids = (hide ?? []).filter(isUuid)
  return ids.length === 0 ? sql`` : sql`AND ${sql(column)} <> ALL(${ids}::uuid[])`
}

/** A page of rows read in the order of their `activity_seq`, whose cursor is the last one's place there. */
export const seqPage = <R extends { seq: string }, T>(
  rows: readonly R[],
  limit: number | undefined,
  toItem: (row: R) => T,
) => pageFrom(rows, limit, (row) => [Number(row.seq)], toItem)
