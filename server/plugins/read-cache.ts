import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { LRUCache } from 'lru-cache'
import type { ReadCacheView } from '../services/deps.js'

declare module 'fastify' {
  interface FastifyInstance {
    /** This app's read cache; another app in the same process has its own. */
    readCache: ReadCache
  }
  interface FastifyRequest {
    /** The read cache at the write version when this request arrived (ReadCache.at). */
    readCacheView: ReadCacheView
  }
}

/**
 * What reads keep between requests: a post's view and its bytes, a page's bytes. Everything kept is
 * named by what was read (and by whom, where the answer depends on the reader) and by the store's write
 * version when it was read. Both stores raise that version on every committed write (PostgreSQL also on
 * every event of the shared log, so a write through another instance counts once its event arrives):
 * after a write, nothing kept before it is found again, whatever it was drawn from.
 */
export class ReadCache {
  readonly #kept: LRUCache<string, { value: object }>
  /** The bytes of frozen views in a reply: such a view never changes, so its bytes never go stale. */
  readonly #bytes = new WeakMap<object, Buffer>()

  constructor(
    private readonly version: () => number,
    max = DEFAULT_MAX,
  ) {
    this.#kept = new LRUCache({ max })
  }

  /**
   * The cache as one read sees it: at the version taken now, before the read reads anything, so what it
   * keeps is at least as new as that version, and a read that starts after any later write misses it.
   */
  at(): ReadCacheView {
    const prefix = `${this.version()} `
    const kept = this.#kept
    return {
      get: <T extends object>(key: string): T | undefined => kept.get(prefix + key)?.value as T | undefined,
      set: (key: string, value: object) => void kept.set(prefix + key, { value }),
    }
  }

  /** `view`'s bytes, made by `encode` once for a frozen view (as kept views are), each time for any other. */
  json<T extends object>(view: T, encode: (view: T) => Buffer): Buffer {
    if (!Object.isFrozen(view)) return encode(view)
    let bytes = this.#bytes.get(view)
    if (!bytes) this.#bytes.set(view, (bytes = encode(view)))
    return bytes
  }

  get size(): number {
    return this.#kept.size
  }
}

/** Post views and pages: a post's view is a few kilobytes, a page some 40 KB. */
const DEFAULT_MAX = 10_000

async function readCachePlugin(fastify: FastifyInstance, options: { version: () => number; max?: number }) {
  const cache = new ReadCache(options.version, options.max)
  fastify.decorate('readCache', cache)
  fastify.decorateRequest('readCacheView', null as unknown as ReadCacheView)
  // Taken before the request reads anything: see ReadCache.at.
  fastify.addHook('onRequest', async (request) => {
    request.readCacheView = cache.at()
  })
}

export default fp(readCachePlugin, { name: 'read-cache', fastify: '5.x' })
