import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import type { ReadCacheView } from '../services/deps.js'
import { TaggedCache } from '../tagged-cache.js'
import type { Store, StoreChange } from '../store/types.js'

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
 * What reads keep between requests: a post's view and its bytes. Everything kept is named by what was
 * read (and by whom, where the answer depends on the reader), by the store's write version when it was
 * read, and by tags naming what it was drawn from (`post:<id>`…, server/tagged-cache.ts). The embedded
 * store raises the version on every committed write: after a write, nothing kept before it is found
 * again. PostgreSQL names what each write changed (Store.watchChanges, from the events of the shared log,
 * a write through another instance once its event arrives), and only what was drawn from that lapses, so
 * views are kept under a steady stream of writes.
 */
export class ReadCache {
  readonly #kept: TaggedCache
  /** The bytes of frozen views in a reply: such a view never changes, so its bytes never go stale. */
  readonly #bytes = new WeakMap<object, Buffer>()

  constructor(
    private readonly version: () => number,
    max = DEFAULT_MAX,
  ) {
    this.#kept = new TaggedCache(max)
  }

  /** A write changed what `change` names: whatever was drawn from it lapses. */
  changed(change: StoreChange): void {
    if (change === 'all') this.#kept.clear()
    else this.#kept.change(change)
  }

  /**
   * The cache as one read sees it: at the version taken now, before the read reads anything, so what it
   * keeps is at least as new as that version, and a read that starts after any later write misses it.
   */
  at(): ReadCacheView {
    const prefix = `${this.version()} `
    const stamp = this.#kept.stamp()
    const kept = this.#kept
    return {
      get: <T extends object>(key: string): T | undefined => kept.get<T>(prefix + key),
      set: (key: string, value: object, tags: readonly string[] = []) => kept.set(prefix + key, value, tags, stamp),
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

async function readCachePlugin(
  fastify: FastifyInstance,
  options: { store: Pick<Store, 'writeVersion' | 'watchChanges'>; max?: number },
) {
  const { store } = options
  const cache = new ReadCache(() => store.writeVersion(), options.max)
  store.watchChanges?.((change) => cache.changed(change))
  fastify.decorate('readCache', cache)
  fastify.decorateRequest('readCacheView', null as unknown as ReadCacheView)
  // Taken before the request reads anything: see ReadCache.at.
  fastify.addHook('onRequest', async (request) => {
    request.readCacheView = cache.at()
  })
}

export default fp(readCachePlugin, { name: 'read-cache', fastify: '5.x' })
