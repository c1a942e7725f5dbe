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
 * The app's one read cache, above whichever store it runs on. It keeps two kinds of things in one
 * TaggedCache: the store's reads that every signed-in page makes (server/kept-reads.ts), and what the
 * services build from them, a post's view and a page's (services/post-views.ts). Everything kept is named
 * by what was read (and by whom, where the answer depends on the reader) and by tags naming what it was
 * drawn from (`post:<id>`…, store/change-tags.ts). Both stores name what each committed write changed
 * (Store.watchChanges; on PostgreSQL a write through another instance once its event arrives), and only
 * what was drawn from that lapses, so reads stay kept under a steady stream of writes.
 */
export class ReadCache {
  readonly kept: TaggedCache
  /** The bytes of frozen views in a reply: such a view never changes, so its bytes never go stale. */
  readonly #bytes = new WeakMap<object, Buffer>()

  constructor(max = DEFAULT_MAX) {
    this.kept = new TaggedCache(max)
  }

  /** A write changed what `change` names: whatever was drawn from it lapses. */
  changed(change: StoreChange): void {
    if (change === 'all') this.kept.clear()
    else this.kept.change(change)
  }

  /**
   * The cache as one read sees it: with the stamp taken now, before the read reads anything, so that a
   * write that lands while the read is under way voids what the read keeps.
   */
  at(): ReadCacheView {
    const stamp = this.kept.stamp()
    const kept = this.kept
    return {
      get: <T extends object>(key: string): T | undefined => kept.get<T>(key),
      set: (key: string, value: object, tags: readonly string[] = []) => kept.set(key, value, tags, stamp),
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
    return this.kept.size
  }
}

/**
 * Post views and pages (a view is a few kilobytes, a page some 40 KB), and the store's kept reads (a
 * home-feed page is some 20 post records, a person's relations a few ids).
 */
const DEFAULT_MAX = 30_000

async function readCachePlugin(
  fastify: FastifyInstance,
  options: { store: Pick<Store, 'watchChanges'>; max?: number },
) {
  const cache = new ReadCache(options.max)
  options.store.watchChanges((change) => cache.changed(change))
  fastify.decorate('readCache', cache)
  fastify.decorateRequest('readCacheView', null as unknown as ReadCacheView)
  // Taken before the request reads anything: see ReadCache.at.
  fastify.addHook('onRequest', async (request) => {
    request.readCacheView = cache.at()
  })
}

export default fp(readCachePlugin, { name: 'read-cache', fastify: '5.x' })
