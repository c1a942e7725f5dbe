import { MSG, badRequest } from '../errors.js'
import { applyFilters } from './filters.js'
import type { SearchQuery } from '../schemas/search.js'
import { CURSOR, checkCursor, type CursorPart } from '../store/cursor.js'
import { namePrefixesOf, tagOf, usernamePrefixOf, wordsOf } from '../store/text-terms.js'
import type { PageRequest, UserSearch } from '../store/types.js'
import { usernameKey } from '../usernames.js'
import type { ServiceDeps } from './deps.js'
import { DEFAULT_PAGE } from './notifications.js'
import { postViews, type Reader } from './post-views.js'
import { summaryOf } from './views.js'
import { hiddenFrom, seeing, type Hidden } from './visibility.js'
import { LISTED } from './audience-reads.js'

const WEEK_MS = 7 * 24 * 60 * 60 * 1000
/** What a search that can match nothing answers, after refusing a bad cursor as a search that reads would. */
function nothing(page: PageRequest, parts: readonly CursorPart[]) {
  checkCursor(page, parts)
  return { items: [], nextCursor: null }
}
const USERNAME = /^[a-z0-9_.]{3,30}$/

/** What a people search looks for: `@name` a username prefix, words the beginnings of names; `#tag` nobody. */
function userSearchOf(q: string): UserSearch | undefined {
  if (q.startsWith('#')) return undefined
  if (q.startsWith('@')) {
    const username = usernamePrefixOf(q.slice(1).trim())
    return username === undefined ? undefined : { prefixes: [], username }
  }
  const prefixes = namePrefixesOf(q)
  return prefixes.length > 0 ? { prefixes } : undefined
}

/** What a post search looks for: the terms every post found holds, or undefined when `q` can match nothing. */
function postTermsOf(q: string): string[] | undefined {
  if (q.startsWith('@')) {
    const name = usernameKey(q.slice(1).trim())
    return USERNAME.test(name) ? [`@${name}`] : undefined
  }
  const words = wordsOf(q)
  return words.length > 0 ? words : undefined
}

export function createSearchService({ store, now }: ServiceDeps) {
  const withLimit = (page: PageRequest) => ({ ...page, limit: page.limit ?? DEFAULT_PAGE })

  async function tagged(tag: string | undefined, page: PageRequest, reader: Reader & { hidden: Hidden }) {
    const hide = reader.hidden.people
    const { items, nextCursor } =
      tag === undefined
        ? nothing(page, CURSOR.byTime)
        : await store.listTaggedPosts(tag, { ...withLimit(page), hide, audience: LISTED })
    const posts = await applyFilters(store, reader.userId, 'public', await postViews(store, items, reader), now())
    return { posts, nextCursor }
  }

  return {
    /** A tag's public posts, newest first; the tag is matched without regard to case. */
    async byTag(raw: string, { limit, cursor }: PageRequest, reader: Reader) {
      const tag = tagOf(raw)
      if (tag === undefined) throw badRequest(MSG.badTag)
      return tagged(tag, { limit, cursor }, await seeing(store, reader, now()))
    },

    /** The tags of the public posts of the last 7 days, the most used first. */
    async trending(limit: number, viewerId: string | undefined) {
      const at = now()
      const since = new Date(at.getTime() - WEEK_MS).toISOString()
      const hidden = await hiddenFrom(store, viewerId, at)
      return { tags: await store.trendingTags(since, limit, hidden.people) }
    },

    /**
     * People by the beginnings of their names, or posts holding every word of `q`; `#tag` finds a tag's
     * posts and `@name` the posts that mention name (or, among people, the usernames that begin so).
     * Without a type, `@name` looks for people and anything else for posts. Posts are public ones alone.
     */
    async search({ q: raw, type, limit, cursor }: SearchQuery, asked: Reader) {
      const q = raw.trim()
      if (q === '') throw badRequest(MSG.blankQuery)
      const reader = await seeing(store, asked, now())
      const page = { limit, cursor, hide: reader.hidden.people }
      if ((type ?? (q.startsWith('@') ? 'users' : 'posts')) === 'users') {
        const search = userSearchOf(q)
        const { items, nextCursor } =
          search === undefined ? nothing(page, CURSOR.byName) : await store.searchUsers(search, withLimit(page))
        // The store leaves out signups waiting for approval, who are nobody yet (DECISIONS §8).
        return { users: items.map((user) => ({ ...summaryOf(user), bio: user.bio })), nextCursor }
      }
      if (q.startsWith('#')) return tagged(tagOf(q.slice(1).trim()), page, reader)
      const terms = postTermsOf(q)
      const { items, nextCursor } =
        terms === undefined
          ? nothing(page, CURSOR.byTime)
          : await store.searchPosts(terms, { ...withLimit(page), audience: LISTED })
      const posts = await applyFilters(store, reader.userId, 'public', await postViews(store, items, reader), reader.at)
      return { posts, nextCursor }
    },
  }
}

export type SearchService = ReturnType<typeof createSearchService>
