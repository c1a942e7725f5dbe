import type { KvKey, KvStore, KvStoreSetOptions } from '@fedify/fedify'
import type { FederationKv } from '../store/types.js'

/**
 * Fedify's KvStore over the store's FederationKv (store/types.ts): keys as the JSON of their parts, so
 * `["a", "b"]` and `["a/b"]` never meet; values as JSON; a time to live as an expiry on Chirp's clock.
 */
export class ChirpKvStore implements KvStore {
  constructor(
    private readonly kv: FederationKv,
    private readonly now: () => Date,
  ) {}

  async get<T = unknown>(key: KvKey): Promise<T | undefined> {
    const value = await this.kv.get(JSON.stringify(key), this.now().toISOString())
    return value === undefined ? undefined : (JSON.parse(value) as T)
  }

  async set(key: KvKey, value: unknown, options?: KvStoreSetOptions): Promise<void> {
    await this.kv.set(JSON.stringify(key), JSON.stringify(value), this.#expiry(options))
  }

  async delete(key: KvKey): Promise<void> {
    await this.kv.delete(JSON.stringify(key))
  }

  async cas(key: KvKey, expectedValue: unknown, newValue: unknown, options?: KvStoreSetOptions): Promise<boolean> {
    const expected = expectedValue === undefined ? undefined : JSON.stringify(expectedValue)
    const at = this.now().toISOString()
    return this.kv.compareAndSet(JSON.stringify(key), expected, JSON.stringify(newValue), this.#expiry(options), at)
  }

  #expiry(options: KvStoreSetOptions | undefined) {
    if (options?.ttl === undefined) return undefined
    return new Date(this.now().getTime() + options.ttl.total('millisecond')).toISOString()
  }
}
