import { MSG, badRequest } from '../errors.js'

export type CursorKey = readonly (string | number)[]

/**
 * What one part of a cursor holds. A cursor is opaque to clients but comes back from them, so every
 * part is checked against its kind before any store compares or queries with it: one check for both
 * stores, so a cursor neither could have made is a 400 on each, never a page on one and a 500 on the
 * other.
 */
export type CursorPart =
  /** An ISO 8601 time in the years 1 to 9999, which PostgreSQL's timestamps and JS dates both hold. */
  | 'time'
  /** A record id: a uuid, as every id is. */
  | 'id'
  /** A name: text without control characters or half surrogate pairs, which PostgreSQL would refuse. */
  | 'text'
  /** A like count: what PostgreSQL's integer column holds. */
  | 'count'
  /** A place in a list: a whole number from 0. */
  | 'position'

/** The shapes of the lists' cursors, shared by both stores and by the lists a service answers as empty. */
export const CURSOR = {
  byTime: ['time', 'id'],
  byLikes: ['count', 'time', 'id'],
  byName: ['text'],
  byPosition: ['position'],
} as const satisfies Record<string, readonly CursorPart[]>

/** How a list is ordered: the key of an item, what each part of a key is, and a comparison of two items by it. */
export interface SortKey<T> {
  of: (item: T) => CursorKey
  parts: readonly CursorPart[]
  /** Negative, zero or positive as `a`'s key is below, equal to or above `b`'s; allocates nothing. */
  compare: (a: T, b: T) => number
}

/** Cursors are opaque to clients: base64url of the last item's sort key. */
export function encodeCursor(key: CursorKey): string {
  return Buffer.from(JSON.stringify(key)).toString('base64url')
}

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
/** C0 and C1 controls (NUL among them, which no PostgreSQL text holds) and lone surrogates. */
const UNFIT_TEXT = /[\p{Cc}\p{Cs}]/u
const INT_MAX = 2 ** 31 - 1

function fits(part: unknown, kind: CursorPart): boolean {
  switch (kind) {
    case 'time': {
      if (typeof part !== 'string' || !ISO_TIME.test(part)) return false
      const year = new Date(part).getUTCFullYear()
      return year >= 1 && year <= 9999
    }
    case 'id':
      return typeof part === 'string' && UUID.test(part)
    case 'text':
      return typeof part === 'string' && !UNFIT_TEXT.test(part)
    case 'count':
      return Number.isSafeInteger(part) && (part as number) >= 0 && (part as number) <= INT_MAX
    case 'position':
      return Number.isSafeInteger(part) && (part as number) >= 0
  }
}

/** The key a cursor holds, each part checked against `parts`; a 400 naming the cursor otherwise. */
export function decodeCursor(cursor: string, parts: readonly CursorPart[]): CursorKey {
  let key: unknown
  try {
    key = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'))
  } catch {
    key = undefined
  }
  if (
    !Array.isArray(key) ||
    key.length !== parts.length ||
    !key.every((part, i) => fits(part, parts[i] as CursorPart))
  ) {
    throw badRequest(MSG.badCursor)
  }
  return key as CursorKey
}

/** Refuses a bad cursor for a list that has nothing to read it against (nothing matches): the same 400 as a full one. */
export function checkCursor(request: { cursor?: string | undefined }, parts: readonly CursorPart[]): void {
  if (request.cursor !== undefined) decodeCursor(request.cursor, parts)
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
  const after = decodeCursor(cursor, key.parts)
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

/** Offset cursors, for lists read whole by their owner in one go (the comments an account export gathers). */
export function pageByOffset<T>(items: readonly T[], request: { limit?: number; cursor?: string }) {
  const start = request.cursor === undefined ? 0 : (decodeCursor(request.cursor, CURSOR.byPosition)[0] as number)
  const end = request.limit === undefined ? items.length : Math.min(items.length, start + request.limit)
  return { items: items.slice(start, end), nextCursor: end < items.length ? encodeCursor([end]) : null }
}
