/**
 * A Map that keeps at most `capacity` entries, forgetting the least recently used first. The read path's
 * caches use it so that what they keep is named by id and bounded, whichever store the records come from.
 */
export class BoundedCache<K, V> {
  readonly #entries = new Map<K, V>()

  constructor(readonly capacity: number) {}

  get(key: K): V | undefined {
    const value = this.#entries.get(key)
    if (value !== undefined) {
      // A Map iterates in insertion order: moving the entry to the end marks it as the newest.
      this.#entries.delete(key)
      this.#entries.set(key, value)
    }
    return value
  }

  /** Without marking it used. */
  peek(key: K): V | undefined {
    return this.#entries.get(key)
  }

  set(key: K, value: V): void {
    this.#entries.delete(key)
    this.#entries.set(key, value)
    if (this.#entries.size > this.capacity) {
      const oldest = this.#entries.keys().next()
      if (!oldest.done) this.#entries.delete(oldest.value)
    }
  }

  get size(): number {
    return this.#entries.size
  }
}
