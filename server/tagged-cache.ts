import { LRUCache } from 'lru-cache'

/**
 * A bounded cache whose entries name what they were read from (tags: `post:<id>`, `follows:<userId>`…)
 * and lapse when any of those is changed. Every change raises a counter and records it against its tags;
 * an entry remembers the counter from before its read began (its stamp), so an entry is good while none
 * of its tags has changed since that stamp. A change that lands while a read is under way therefore
 * voids what that read keeps, and a read never keeps anything older than its start.
 *
 * This is what lets reads stay kept under a steady write load: a like voids the pages and views that
 * hold that post, not everything. Each store names what every write changed (store/change-tags.ts);
 * PostgreSQL's instances learn of every write from the shared event log.
 */
export class TaggedCache {
  readonly #entries: LRUCache<string, Entry>
  /** When each tag last changed, by the counter; tags that never changed are absent. */
  readonly #changed = new Map<string, number>()
  #counter = 0
  /** Changes to every tag at once (`clear`) up to this counter. */
  #clearedAt = 0

  constructor(max: number) {
    this.#entries = new LRUCache({ max })
  }

  /** The stamp a read takes before it reads anything. */
  stamp(): number {
    return this.#counter
  }

  get<T>(key: string): T | undefined {
    const entry = this.#entries.get(key)
    if (!entry) return undefined
    if (entry.stamp < this.#clearedAt) {
      this.#entries.delete(key)
      return undefined
    }
    for (const tag of entry.tags) {
      const changed = this.#changed.get(tag)
      if (changed !== undefined && changed > entry.stamp) {
        this.#entries.delete(key)
        return undefined
      }
    }
    return entry.value as T
  }

  /** Keeps `value`, read from what `tags` name after `stamp` was taken. */
  set(key: string, value: unknown, tags: readonly string[], stamp: number): void {
    if (stamp < this.#clearedAt) return
    this.#entries.set(key, { value, tags, stamp })
  }

  /** Records a change to each tag: everything kept with any of them before now lapses. */
  change(tags: Iterable<string>): void {
    const at = ++this.#counter
    for (const tag of tags) this.#changed.set(tag, at)
    // The record of changes is only needed for entries that might still hold those tags.
    if (this.#changed.size > CHANGED_MAX) this.clear()
  }

  /** Everything kept so far lapses. */
  clear(): void {
    this.#clearedAt = ++this.#counter
    this.#changed.clear()
    this.#entries.clear()
  }

  get size(): number {
    return this.#entries.size
  }
}

interface Entry {
  value: unknown
  tags: readonly string[]
  stamp: number
}

/**
 * Past this many changed tags the record is dropped with everything kept: a community's steady writes
 * name a few tags each, so this is reached after tens of thousands of writes, and costs one refill.
 */
const CHANGED_MAX = 100_000
