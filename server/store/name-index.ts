import { pageOf, type SortKey } from './cursor.js'
import { diff } from './search-index.js'
import { SortedList, sortPage } from './sorted-list.js'
import { usernameKey } from '../usernames.js'
import { nameWordsOf } from './text-terms.js'
import type { Page, PageRequest, UserRecord, UserSearch } from './types.js'

/** A user by usernameKey, the order of every user search. */
interface NameKey {
  readonly _id: string
  readonly name: string
}
/** One word of one user's names. */
interface WordEntry {
  readonly _id: string
  readonly word: string
  readonly userId: string
}

const order = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)
const byName: SortKey<NameKey> = { of: (user) => [user.name], length: 1, compare: (a, b) => order(a.name, b.name) }
const byWord: SortKey<WordEntry> = {
  of: (entry) => [entry.word, entry.userId],
  length: 2,
  compare: (a, b) => order(a.word, b.word) || order(a.userId, b.userId),
}
const entry = (word: string, userId: string): WordEntry => ({ _id: `${word} ${userId}`, word, userId })

/** The index of the first item of an ascending list whose text is at or above `text`. */
function lowerBound<T>(items: readonly T[], text: string, textOf: (item: T) => string): number {
  let lo = 0
  let hi = items.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (textOf(items[mid] as T) < text) lo = mid + 1
    else hi = mid
  }
  return lo
}

/** The items of an ascending list whose text begins with `prefix`: one binary search, then the run that follows. */
function withPrefix<T>(items: readonly T[], prefix: string, textOf: (item: T) => string): T[] {
  const found: T[] = []
  for (let i = lowerBound(items, prefix, textOf); i < items.length && textOf(items[i] as T).startsWith(prefix); i++) {
    found.push(items[i] as T)
  }
  return found
}

/**
 * People search on the embedded store: every user by usernameKey, and every word of everyone's
 * names in order, so a prefix is one binary search and the run after it, as PostgreSQL's indexes read it.
 */
export class NameIndex {
  readonly #names = new SortedList(byName)
  readonly #nameOf = new Map<string, NameKey>()
  readonly #words = new SortedList(byWord)

  load(users: readonly UserRecord[]): void {
    this.#nameOf.clear()
    const names = users.map((user) => ({ _id: user._id, name: usernameKey(user.username) }))
    for (const name of names) this.#nameOf.set(name._id, name)
    this.#names.reset(names)
    this.#words.reset(users.flatMap((user) => nameWordsOf(user).map((word) => entry(word, user._id))))
  }

  /** Usernames never change; names may. */
  putUser(previous: UserRecord | undefined, user: UserRecord): void {
    const before = previous ? nameWordsOf(previous) : []
    const after = nameWordsOf(user)
    for (const word of diff(before, after)) this.#words.remove(entry(word, user._id))
    for (const word of diff(after, before)) this.#words.upsert(undefined, entry(word, user._id))
    if (!this.#nameOf.has(user._id)) {
      const name = { _id: user._id, name: usernameKey(user.username) }
      this.#nameOf.set(user._id, name)
      this.#names.upsert(undefined, name)
    }
  }

  /** Ids of the users matching, by usernameKey. */
  users(search: UserSearch, request: PageRequest): Page<string> {
    let page: Page<NameKey>
    if (search.username !== undefined) {
      page = pageOf(
        withPrefix(this.#names.items, search.username, (user) => user.name),
        byName,
        1,
        request,
      )
    } else {
      let ids: string[] | undefined
      for (const prefix of search.prefixes) {
        const found = new Set(withPrefix(this.#words.items, prefix, (word) => word.word).map((word) => word.userId))
        ids = ids ? ids.filter((id) => found.has(id)) : [...found]
      }
      const matching = (ids ?? [])
        .map((id) => this.#nameOf.get(id))
        .filter((name): name is NameKey => name !== undefined)
      page = sortPage(matching, byName, 1, request)
    }
    return { items: page.items.map((user) => user._id), nextCursor: page.nextCursor }
  }
}
