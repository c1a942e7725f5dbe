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
  /** What is kept under `key` at this read's version, if anything. */
  get<T extends object>(key: string): T | undefined
  /**
   * Keeps `value` under `key` at this read's version, drawn from what `tags` name (`post:<id>`, `people`:
   * store/pg/change-tags.ts); on a store that names its changes, only a change to one of them voids it.
   */
  set(key: string, value: object, tags?: readonly string[]): void
}
