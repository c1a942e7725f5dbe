import type { Store } from '../store/types.js'

export interface ServiceDeps {
  /** Writes go through its transactions, which also carry the events they cause. */
  store: Store
  /** The clock, replaceable in tests. */
  now: () => Date
}
