import { compareKeys, encodeCursor, startOf, type CursorKey, type SortKey } from './cursor.js'
import type { Page } from './types.js'

/** A list kept in ascending key order, with binary-search insert, replace and delete. Keys are unique. */
export class SortedList<T extends { _id: string }> {
  items: T[] = []
  constructor(readonly key: SortKey<T>) {}

  reset(items: T[]): void {
    this.items = items.slice().sort(this.key.compare)
  }

  /**
   * `items`, already in ascending key order, without sorting them again: for a load that gathers many lists
   * from one sorted walk. Copied, so that the list holds no more room than its items (an array grown by
   * pushes keeps up to half as much again, and a list of one or two a dozen slots).
   */
  adopt(items: readonly T[]): void {
    this.items = items.slice()
  }

  upsert(previous: T | undefined, next: T): void {
    if (previous) {
      const at = this.#find(previous)
      // Most changes (a like, an edit) keep the key: the record is swapped in place.
      if (at !== -1 && this.key.compare(previous, next) === 0) {
        this.items[at] = next
        return
      }
      if (at !== -1) this.items.splice(at, 1)
    }
    this.items.splice(this.#insertionPoint(next), 0, next)
  }

  has(item: T): boolean {
    return this.#find(item) !== -1
  }

  remove(item: T): void {
    const at = this.#find(item)
    if (at !== -1) this.items.splice(at, 1)
  }

  #insertionPoint(item: T): number {
    let lo = 0
    let hi = this.items.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (this.key.compare(this.items[mid] as T, item) < 0) lo = mid + 1
      else hi = mid
    }
    return lo
  }

  #find(item: T): number {
    const at = this.#insertionPoint(item)
    return this.items[at]?._id === item._id ? at : -1
  }
}

export interface PageRequest {
  limit?: number
  cursor?: string
}

/** `limit + 1` items were looked for: the extra one only tells whether a next page exists. */
function finish<T>(found: T[], key: SortKey<T>, limit: number | undefined): Page<T> {
  if (limit === undefined || found.length <= limit) return { items: found, nextCursor: null }
  const items = found.slice(0, limit)
  return { items, nextCursor: encodeCursor(key.of(items[limit - 1] as T)) }
}

/** Reads `ascending` in `direction` from the cursor, keeping the items `accept` takes. */
export function scanPage<T>(
  ascending: readonly T[],
  key: SortKey<T>,
  direction: 1 | -1,
  request: PageRequest,
  accept: (item: T) => boolean,
): Page<T> {
  const want = request.limit === undefined ? Infinity : request.limit + 1
  const found: T[] = []
  for (
    let i = startOf(ascending, key, direction, request.cursor);
    i >= 0 && i < ascending.length && found.length < want;
    i += direction
  ) {
    const item = ascending[i] as T
    if (accept(item)) found.push(item)
  }
  return finish(found, key, request.limit)
}

interface Head<T> {
  list: readonly T[]
  at: number
  key: CursorKey
}

/** A binary heap of list heads, the one that comes first in the reading direction on top. */
class Heads<T> {
  readonly #heap: Head<T>[] = []
  constructor(private readonly direction: 1 | -1) {}

  get size() {
    return this.#heap.length
  }

  push(head: Head<T>): void {
    const heap = this.#heap
    heap.push(head)
    for (let i = heap.length - 1; i > 0;) {
      const parent = (i - 1) >> 1
      if (!this.#before(i, parent)) break
      this.#swap(i, parent)
      i = parent
    }
  }

  pop(): Head<T> | undefined {
    const heap = this.#heap
    const top = heap[0]
    const last = heap.pop()
    if (heap.length > 0 && last) {
      heap[0] = last
      for (let i = 0; ;) {
        let best = i
        for (const child of [2 * i + 1, 2 * i + 2]) if (child < heap.length && this.#before(child, best)) best = child
        if (best === i) break
        this.#swap(i, best)
        i = best
      }
    }
    return top
  }

  #before(i: number, j: number): boolean {
    return compareKeys((this.#heap[i] as Head<T>).key, (this.#heap[j] as Head<T>).key, this.direction) < 0
  }

  #swap(i: number, j: number): void {
    const heap = this.#heap
    ;[heap[i], heap[j]] = [heap[j] as Head<T>, heap[i] as Head<T>]
  }
}

/**
 * One page of several lists, each in ascending key order, merged in `direction`: a heap holds the next
 * item of every list, so a page costs a binary search a list plus a few heap steps an item.
 */
export function mergePage<T>(
  lists: readonly (readonly T[])[],
  key: SortKey<T>,
  direction: 1 | -1,
  request: PageRequest,
): Page<T> {
  const heads = new Heads<T>(direction)
  const enter = (list: readonly T[], at: number) => {
    if (at >= 0 && at < list.length) heads.push({ list, at, key: key.of(list[at] as T) })
  }
  for (const list of lists) enter(list, startOf(list, key, direction, request.cursor))
  const want = request.limit === undefined ? Infinity : request.limit + 1
  const found: T[] = []
  for (let head = heads.pop(); head && found.length < want; head = heads.pop()) {
    found.push(head.list[head.at] as T)
    enter(head.list, head.at + direction)
  }
  return finish(found, key, request.limit)
}

/** One page of items in no useful order: what follows the cursor, sorted. For small sets only. */
export function sortPage<T>(items: readonly T[], key: SortKey<T>, direction: 1 | -1, request: PageRequest): Page<T> {
  const sorted = items.slice().sort(key.compare)
  return scanPage(sorted, key, direction, request, () => true)
}
