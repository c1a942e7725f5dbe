import { pageOf, type SortKey } from './cursor.js'
import { SortedList, scanPage } from './sorted-list.js'
import { searchTermsOf, tagsOf } from './text-terms.js'
import type { Page, PageRequest, PostRecord, TagCount } from './types.js'

/** What a posting list holds of a post: its place in time, which never changes, so likes and edits leave the lists alone. */
interface PostKey {
  readonly _id: string
  readonly createdAt: string
}

const order = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)
/** The same key, cursor and order as the posts' newest-first lists, so a cursor reads alike on every list of posts. */
const byTime: SortKey<PostKey> = {
  of: (post) => [post.createdAt, post._id],
  length: 2,
  compare: (a, b) => order(a.createdAt, b.createdAt) || order(a._id, b._id),
}
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
  /** Posts with a tag, by time: what trending counts over. */
  readonly #tagged = new SortedList(byTime)
  readonly #tagsOf = new Map<string, readonly string[]>()
  /** Raised whenever a post with tags comes, goes or changes its tags. */
  #tagsVersion = 0
  #trending: { version: number; since: string; oldest: string; counts: TagCount[] } | undefined

  /** Builds every list at once and sorts each one time: inserting post by post would cost a splice each. */
  load(posts: readonly PostRecord[]): void {
    for (const map of [this.#keys, this.#byTerm, this.#byTag, this.#tagsOf]) map.clear()
    const byTerm = new Map<string, PostKey[]>()
    const byTag = new Map<string, PostKey[]>()
    const gather = (lists: Map<string, PostKey[]>, text: string, key: PostKey) => {
      const list = lists.get(text)
      if (list) list.push(key)
      else lists.set(text, [key])
    }
    const tagged: PostKey[] = []
    for (const post of posts) {
      const key: PostKey = { _id: post._id, createdAt: post.createdAt }
      this.#keys.set(post._id, key)
      for (const term of searchTermsOf(post.content)) gather(byTerm, term, key)
      const tags = tagsOf(post.content)
      for (const tag of tags) gather(byTag, tag, key)
      if (tags.length > 0) {
        tagged.push(key)
        this.#tagsOf.set(post._id, tags)
      }
    }
    for (const [term, keys] of byTerm) this.#listOf(this.#byTerm, term).reset(keys)
    for (const [tag, keys] of byTag) this.#listOf(this.#byTag, tag).reset(keys)
    this.#tagged.reset(tagged)
    this.#tagsVersion++
  }

  putPost(previous: PostRecord | undefined, post: PostRecord): void {
    if (previous?.content === post.content) return
    let key = this.#keys.get(post._id)
    if (!key) this.#keys.set(post._id, (key = { _id: post._id, createdAt: post.createdAt }))
    this.#index(key, previous ? previous.content : '', post.content)
  }

  deletePost(previous: PostRecord): void {
    const key = this.#keys.get(previous._id)
    if (!key) return
    this.#index(key, previous.content, '')
    this.#keys.delete(previous._id)
  }

  /** Ids of the tag's posts, newest first. */
  tagged(tag: string, request: PageRequest): Page<string> {
    const page = pageOf(this.#byTag.get(tag)?.items ?? [], byTime, -1, request)
    return { items: page.items.map((key) => key._id), nextCursor: page.nextCursor }
  }

  /**
   * Counts the tags of the posts made since `since`: a walk over the tagged posts of that window only.
   * The counts are kept until a tagged post comes, goes or is retagged, or one counted leaves the window.
   */
  trending(since: string, limit: number): TagCount[] {
    const kept = this.#trending
    if (!kept || kept.version !== this.#tagsVersion || since < kept.since || since > kept.oldest) {
      const counts = new Map<string, number>()
      const items = this.#tagged.items
      let oldest = '\uffff'
      for (let i = items.length - 1; i >= 0 && (items[i] as PostKey).createdAt >= since; i--) {
        const key = items[i] as PostKey
        oldest = key.createdAt
        for (const tag of this.#tagsOf.get(key._id) ?? []) counts.set(tag, (counts.get(tag) ?? 0) + 1)
      }
      const sorted = [...counts].map(([tag, posts]) => ({ tag, posts }))
      sorted.sort((a, b) => b.posts - a.posts || order(a.tag, b.tag))
      this.#trending = { version: this.#tagsVersion, since, oldest, counts: sorted }
    }
    return (this.#trending as { counts: TagCount[] }).counts.slice(0, limit)
  }

  /** Ids of the posts holding every term, newest first: the rarest term's list, each post checked against the others. */
  posts(terms: readonly string[], request: PageRequest): Page<string> {
    const lists = terms.map((term) => this.#byTerm.get(term))
    if (lists.length === 0 || lists.some((list) => list === undefined)) return { items: [], nextCursor: null }
    const [rarest, ...others] = (lists as SortedList<PostKey>[]).sort((a, b) => a.items.length - b.items.length)
    const page = scanPage((rarest as SortedList<PostKey>).items, byTime, -1, request, (key) => others.every((list) => list.has(key)))
    return { items: page.items.map((key) => key._id), nextCursor: page.nextCursor }
  }

  #index(key: PostKey, before: string, after: string): void {
    const [termsBefore, termsAfter] = [searchTermsOf(before), searchTermsOf(after)]
    for (const term of diff(termsBefore, termsAfter)) this.#drop(this.#byTerm, term, key)
    for (const term of diff(termsAfter, termsBefore)) this.#listOf(this.#byTerm, term).upsert(undefined, key)

    const [tagsBefore, tagsAfter] = [tagsOf(before), tagsOf(after)]
    if (tagsBefore.join(' ') === tagsAfter.join(' ')) return
    this.#tagsVersion++
    for (const tag of diff(tagsBefore, tagsAfter)) this.#drop(this.#byTag, tag, key)
    for (const tag of diff(tagsAfter, tagsBefore)) this.#listOf(this.#byTag, tag).upsert(undefined, key)
    if (tagsAfter.length === 0) {
      this.#tagged.remove(key)
      this.#tagsOf.delete(key._id)
    } else {
      if (tagsBefore.length === 0) this.#tagged.upsert(undefined, key)
      this.#tagsOf.set(key._id, tagsAfter)
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
