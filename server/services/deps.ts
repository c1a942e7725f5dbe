import type { ChirpEvent } from '../schemas/events.js'
import type { Store } from '../store/types.js'

export interface Publisher {
  publish(event: ChirpEvent): void
}

export interface ServiceDeps {
  store: Store
  /** Told of each write only after it is on disk. */
  events: Publisher
  /** The clock, replaceable in tests. */
  now: () => Date
}
