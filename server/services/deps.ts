import type { Store } from '../store/types.js'

export interface ServiceDeps {
  /** Writes go through its transactions, which also carry the events they cause. */
  store: Store
  /** The clock, replaceable in tests. */
  now: () => Date
}

/**
 * The app's read cache as one read sees it (plugins/read-cache.ts): what a read keeps is found again only
 * by reads that start before the store's next write.
 */
export interface ReadCacheView {
  /** What is kept under `key` at this read's version, if anything. */
  get<T extends object>(key: string): T | undefined
  /** Keeps `value` under `key` at this read's version. */
  set(key: string, value: object): void
}
