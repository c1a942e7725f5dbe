import type { Post } from '../schemas/posts.js'
import type { ServiceDeps } from './deps.js'
import type { PostsService } from './posts.js'
import type { SearchService } from './search.js'
import { cursorOfStatusId, statusIdOf } from './status-ids.js'

/** A window of a time-ordered list as Mastodon's apps ask for one (DECISIONS §13). */
export interface TimelineWindow {
  /** Entries below this id. */
  maxId?: string
  /** The newest entries above this id. */
  sinceId?: string
  /** The entries just above this id. */
  minId?: string
  limit: number
}

/** A timeline's entry: its status id (status-ids.ts) and the post as the reader sees it. */
export interface TimelineEntry {
  id: string
  post: Post
}

type Sort = 'latest' | 'oldest'
type Read<T> = (
  sort: Sort,
  cursor: string | undefined,
  limit: number,
) => Promise<{ items: T[]; nextCursor: string | null }>

/** An entry's id: a repost in a home timeline is an entry of its own, at the time of the repost. */
const statusIdOfPost = (post: Post): string =>
  post.repostedBy !== undefined && post.repostedAt !== undefined
    ? statusIdOf({ at: post.repostedAt, postId: post._id, by: post.repostedBy._id })
    : statusIdOf({ at: post.createdAt, postId: post._id })

/**
 * Reads a window of a list newest first. `min_id` reads up from it when the list reads both ways; a list
 * that reads only newest first is walked down to it, keeping the entries just above it.
 */
export async function windowOf<T>(
  read: Read<T>,
  idOf: (item: T) => string,
  window: TimelineWindow,
  ascending: boolean,
): Promise<{ id: string; item: T }[]> {
  type Entry = { id: string; item: T }
  const { maxId, sinceId, minId, limit } = window
  const entryOf = (item: T): Entry => ({ id: idOf(item), item })
  const below = (entry: Entry) => maxId === undefined || entry.id < maxId
  if (minId !== undefined && ascending) {
    const { items } = await read('oldest', cursorOfStatusId(minId), limit)
    return items.map(entryOf).filter(below).reverse()
  }
  if (minId !== undefined) {
    const kept: Entry[] = []
    let cursor = maxId === undefined ? undefined : cursorOfStatusId(maxId)
    for (;;) {
      const { items, nextCursor } = await read('latest', cursor, limit)
      const entries = items.map(entryOf)
      const above = entries.filter((entry) => entry.id > minId)
      kept.push(...above)
      if (above.length < entries.length || nextCursor === null) break
      cursor = nextCursor
    }
    return kept.slice(-limit)
  }
  const { items } = await read('latest', maxId === undefined ? undefined : cursorOfStatusId(maxId), limit)
  return items.map(entryOf).filter((entry) => sinceId === undefined || entry.id > sinceId)
}

/** A window of a list of posts, each with its status id. */
async function postsWindow(
  read: (
    sort: Sort,
    cursor: string | undefined,
    limit: number,
  ) => Promise<{ posts: Post[]; nextCursor?: string | null }>,
  window: TimelineWindow,
  ascending: boolean,
): Promise<TimelineEntry[]> {
  const entries = await windowOf(
    async (sort, cursor, limit) => {
      const { posts, nextCursor } = await read(sort, cursor, limit)
      return { items: posts, nextCursor: nextCursor ?? null }
    },
    statusIdOfPost,
    window,
    ascending,
  )
  return entries.map(({ id, item }) => ({ id, post: item }))
}

/**
 * The timelines of the Mastodon client API, paged by status ids over the same reads as Chirp's own lists:
 * every rule of who sees what stays in those reads.
 */
export function createTimelinesService({
  store,
  posts,
  search,
}: Pick<ServiceDeps, 'store'> & { posts: PostsService; search: SearchService }) {
  return {
    /** The reader's home timeline: their posts, those of whom they follow, and those reposted by them. */
    home: (userId: string, window: TimelineWindow) =>
      postsWindow(
        (sort, cursor, limit) => posts.feed(userId, { sort, cursor, limit }, { userId, compact: false }),
        window,
        true,
      ),

    /** Everyone's public posts (all of them local, until Chirp federates). */
    public: (userId: string | undefined, window: TimelineWindow) =>
      postsWindow(
        (sort, cursor, limit) => posts.list({ sort, cursor, limit }, { userId, compact: false }),
        window,
        true,
      ),

    /** Someone's posts as their profile shows them to the reader. */
    account: (username: string, userId: string | undefined, window: TimelineWindow) =>
      postsWindow(
        (sort, cursor, limit) => posts.byAuthor(username, { sort, cursor, limit }, { userId, compact: false }),
        window,
        true,
      ),

    /** A list's timeline, as its owner reads it. */
    list: (userId: string, listId: string, window: TimelineWindow) =>
      postsWindow(
        (sort, cursor, limit) => posts.byList(userId, listId, { sort, cursor, limit }, { userId, compact: false }),
        window,
        true,
      ),

    /** A tag's public posts. */
    tag: (tag: string, userId: string | undefined, window: TimelineWindow) =>
      postsWindow(
        (_sort, cursor, limit) => search.byTag(tag, { cursor, limit }, { userId, compact: false }),
        window,
        false,
      ),

    /** Which of these posts the person bookmarked. */
    async bookmarked(userId: string, postIds: readonly string[]): Promise<Set<string>> {
      const user = await store.getUser(userId)
      const mine = new Set(user?.bookmarks ?? [])
      return new Set(postIds.filter((id) => mine.has(id)))
    },
  }
}

export type TimelinesService = ReturnType<typeof createTimelinesService>
