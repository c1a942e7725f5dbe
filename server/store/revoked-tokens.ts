import type { RevokedTokenRecord } from './types.js'

/**
 * The embedded store's logged-out tokens, kept in order of expiry (tokens revoked later expire later,
 * unless JWT_EXPIRES_IN was shortened meanwhile), so the expired ones sit at the front: each logout
 * forgets them without looking at the rest.
 */
export class RevokedTokens {
  readonly #byId = new Map<string, RevokedTokenRecord>()

  load(records: readonly RevokedTokenRecord[]): void {
    this.#byId.clear()
    const byExpiry = [...records].sort((a, b) => (a.expiresAt < b.expiresAt ? -1 : a.expiresAt > b.expiresAt ? 1 : 0))
    for (const record of byExpiry) this.#byId.set(record._id, Object.freeze(record))
  }

  get(id: string): RevokedTokenRecord | undefined {
    return this.#byId.get(id)
  }

  put(record: RevokedTokenRecord): void {
    this.#byId.set(record._id, record)
  }

  delete(id: string): void {
    this.#byId.delete(id)
  }

  /** The revocations whose token has expired by `at`, from the front, up to the first that has not. */
  expired(at: string): string[] {
    const ids: string[] = []
    for (const record of this.#byId.values()) {
      if (record.expiresAt > at) break
      ids.push(record._id)
    }
    return ids
  }
}
