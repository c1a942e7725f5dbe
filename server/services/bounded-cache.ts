/**
 * A map that keeps at most `capacity` entries, the recently used ones: entries live in two generations,
 * and when the newer one fills up to half the capacity, the older one is dropped whole and the newer one
 * becomes it; an entry read from the older generation moves to the newer. The read path's caches use it
 * so that what they keep is named by id and bounded, whichever store the records come from. Reads
 * neither delete nor reorder (a Map with many deletions is rehashed over and over), so a hit costs
 * one lookup.
 */
export class BoundedCache<K, V> {
  #newer = new Map<K, V>()
  #older = new Map<K, V>()
  readonly #half: number

  constructor(capacity: number) {
    this.#half = Math.max(1, Math.floor(capacity / 2))
  }

  get(key: K): V | undefined {
    const value = this.#newer.get(key)
    if (value !== undefined) return value
    const old = this.#older.get(key)
    if (old !== undefined) {
      this.#older.delete(key)
      this.#put(key, old)
    }
    return old
  }

  /** Without counting as a use. */
  peek(key: K): V | undefined {
    return this.#newer.get(key) ?? this.#older.get(key)
  }

  set(key: K, value: V): void {
    if (this.#newer.has(key)) this.#newer.set(key, value)
    else {
      this.#older.delete(key)
      this.#put(key, value)
    }
  }

  get size(): number {
    return this.#newer.size + this.#older.size
  }

  #put(key: K, value: V): void {
    if (this.#newer.size >= this.#half) {
      this.#older = this.#newer
      this.#newer = new Map()
    }
    this.#newer.set(key, value)
  }
}
