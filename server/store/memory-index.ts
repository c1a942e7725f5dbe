import type { FeedSort } from '../schemas/posts.js'
import { compareKeys, pageOf, type CursorKey } from './cursor.js'
import type { Database, Page, PostQuery, PostRecord, UserRecord } from './types.js'

const timeKey = (post: PostRecord): CursorKey => [post.createdAt, post._id]
const trendingKey = (post: PostRecord): CursorKey => [post.likedBy.length, post.createdAt, post._id]
const userKey = (user: UserRecord): CursorKey => [user.createdAt, user._id]

function insertionPoint<T>(list: readonly T[], item: T, keyOf: (item: T) => CursorKey): number {
  const key = keyOf(item)
  let lo = 0
  let hi = list.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (compareKeys(keyOf(list[mid] as T), key, 1) < 0) lo = mid + 1
    else hi = mid
  }
  return lo
}

/** A list kept in ascending key order, with binary-search insert, replace and delete. */
class SortedList<T extends { _id: string }> {
  items: T[] = []
  constructor(private readonly keyOf: (item: T) => CursorKey) {}

  reset(items: T[]): void {
    this.items = items.slice().sort((a, b) => compareKeys(this.keyOf(a), this.keyOf(b), 1))
  }

  upsert(previous: T | undefined, next: T): void {
    if (previous) this.remove(previous)
    const at = insertionPoint(this.items, next, this.keyOf)
    this.items.splice(at, 0, next)
  }

  remove(item: T): void {
    const at = insertionPoint(this.items, item, this.keyOf)
    if (this.items[at]?._id === item._id) this.items.splice(at, 1)
  }
}

/** The whole database in memory, indexed for the reads the services make. */
export class MemoryIndex {
  readonly users = new Map<string, UserRecord>()
  readonly usersByName = new Map<string, UserRecord>()
  readonly posts = new Map<string, PostRecord>()
  readonly #usersByTime = new SortedList<UserRecord>(userKey)
  readonly #postsByTime = new SortedList<PostRecord>(timeKey)

  load(data: Database): void {
    this.users.clear()
    this.usersByName.clear()
    this.posts.clear()
    for (const user of data.users) this.#indexUser(Object.freeze(user))
    for (const post of data.posts) this.posts.set(post._id, Object.freeze(post))
    this.#usersByTime.reset([...this.users.values()])
    this.#postsByTime.reset([...this.posts.values()])
  }

  toDatabase(): Database {
    return { version: 1, users: this.#usersByTime.items, posts: this.#postsByTime.items }
  }

  putUser(user: UserRecord): void {
    const previous = this.users.get(user._id)
    if (previous) this.usersByName.delete(previous.username.toLowerCase())
    this.#indexUser(user)
    this.#usersByTime.upsert(previous, user)
  }

  putPost(post: PostRecord): void {
    const previous = this.posts.get(post._id)
    this.posts.set(post._id, post)
    this.#postsByTime.upsert(previous, post)
  }

  deletePost(id: string): void {
    const previous = this.posts.get(id)
    if (!previous) return
    this.posts.delete(id)
    this.#postsByTime.remove(previous)
  }

  listUsers(request: { limit?: number; cursor?: string }): Page<UserRecord> {
    return pageOf(this.#usersByTime.items, userKey, 1, request)
  }

  listPosts(query: PostQuery): Page<PostRecord> {
    const authors = query.authorIds ? new Set(query.authorIds) : undefined
    const all = this.#postsByTime.items
    const chosen = authors ? all.filter((post) => authors.has(post.authorId)) : all
    return pageOf(ordered(chosen, query.sort), keyFor(query.sort), query.sort === 'oldest' ? 1 : -1, query)
  }

  #indexUser(user: UserRecord): void {
    this.users.set(user._id, user)
    this.usersByName.set(user.username.toLowerCase(), user)
  }
}

function keyFor(sort: FeedSort) {
  return sort === 'trending' ? trendingKey : timeKey
}

function ordered(posts: readonly PostRecord[], sort: FeedSort): readonly PostRecord[] {
  if (sort === 'oldest') return posts
  if (sort === 'latest') return posts.slice().reverse()
  return posts.slice().sort((a, b) => compareKeys(trendingKey(b), trendingKey(a), 1))
}
