import { proxy } from 'valtio'
import { apiGetTrendingTags, apiSearchUsers } from '../api/search.js'
import type { TrendingTag, UserResult } from '../api/types.js'
import { emptyPaged, loadPaged } from './paged.js'

const PEOPLE_PAGE = 20
const TRENDING = 8

const initial = () => ({
  /** People found by the search on screen: the key is the query. */
  people: emptyPaged<UserResult>(),
  trending: [] as TrendingTag[],
  trendingLoaded: false,
  trendingFailed: false,
})

export const search = proxy(initial())

export function loadPeople(q: string, more = false): Promise<void> {
  return loadPaged(search, 'people', q, more, async (cursor) => {
    const reply = await apiSearchUsers(q, { limit: PEOPLE_PAGE, cursor })
    return { items: reply.users, nextCursor: reply.nextCursor }
  })
}

export async function loadTrending(): Promise<void> {
  try {
    search.trending = await apiGetTrendingTags(TRENDING)
    search.trendingFailed = false
  } catch {
    // What is trending is a side note: the panel steps aside rather than alarm anyone, and the next load tries again.
    search.trendingFailed = true
  } finally {
    search.trendingLoaded = true
  }
}

export function reset(): void {
  Object.assign(search, initial())
}
