import { likeBucketTags } from './store/change-tags.js'
import { CURSOR, decodeCursor } from './store/cursor.js'
import type { Page, PostQuery, PostRecord, Store, StoreReader } from './store/types.js'
import type { TaggedCache } from './tagged-cache.js'

/**
 * The store with the reads every signed-in page makes kept between requests: whom the reader follows,
 * blocks and mutes, who is suspended, the home feed's pages and reposts, which posts the reader likes and
 * reposts, people's names and pictures, logged-out tokens, their keyword filters and lists. They are kept in the app's one TaggedCache,
 * beside the post views of plugins/read-cache.ts, and lapse by the same tags: each store names what every
 * committed write changed (Store.watchChanges, store/change-tags.ts), PostgreSQL's other instances' writes
 * included. Both stores run the same kept reads, so what a cache can get wrong it gets wrong on both, and
 * the contract table (test/server/store-contract.test.ts) runs through it.
 *
 * Transactions are never kept: they read the store itself. Every other member is the store's own.
 */
export function withKeptReads(store: Store, kept: TaggedCache): Store {
  const reads = keptReadsOf(store, kept)
  const own = new Map<PropertyKey, unknown>()
  return new Proxy(store, {
    get(target, name) {
      if (Object.hasOwn(reads, name)) return reads[name as keyof typeof reads]
      const value: unknown = Reflect.get(target, name, target)
      if (typeof value !== 'function') return value
      // The store's methods keep their own `this`, whose private fields a proxy does not have.
      let bound = own.get(name)
      if (bound === undefined) own.set(name, (bound = (value as (...args: unknown[]) => unknown).bind(target)))
      return bound
    },
  })
}

type KeptReads = Pick<
  StoreReader,
  | 'listPosts'
  | 'listFeedReposts'
  | 'getUserSummaries'
  | 'isTokenRevoked'
  | 'likedAmong'
  | 'repostedAmong'
  | 'relationsOf'
  | 'listSuspended'
  | 'feedAuthors'
  | 'listFilters'
  | 'listLists'
>

