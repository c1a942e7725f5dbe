import { errorMessage, isRetryable } from '../api/http.js'

/**
 * The one list read a page at a time that every screen's list is (posts, comments, notifications,
 * people): what it is of (`key`), what has come so far, and where to go on.
 */
export type Paged<T> = {
  /** What the list is of (the sort for home, a username, a query, a tag); a change starts a new list. */
  key: string
  items: T[]
  /** New items held back until the reader asks, so the list never moves under them. */
  waiting: T[]
  nextCursor: string | null
  loading: boolean
  loaded: boolean
  done: boolean
  error: string | null
  /** Whether asking again may help: not after an answer that settles it, such as a 404. */
  retryable: boolean
}

export const emptyPaged = <T>(key = ''): Paged<T> => ({
  key,
  items: [],
  waiting: [],
  nextCursor: null,
  loading: false,
  loaded: false,
  done: false,
  error: null,
  retryable: true,
})

type Fetch<T> = (cursor: string | null) => Promise<{ items: T[]; nextCursor?: string | null }>

/**
 * Loads the first page of `holder[name]` (fresh, or when `key` changed) or the next one. An answer for a
 * list since replaced is dropped; an item already shown (the same `idOf`) is not shown twice.
 */
export async function loadPagedBy<T, N extends string>(
  holder: Record<N, Paged<T>>,
  name: N,
  key: string,
  more: boolean,
  idOf: (item: T) => string,
  fetch: Fetch<T>,
): Promise<void> {
  if (!more || holder[name].key !== key) holder[name] = emptyPaged<T>(key)
  const list = holder[name]
  if (list.loading || list.done) return
  list.loading = true
  try {
    const reply = await fetch(list.nextCursor)
    if (holder[name] !== list) return
    const known = new Set(list.items.map(idOf))
    list.items.push(...reply.items.filter((item) => !known.has(idOf(item))))
    list.nextCursor = reply.nextCursor ?? null
    list.done = list.nextCursor === null
    list.error = null
  } catch (error) {
    // Said once, in the list itself, beside its Try again.
    if (holder[name] === list) {
      list.error = errorMessage(error)
      list.retryable = isRetryable(error)
    }
  } finally {
    if (holder[name] === list) {
      list.loading = false
      list.loaded = true
    }
  }
}

/** loadPagedBy for records, told apart by their `_id`. */
export function loadPaged<T extends { _id: string }, N extends string>(
  holder: Record<N, Paged<T>>,
  name: N,
  key: string,
  more: boolean,
  fetch: Fetch<T>,
): Promise<void> {
  return loadPagedBy(holder, name, key, more, (item) => item._id, fetch)
}
