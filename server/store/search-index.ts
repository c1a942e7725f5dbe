import { isPublic } from './audience-scope.js'
import { CURSOR, pageOf, type SortKey } from './cursor.js'
import { SortedList, scanPage } from './sorted-list.js'
import { searchTermsOf, tagUsesOf } from './text-terms.js'
import type { Page, PageRequest, PostRecord, TagCount } from './types.js'

/** What a posting list holds of a post: its place in time, which never changes, so likes and edits leave the lists alone. */
interface PostKey {
  readonly _id: string
  readonly createdAt: string
}

/** A tag a post carries, at the time of its latest use in the post or its comments. */
interface TagUse {
  readonly _id: string
  readonly tag: string
  readonly usedAt: string
}

const order = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)
/** The same key, cursor and order as the posts' newest-first lists, so a cursor reads alike on every list of posts. */
const byTime: SortKey<PostKey> = {
  of: (post) => [post.createdAt, post._id],
  parts: CURSOR.byTime,
  compare: (a, b) => order(a.createdAt, b.createdAt) || order(a._id, b._id),
}
const byUse: SortKey<TagUse> = {
  of: (use) => [use.usedAt, use._id],
  parts: ['time', 'text'],
  compare: (a, b) => order(a.usedAt, b.usedAt) || order(a._id, b._id),
}
/** The list of a term or tag nobody uses; never written to. */
const NO_POSTS = new SortedList(byTime)
const useOf = (postId: string, tag: string, usedAt: string): TagUse => ({ _id: `${tag} ${postId}`, tag, usedAt })

/** What is in `from` and not in `to`. */
export const diff = (from: readonly string[], to: readonly string[]) => from.filter((term) => !to.includes(term))

/**
 * The embedded store's search: inverted indexes kept in step with every write. Each search term and each
 * tag has its posts in time order, so a page of a search walks the rarest term's list from the cursor
 * and checks each post against the other terms' lists by binary search: no read walks every post. A
 * term index over whole words, rather than a scan for substrings, is what PostgreSQL's index answers
 * too, so both stores give the same pages.
 */
export class SearchIndex {
  readonly #keys = new Map<string, PostKey>()
  readonly #byTerm = new Map<string, SortedList<PostKey>>()
  readonly #byTag = new Map<string, SortedList<PostKey>>()
  /** Every tag of every public post by the time of its latest use: what trending counts over. */
  readonly #uses = new SortedList(byUse)
  /** Raised whenever a post's tags or the times of their use change. */
  #tagsVersion = 0
  #trending: { version: number; since: string; oldest: string; counts: TagCount[] } | undefined

