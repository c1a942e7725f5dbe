import { apiGetFeed } from '../api/posts.js'
import type { FeedReply, FeedSort } from '../api/types.js'
import { readSort, readToken } from '../lib/storage.js'
import { paths } from '../paths.js'

/*
 * The home feed's page size and order live here rather than in lists.ts: the entry asks for the first
 * page before the list's code has arrived, and must ask for it exactly as the list would.
 */

/** How many posts a page of the home feed holds. */
export const HOME_PAGE = 20

export const SORTS = ['Trending', 'Oldest', 'Latest'] as const
export type SortLabel = (typeof SORTS)[number]

/** The home feed's order: Latest unless the reader chose another before. */
export function storedSort(): SortLabel {
  const stored = readSort()
  return SORTS.find((s) => s === stored) ?? 'Latest'
}

export const feedSort = (label: SortLabel) => label.toLowerCase() as FeedSort

let early: { token: string; sort: FeedSort; reply: Promise<FeedReply> } | undefined

/**
 * When the app starts signed in on the home page (`pathname`), its feed's first page is asked for at
 * once, beside the page's code rather than after it has arrived and run: on a phone's network that is
 * a round trip less before the first posts show. The home list takes the answer over the first time
 * it loads (lists.ts).
 */
export function requestHomeEarly(pathname: string): void {
  const token = readToken()
  if (!token || pathname !== paths.home.path) return
  const sort = feedSort(storedSort())
  const reply = apiGetFeed(sort, { limit: HOME_PAGE })
  // If the page never takes it (the reader moved on first), its failure is nobody's to report.
  reply.catch(() => {})
  early = { token, sort, reply }
}

/**
 * The early first page, if it is of this order and was asked for by the session still signed in; only
 * once, since a later first load must ask afresh.
 */
export function takeEarlyHome(sort: FeedSort): Promise<FeedReply> | undefined {
  const taken = early
  early = undefined
  return taken?.sort === sort && taken.token === readToken() ? taken.reply : undefined
}

export function resetEarlyHome(): void {
  early = undefined
}
