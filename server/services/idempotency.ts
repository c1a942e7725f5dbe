import { createHash } from 'node:crypto'
import { conflict } from '../errors.js'
import type { ServiceDeps } from './deps.js'

/**
 * Mastodon's `Idempotency-Key` (DECISIONS §13): a write sent again with the same key by the same person
 * within an hour answers what the first one made and makes nothing more. The key is claimed in the
 * store.s shared keys and values before the write (compare-and-set, so of two instances trying at once
 * one claims it), and holds what the write made once it is done; a write that fails gives the key back.
 * The key itself is kept only as a hash.
 */

const KEPT_MS = 3_600_000
const PENDING = 'pending'
const idempotencyMessages = {
  busy: 'A request with this Idempotency-Key is still being processed; try again in a moment',
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

export function createIdempotency({ store, now }: ServiceDeps, { waitMs = 5_000, stepMs = 50 } = {}) {
  const kv = store.keyValues
  return {
    /**
     * Runs `write` (which answers the id of what it made) once for this person and key: the first time,
     * its id with `replayed` false; every later time within the hour, the first one's id with `replayed`
     * true. A second request while the first is still running waits for it, a few seconds at most.
     */
    async once(userId: string, key: string, write: () => Promise<string>): Promise<{ id: string; replayed: boolean }> {
      const name = `mastodon:idempotency:${userId}:${createHash('sha256').update(key).digest('base64url')}`
      const deadline = Date.now() + waitMs
      for (;;) {
        const at = now()
        const expiresAt = new Date(at.getTime() + KEPT_MS).toISOString()
        if (await kv.compareAndSet(name, undefined, PENDING, expiresAt, at.toISOString())) {
          try {
            const id = await write()
            await kv.set(name, id, expiresAt)
            return { id, replayed: false }
          } catch (error) {
            await kv.delete(name)
            throw error
          }
        }
        const held = await kv.get(name, at.toISOString())
        if (held !== undefined && held !== PENDING) return { id: held, replayed: true }
        if (Date.now() >= deadline) throw conflict(idempotencyMessages.busy)
        // Still being written elsewhere, or given back a moment ago: look again.
        if (held === PENDING) await sleep(stepMs)
      }
    },
  }
}

export type Idempotency = ReturnType<typeof createIdempotency>