  /**
   * Builds every list at once: inserting post by post would cost a splice each. The posts are walked
   * oldest first (MemoryIndex hands them over in that order; any other order is sorted once here), so
   * every term's and tag's list is gathered in order and taken as it is: sorting each of them again, with
   * millions of entries in all, was most of a large database's start.
   */
  load(given: readonly PostRecord[]): void {
    const inOrder = (post: PostRecord, i: number) => i === 0 || byTime.compare(given[i - 1] as PostRecord, post) < 0
    const posts = given.every(inOrder) ? given : given.slice().sort(byTime.compare)
    for (const map of [this.#keys, this.#byTerm, this.#byTag]) map.clear()
    const byTerm = new Map<string, PostKey[]>()
    const byTag = new Map<string, PostKey[]>()
    const gather = (lists: Map<string, PostKey[]>, text: string, key: PostKey) => {
      const list = lists.get(text)
      if (list) list.push(key)
      else lists.set(text, [key])
    }
    const uses: TagUse[] = []
    for (const post of posts) {
      const key: PostKey = { _id: post._id, createdAt: post.createdAt }
      this.#keys.set(post._id, key)
      for (const term of searchTermsOf(post.content)) gather(byTerm, term, key)
      for (const [tag, usedAt] of tagUsesOf(post)) {
        gather(byTag, tag, key)
        if (isPublic(post)) uses.push(useOf(post._id, tag, usedAt))
      }
    }
    for (const [term, keys] of byTerm) this.#listOf(this.#byTerm, term).adopt(keys)
    for (const [tag, keys] of byTag) this.#listOf(this.#byTag, tag).adopt(keys)
    this.#uses.reset(uses)
    this.#tagsVersion++
  }

  /** A like leaves content and comments as they were (the same array): nothing to index. */
  putPost(previous: PostRecord | undefined, post: PostRecord): void {
    if (previous?.content === post.content && previous.comments === post.comments) return
    let key = this.#keys.get(post._id)
    if (!key) this.#keys.set(post._id, (key = { _id: post._id, createdAt: post.createdAt }))
    if (previous?.content !== post.content) this.#indexTerms(key, previous?.content ?? '', post.content)
    this.#indexTags(key, previous ? tagUsesOf(previous) : new Map(), tagUsesOf(post), isPublic(post))
  }

  deletePost(previous: PostRecord): void {
    const key = this.#keys.get(previous._id)
    if (!key) return
    this.#indexTerms(key, previous.content, '')
    this.#indexTags(key, tagUsesOf(previous), new Map(), isPublic(previous))
    this.#keys.delete(previous._id)
  }

  /** Ids of the tag's posts, newest first. */
  tagged(tag: string, request: PageRequest): Page<string> {
    const page = pageOf(this.#byTag.get(tag)?.items ?? [], byTime, -1, request)
    return { items: page.items.map((key) => key._id), nextCursor: page.nextCursor }
  }

  /**
   * Counts the posts that used each tag since `since`: a walk over that window's uses only. The counts
   * are kept until a use comes, goes or moves, or one counted leaves the window.
   */
  trending(since: string, limit: number): TagCount[] {
    const kept = this.#trending
    if (!kept || kept.version !== this.#tagsVersion || since < kept.since || since > kept.oldest) {
      const { counts, oldest } = this.#count(since, () => true)
      this.#trending = { version: this.#tagsVersion, since, oldest, counts }
    }
    return (this.#trending as { counts: TagCount[] }).counts.slice(0, limit)
  }

  /** The same counts over the posts `keep` keeps (a reader's, without those hidden from them): counted afresh. */
  trendingAmong(since: string, limit: number, keep: (postId: string) => boolean): TagCount[] {
    return this.#count(since, keep).counts.slice(0, limit)
  }

  #count(since: string, keep: (postId: string) => boolean): { counts: TagCount[]; oldest: string } {
    const counts = new Map<string, number>()
    const items = this.#uses.items
    let oldest = '\uffff'
    for (let i = items.length - 1; i >= 0 && (items[i] as TagUse).usedAt >= since; i--) {
      const use = items[i] as TagUse
      oldest = use.usedAt
      if (keep(use._id.slice(use.tag.length + 1))) counts.set(use.tag, (counts.get(use.tag) ?? 0) + 1)
    }
    const sorted = [...counts].map(([tag, posts]) => ({ tag, posts }))
    sorted.sort((a, b) => b.posts - a.posts || order(a.tag, b.tag))
    return { counts: sorted, oldest }
  }

  /** Ids of the posts holding every term, newest first: the rarest term's list, each post checked against the others. */
  posts(terms: readonly string[], request: PageRequest): Page<string> {
    // A term no post holds reads as an empty list: the page is empty, and its cursor still checked.
    const lists = terms.map((term) => this.#byTerm.get(term) ?? NO_POSTS)
    const [rarest = NO_POSTS, ...others] = lists.sort((a, b) => a.items.length - b.items.length)
    const page = scanPage(rarest.items, byTime, -1, request, (key) => others.every((list) => list.has(key)))
    return { items: page.items.map((key) => key._id), nextCursor: page.nextCursor }
  }

  #indexTerms(key: PostKey, before: string, after: string): void {
    const [termsBefore, termsAfter] = [searchTermsOf(before), searchTermsOf(after)]
    for (const term of diff(termsBefore, termsAfter)) this.#drop(this.#byTerm, term, key)
    for (const term of diff(termsAfter, termsBefore)) this.#listOf(this.#byTerm, term).upsert(undefined, key)
  }

  /** `trending`: whether the post's uses count towards trends, a public post's alone (its audience never changes). */
  #indexTags(
    key: PostKey,
    before: ReadonlyMap<string, string>,
    after: ReadonlyMap<string, string>,
    trending: boolean,
  ): void {
    for (const [tag, usedAt] of before) {
      if (after.get(tag) === usedAt) continue
      if (trending) this.#uses.remove(useOf(key._id, tag, usedAt))
      if (!after.has(tag)) this.#drop(this.#byTag, tag, key)
      this.#tagsVersion++
    }
    for (const [tag, usedAt] of after) {
      if (before.get(tag) === usedAt) continue
      if (trending) this.#uses.upsert(undefined, useOf(key._id, tag, usedAt))
      if (!before.has(tag)) this.#listOf(this.#byTag, tag).upsert(undefined, key)
      this.#tagsVersion++
    }
  }

  /** An emptied list goes, so words nobody uses any more hold no memory. */
  #drop(lists: Map<string, SortedList<PostKey>>, text: string, key: PostKey): void {
    const list = lists.get(text)
    list?.remove(key)
    if (list?.items.length === 0) lists.delete(text)
  }

  #listOf(lists: Map<string, SortedList<PostKey>>, text: string): SortedList<PostKey> {
    let list = lists.get(text)
    if (!list) lists.set(text, (list = new SortedList(byTime)))
    return list
  }
}
