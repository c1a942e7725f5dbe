import { AppError } from '../errors.js'

export type CursorKey = readonly (string | number)[]

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
    throw new AppError(400, 'cursor is invalid')
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
 * One page of an already ordered list: the items after the cursor's key, and the cursor of the last
 * item when more follow. Without a limit the whole remainder is one page.
 */
export function pageOf<T>(
  ordered: readonly T[],
  keyOf: (item: T) => CursorKey,
  direction: 1 | -1,
  request: { limit?: number; cursor?: string },
): { items: T[]; nextCursor: string | null } {
  let start = 0
  if (request.cursor !== undefined && ordered.length > 0) {
    const after = decodeCursor(request.cursor, keyOf(ordered[0] as T).length)
    let lo = 0
    let hi = ordered.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (compareKeys(keyOf(ordered[mid] as T), after, direction) <= 0) lo = mid + 1
      else hi = mid
    }
    start = lo
  }
  const end = request.limit === undefined ? ordered.length : Math.min(ordered.length, start + request.limit)
  const items = ordered.slice(start, end)
  const last = items[items.length - 1]
  return { items, nextCursor: end < ordered.length && last !== undefined ? encodeCursor(keyOf(last)) : null }
}

/** Offset cursors, for short lists kept inside one record (comments, bookmarks). */
export function pageByOffset<T>(items: readonly T[], request: { limit?: number; cursor?: string }) {
  const start = request.cursor === undefined ? 0 : (decodeCursor(request.cursor, 1)[0] as number)
  if (typeof start !== 'number' || !Number.isInteger(start) || start < 0) throw new AppError(400, 'cursor is invalid')
  const end = request.limit === undefined ? items.length : Math.min(items.length, start + request.limit)
  return { items: items.slice(start, end), nextCursor: end < items.length ? encodeCursor([end]) : null }
}
