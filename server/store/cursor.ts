import { MSG, badRequest } from '../errors.js'

export type CursorKey = readonly (string | number)[]

/** How a list is ordered: the key of an item, how many parts every key has, and a comparison of two items by it. */
export interface SortKey<T> {
  of: (item: T) => CursorKey
  length: number
  /** Negative, zero or positive as `a`'s key is below, equal to or above `b`'s; allocates nothing. */
  compare: (a: T, b: T) => number
}

/** Cursors are opaque to clients: base64url of the last item's sort key. */
export function encodeCursor(key: CursorKey): string {
  return Buffer.from(JSON.stringify(key)).toString('base64url')
}

export function decodeCursor(cursor: string, length: number): CursorKey {
  let key: unknown
  try {
    key = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'))
  } catch {
    key = undefined
  }
  if (
    !Array.isArray(key) ||
    key.length !== length ||
    !key.every((part) => typeof part === 'string' || (typeof part === 'number' && Number.isFinite(part)))
  ) {
    throw badRequest(MSG.badCursor)
  }
  return key as CursorKey
}

/** Compares keys part by part; `direction` is 1 for ascending and -1 for descending. */
export function compareKeys(a: CursorKey, b: CursorKey, direction: 1 | -1): number {
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as string | number
    const y = b[i] as string | number
    if (x < y) return -direction
    if (x > y) return direction
  }
  return 0
}

/**
 * Where a page starts in a list kept in ascending key order: the index of the first item after the
 * cursor's key in the direction of reading (1 reads up from the start, -1 reads down from the end).
 */
export function startOf<T>(
  ascending: readonly T[],
  key: SortKey<T>,
  direction: 1 | -1,
  cursor: string | undefined,
): number {
  if (cursor === undefined) return direction === 1 ? 0 : ascending.length - 1
  const after = decodeCursor(cursor, key.length)
  // The first index whose key is above `after` (reading up) or at or above it (reading down).
  let lo = 0
  let hi = ascending.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    const order = compareKeys(key.of(ascending[mid] as T), after, 1)
    if (order < 0 || (order === 0 && direction === 1)) lo = mid + 1
    else hi = mid
  }
  return direction === 1 ? lo : lo - 1
}

/**
 * One page of a list kept in ascending key order, read in `direction` without copying the list: the
 * items after the cursor's key, and the cursor of the last item when more follow. Without a limit the
 * whole remainder is one page.
 */
export function pageOf<T>(
  ascending: readonly T[],
  key: SortKey<T>,
  direction: 1 | -1,
  request: { limit?: number; cursor?: string },
): { items: T[]; nextCursor: string | null } {
  const start = startOf(ascending, key, direction, request.cursor)
  const remaining = direction === 1 ? ascending.length - start : start + 1
  const count = Math.max(0, request.limit === undefined ? remaining : Math.min(remaining, request.limit))
  const items = new Array<T>(count)
  for (let i = 0; i < count; i++) items[i] = ascending[start + i * direction] as T
  const last = items[count - 1]
  return { items, nextCursor: count < remaining && last !== undefined ? encodeCursor(key.of(last)) : null }
}

/** Offset cursors, for short lists kept inside one record (comments, bookmarks). */
export function pageByOffset<T>(items: readonly T[], request: { limit?: number; cursor?: string }) {
  const start = request.cursor === undefined ? 0 : (decodeCursor(request.cursor, 1)[0] as number)
  if (typeof start !== 'number' || !Number.isInteger(start) || start < 0) throw badRequest(MSG.badCursor)
  const end = request.limit === undefined ? items.length : Math.min(items.length, start + request.limit)
  return { items: items.slice(start, end), nextCursor: end < items.length ? encodeCursor([end]) : null }
}
