import { proxy } from 'valtio'
import { apiGetTrendingTags, apiSearchUsers } from '../api/search.js'
import { errorStatus } from '../api/http.js'
import { apiGetUser } from '../api/users.js'
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
  /**
   * A search typed in the box, with no tab chosen yet: a query that finds people then shows People, and
   * any other Posts. An address opened as it is (a link, a reload) shows what it says.
   */
  peopleFirst: false,
})

export const search = proxy(initial())

/** `@name@host` (the first `@` may be left out): a person of another server, or of this one by its full handle. */
const HANDLE = /^@?[A-Za-z0-9_.~-]+@[A-Za-z0-9.-]+(:\d{1,5})?$/

/**
 * People whose names begin with the words of `q`; a full handle `@name@host` is the one person it names,
 * found through their server by the server (DECISIONS §14), or nobody.
 */
export function loadPeople(q: string, more = false): Promise<void> {
  return loadPaged(search, 'people', q, more, async (cursor) => {
    if (HANDLE.test(q.trim())) return { items: await personOf(q.trim().replace(/^@/, '')), nextCursor: null }
    const reply = await apiSearchUsers(q, { limit: PEOPLE_PAGE, cursor })
    return { items: reply.users, nextCursor: reply.nextCursor }
  })
}

/** The person a full handle names, as a search finds people; nobody when no server knows them. */
async function personOf(handle: string): Promise<UserResult[]> {
  try {
    const { _id, username, firstName, lastName, displayName, avatarURL, bio } = await apiGetUser(handle)
    return [{ _id, username, firstName, lastName, ...(displayName ? { displayName } : {}), avatarURL, bio }]
  } catch (error) {
    if (errorStatus(error) === 404) return []
    throw error
  }
}

export function setPeopleFirst(on: boolean): void {
  search.peopleFirst = on
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

/** The tags a typeahead offers are those used this week: up to this many, read at most once a minute. */
const TAGS_READ = 100
const TAGS_FRESH_MS = 60_000
let tagsRead: { at: number; read: Promise<TrendingTag[]> } | undefined

/** This week's tags, most used first, for the typeaheads; a failed read is not kept, so the next keystroke asks again. */
export function weekTags(): Promise<TrendingTag[]> {
  if (!tagsRead || Date.now() - tagsRead.at > TAGS_FRESH_MS) {
    const read = apiGetTrendingTags(TAGS_READ)
    tagsRead = { at: Date.now(), read }
    read.catch(() => (tagsRead = undefined))
  }
  return tagsRead.read
}

export function reset(): void {
  tagsRead = undefined
  Object.assign(search, initial())
}