function keptReadsOf(store: Store, kept: TaggedCache): KeptReads {
  /** `read`'s answer, kept under `key` until a change to one of `tags(answer)`. */
  async function keep<T>(key: string, read: () => Promise<T>, tags: (answer: T) => readonly string[]): Promise<T> {
    const found = kept.get<T>(key)
    if (found !== undefined) return found
    const stamp = kept.stamp()
    const answer = await read()
    kept.set(key, answer, tags(answer), stamp)
    return answer
  }

  /**
   * `read`'s answer at `at` (an ISO time), kept until a change to `tag` or until `ends(answer)`, the
   * soonest end (ms) of a timed entry in it; an answer for an earlier `at` than the kept one is read afresh.
   */
  async function keepUntil<T>(
    key: string,
    at: string,
    read: () => Promise<T>,
    tag: string,
    ends: (answer: T) => number,
  ) {
    const when = Date.parse(at)
    const found = kept.get<{ answer: T; from: number; until: number }>(key)
    if (found && when >= found.from && when < found.until) return found.answer
    const stamp = kept.stamp()
    const answer = await read()
    kept.set(key, { answer, from: when, until: ends(answer) }, [tag], stamp)
    return answer
  }

  /**
   * Records by id, in order, repeats given again and unknown ids left out: each kept on its own until a
   * change to `tags(id)`, those not kept read in one call of `read`.
   */
  async function keepEach<T extends { _id: string }>(
    kind: string,
    ids: readonly string[],
    read: (missing: readonly string[]) => Promise<T[]>,
    tags: (id: string) => readonly string[],
  ): Promise<T[]> {
    const found = ids.map((id) => kept.get<T>(`${kind} ${id}`))
    const missing = [...new Set(ids.filter((_, i) => found[i] === undefined))]
    if (missing.length === 0) return found as T[]
    const stamp = kept.stamp()
    const fetched = new Map((await read(missing)).map((item) => [item._id, item]))
    for (const [id, item] of fetched) kept.set(`${kind} ${id}`, item, tags(id), stamp)
    return ids.flatMap((id, i) => found[i] ?? fetched.get(id) ?? [])
  }

  const feedAuthors = (userId: string) =>
    keep(
      `authors ${userId}`,
      () => store.feedAuthors(userId),
      () => [`follows:${userId}`],
    )

  /**
   * A home feed's page is kept in two parts. Which posts, in which order: voided by a change to the
   * reader's follows or by a post of any of their authors; most liked first, also by a like that moves a
   * post from or to a count in the page's range (`likes-at`) and by any change to one of the posts on it.
   * Each post's record, kept on its own: voided by a change to that post alone, so a like reads one record
   * again, not the page.
   */
  async function listPosts(query: PostQuery): Promise<Page<PostRecord>> {
    const reader = query.feedOf
    if (reader === undefined || (query.uncounted ?? []).length > 0) return store.listPosts(query)
    const authors = await feedAuthors(reader)
    const trending = query.sort === 'trending'
    // A page read afresh brings its records along: they are kept from that read, not read again.
    const fresh = new Map<string, PostRecord>()
    const page = await keep(
      `feed ${JSON.stringify(query)}`,
      async () => {
        const read = await store.listPosts(query)
        for (const post of read.items) fresh.set(post._id, post)
        return {
          ids: read.items.map((post) => post._id),
          likes: read.items.map((post) => post.likeCount),
          nextCursor: read.nextCursor,
        }
      },
      (page) => [
        `follows:${reader}`,
        ...authors.map((id) => `author:${id}`),
        ...(trending ? ['likes', ...page.ids.map((id) => `post:${id}`), ...likeRange(query, page)] : []),
      ],
    )
    const items = await keepEach(
      'record',
      page.ids,
      async (missing) => (fresh.size > 0 ? missing.flatMap((id) => fresh.get(id) ?? []) : store.getPosts(missing)),
      (id) => [`post:${id}`],
    )
    return { items, nextCursor: page.nextCursor }
  }

  return {
    feedAuthors,
    listPosts,

    /** Reposts in a home feed, kept until a change to the reader's follows, to a repost by any of their authors, or to a post on the page. */
    async listFeedReposts(userId, query) {
      const authors = await feedAuthors(userId)
      return keep(
        `reposts ${userId} ${JSON.stringify(query)}`,
        () => store.listFeedReposts(userId, query),
        (page) => [
          `follows:${userId}`,
          ...authors.map((id) => `author:${id}`),
          ...page.items.map((item) => `post:${item.post._id}`),
        ],
      )
    },

    /** People's names and pictures, each kept until anyone's profile changes (`people`); repeated ids give repeated summaries. */
    getUserSummaries: (ids) =>
      keepEach(
        'summary',
        ids,
        (missing) => store.getUserSummaries(missing),
        () => ['people'],
      ),

    /** Kept until that token's logout; the token check reads the holder first (services/auth.ts), which on PostgreSQL takes in the log. */
    isTokenRevoked: (tokenId) =>
      keep(
        `revoked ${tokenId}`,
        () => store.isTokenRevoked(tokenId),
        () => [`token:${tokenId}`],
      ),

    /** A person's filters, read by every page they read: kept until they change them. */
    listFilters: (userId) =>
      keep(
        `filters ${userId}`,
        () => store.listFilters(userId),
        () => [`filters:${userId}`],
      ),

    /** A person's lists, read by their home feed for its exclusive ones: kept until they change them. */
    listLists: (userId) =>
      keep(
        `lists ${userId}`,
        () => store.listLists(userId),
        () => [`lists:${userId}`],
      ),

    likedAmong: (userId, postIds) =>
      keep(
        `liked ${userId} ${postIds.join(',')}`,
        () => store.likedAmong(userId, postIds),
        () => [`liked-by:${userId}`, ...postIds.map((id) => `post:${id}`)],
      ),

    repostedAmong: (userId, postIds) =>
      keep(
        `reposted ${userId} ${postIds.join(',')}`,
        () => store.repostedAmong(userId, postIds),
        () => [`reposted-by:${userId}`, ...postIds.map((id) => `post:${id}`)],
      ),

    relationsOf: (userId, at) =>
      keepUntil(
        `relations ${userId}`,
        at,
        () => store.relationsOf(userId, at),
        `relations:${userId}`,
        (relations) => soonestEnd(relations.muting.map((mute) => mute.until ?? null)),
      ),

    listSuspended: (at) =>
      keepUntil(
        'suspended',
        at,
        () => store.listSuspended(at),
        'suspensions',
        (suspended) => soonestEnd(suspended.map((entry) => entry.until)),
      ),
  }
}

/**
 * The like counts a most-liked page covers, as `likes-at` tags: from its last post's (0 when it is the
 * last page: any post may fall into it) up to the count its cursor starts below (no end on page one).
 */
function likeRange(query: PostQuery, page: { likes: readonly number[]; nextCursor: string | null }): string[] {
  const high = query.cursor === undefined ? Infinity : Number(decodeCursor(query.cursor, CURSOR.byLikes)[0])
  const low = page.nextCursor === null ? 0 : (page.likes[page.likes.length - 1] ?? 0)
  return likeBucketTags(low, high)
}

/** The soonest of some ends (ISO times or null for none), in ms since the epoch: Infinity without any. */
const soonestEnd = (ends: readonly (string | null)[]) =>
  Math.min(...ends.map((end) => (end === null ? Infinity : Date.parse(end))))
