import type { FederationKv } from './types.js'

interface Entry {
  value: string
  expiresAt: string | undefined
}

/** How many writes pass between two sweeps of expired entries, so the map never grows without bound. */
const SWEEP_EVERY = 1000

/**
 * The embedded store's FederationKv: one process owns the data directory (its lock), so a map is seen by
 * every reader there is; what Fedify keeps in it (fetched documents and keys, replay guards) expires on
 * its own and is fetched again after a restart.
 */
export class MemoryFederationKv implements FederationKv {
  readonly #entries = new Map<string, Entry>()
  #writes = 0

  constructor(private readonly now: () => string = () => new Date().toISOString()) {}

  async get(key: string, at: string) {
    return this.#live(key, at)?.value
  }

  async set(key: string, value: string, expiresAt: string | undefined) {
    this.#entries.set(key, { value, expiresAt })
    if (++this.#writes % SWEEP_EVERY === 0) this.#sweep(this.now())
  }

  async delete(key: string) {
    this.#entries.delete(key)
  }

  async compareAndSet(
    key: string,
    expected: string | undefined,
    value: string,
    expiresAt: string | undefined,
    at: string,
  ) {
    if (this.#live(key, at)?.value !== expected) return false
    await this.set(key, value, expiresAt)
    return true
  }

  #live(key: string, at: string) {
    const entry = this.#entries.get(key)
    if (entry?.expiresAt !== undefined && entry.expiresAt <= at) {
      this.#entries.delete(key)
      return undefined
    }
    return entry
  }

  #sweep(at: string) {
    for (const [key, entry] of this.#entries)
      if (entry.expiresAt !== undefined && entry.expiresAt <= at) this.#entries.delete(key)
  }
}
