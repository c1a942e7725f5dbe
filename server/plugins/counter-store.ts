import type { FastifyRateLimitStore } from '@fastify/rate-limit'

type Result = { current: number; ttl: number }
type Callback = (error: Error | null, result?: Result) => void

interface Counter {
  current: number
  resetAt: number
}

/**
 * In-process rate-limit counters that junk cannot flush. @fastify/rate-limit's own store is an LRU of
 * 5,000 keys: a burst of fresh keys (made-up usernames, a range of addresses) pushed out the counters
 * that mattered and so reset them. Here a full store forgets first the counters that have counted only
 * once, oldest first, and only when there are none of those a counter that has counted more: junk, one
 * hit per key, only ever displaces other single hits, which cost nothing to forget.
 */
export class CounterStore implements FastifyRateLimitStore {
  /** Keys seen once, in the order they were made, which is also the order they expire. */
  private readonly once = new Map<string, Counter>()
  private readonly more = new Map<string, Counter>()

  constructor(
    private readonly capacity: number,
    private readonly now: () => number,
  ) {}

  incr(key: string, callback: Callback, timeWindow: number): void {
    const t = this.now()
    let counter = this.live(key, t)
    if (counter === undefined) {
      this.makeRoom(t)
      counter = { current: 1, resetAt: t + timeWindow }
      this.once.set(key, counter)
    } else {
      counter.current++
      if (this.once.delete(key)) this.more.set(key, counter)
    }
    callback(null, { current: counter.current, ttl: counter.resetAt - t })
  }

  /** The count without counting, for `{ increment: false }`. */
  read(key: string, callback: Callback): void {
    const t = this.now()
    const counter = this.live(key, t)
    callback(null, counter ? { current: counter.current, ttl: counter.resetAt - t } : { current: 0, ttl: 0 })
  }

  /** Each limiter made with createRateLimit gets a store of its own. */
  child(): CounterStore {
    return new CounterStore(this.capacity, this.now)
  }

  get size(): number {
    return this.once.size + this.more.size
  }

  private live(key: string, t: number): Counter | undefined {
    const counter = this.once.get(key) ?? this.more.get(key)
    if (counter === undefined || counter.resetAt > t) return counter
    this.once.delete(key)
    this.more.delete(key)
    return undefined
  }

  private makeRoom(t: number): void {
    if (this.size < this.capacity) return
    for (const map of [this.once, this.more]) {
      for (const [key, counter] of map) {
        if (counter.resetAt > t) break
        map.delete(key)
      }
    }
    if (this.size < this.capacity) return
    const victims = this.once.size > 0 ? this.once : this.more
    const oldest = victims.keys().next()
    if (!oldest.done) victims.delete(oldest.value)
  }
}

/** A store class for @fastify/rate-limit's `store` option, keeping at most `capacity` keys per limiter. */
export function counterStore(capacity: number, now: () => number = Date.now): new (options?: unknown) => CounterStore {
  return class extends CounterStore {
    constructor() {
      super(capacity, now)
    }
  }
}
