import type { Store } from '../store/types.js'

export interface ServiceDeps {
  /** Writes go through its transactions, which also carry the events they cause. */
  store: Store
  /** The clock, replaceable in tests. */
  now: () => Date
}

/**
 * The app's read cache as one read sees it (plugins/read-cache.ts): what a read keeps is found again only
 * until a write changes what it was drawn from.
 */
export interface ReadCacheView {
  /** What is kept under `key`, if anything. */
  get<T extends object>(key: string): T | undefined
  /**
   * Keeps `value` under `key`, drawn from what `tags` name (`post:<id>`, `people`: store/change-tags.ts):
   * a change to one of them after this read began voids it.
   */
  set(key: string, value: object, tags?: readonly string[]): void
}
