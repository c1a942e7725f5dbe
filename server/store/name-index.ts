import { CURSOR, pageOf, type SortKey } from './cursor.js'
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
const byName: SortKey<NameKey> = {
  of: (user) => [user.name],
  parts: CURSOR.byName,
  compare: (a, b) => order(a.name, b.name),
}
const byWord: SortKey<WordEntry> = {
  of: (entry) => [entry.word, entry.userId],
  parts: ['text', 'id'],
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

/** Where the items of an ascending list whose text begins with `prefix` lie: [start, end), by two binary searches. */
function rangeOf<T>(items: readonly T[], prefix: string, textOf: (item: T) => string): { start: number; end: number } {
  const start = lowerBound(items, prefix, textOf)
  // From `start` on, the texts that begin with `prefix` come first, then only greater ones.
  let lo = start
  let hi = items.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (textOf(items[mid] as T).startsWith(prefix)) lo = mid + 1
    else hi = mid
  }
  return { start, end: lo }
}

/** The items of an ascending list whose text begins with `prefix`. */
function withPrefix<T>(items: readonly T[], prefix: string, textOf: (item: T) => string): T[] {
  const { start, end } = rangeOf(items, prefix, textOf)
  return items.slice(start, end)
}

/**
 * People search on the embedded store: every user by usernameKey, and every word of everyone's
 * names in order, so a prefix is one binary search and the run after it, as PostgreSQL's indexes read it.
 */
export class NameIndex {
  readonly #names = new SortedList(byName)
  readonly #nameOf = new Map<string, NameKey>()
  readonly #words = new SortedList(byWord)
  /** Each user's name words, to check a user found by one prefix against the others. */
  readonly #wordsOf = new Map<string, readonly string[]>()

  load(users: readonly UserRecord[]): void {
    this.#nameOf.clear()
    this.#wordsOf.clear()
    const names = users.map((user) => ({ _id: user._id, name: usernameKey(user.username) }))
    for (const name of names) this.#nameOf.set(name._id, name)
    this.#names.reset(names)
    for (const user of users) this.#wordsOf.set(user._id, nameWordsOf(user))
    this.#words.reset(users.flatMap((user) => (this.#wordsOf.get(user._id) ?? []).map((word) => entry(word, user._id))))
  }

  /** Usernames never change; names may. */
  putUser(previous: UserRecord | undefined, user: UserRecord): void {
    const before = previous ? nameWordsOf(previous) : []
    const after = nameWordsOf(user)
    this.#wordsOf.set(user._id, after)
    for (const word of diff(before, after)) this.#words.remove(entry(word, user._id))
    for (const word of diff(after, before)) this.#words.upsert(undefined, entry(word, user._id))
    if (!this.#nameOf.has(user._id)) {
      const name = { _id: user._id, name: usernameKey(user.username) }
      this.#nameOf.set(user._id, name)
      this.#names.upsert(undefined, name)
    }
  }

  deleteUser(user: UserRecord): void {
    for (const word of this.#wordsOf.get(user._id) ?? []) this.#words.remove(entry(word, user._id))
    this.#wordsOf.delete(user._id)
    const name = this.#nameOf.get(user._id)
    if (name) this.#names.remove(name)
    this.#nameOf.delete(user._id)
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
      page = sortPage(this.#withNameWords(search.prefixes), byName, 1, request)
    }
    return { items: page.items.map((user) => user._id), nextCursor: page.nextCursor }
  }

  /**
   * The users with a word beginning with each prefix: the run of words of the prefix with the fewest,
   * each of its users checked against the others' by their own words. However many prefixes there
   * are, one run is walked.
   */
  #withNameWords(prefixes: readonly string[]): NameKey[] {
    const words = this.#words.items
    const ranges = prefixes.map((prefix) => ({ prefix, ...rangeOf(words, prefix, (word) => word.word) }))
    const narrowest = ranges.reduce<(typeof ranges)[number] | undefined>(
      (best, range) => (best && best.end - best.start <= range.end - range.start ? best : range),
      undefined,
    )
    if (!narrowest) return []
    const others = prefixes.filter((prefix) => prefix !== narrowest.prefix)
    const seen = new Set<string>()
    const found: NameKey[] = []
    for (let i = narrowest.start; i < narrowest.end; i++) {
      const { userId } = words[i] as WordEntry
      if (seen.has(userId)) continue
      seen.add(userId)
      const own = this.#wordsOf.get(userId) ?? []
      const name = this.#nameOf.get(userId)
      if (name && others.every((prefix) => own.some((word) => word.startsWith(prefix)))) found.push(name)
    }
    return found
  }
}
