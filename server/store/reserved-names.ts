import { usernameKey } from '../usernames.js'
import type { ReservedNameRecord } from './types.js'

/** The embedded store's held usernames of deleted accounts, by username key and by the account's id. */
export class ReservedNames {
  readonly #byKey = new Map<string, ReservedNameRecord>()
  readonly #byUser = new Map<string, string>()

  load(records: readonly ReservedNameRecord[]): void {
    this.#byKey.clear()
    this.#byUser.clear()
    for (const record of records) this.put(Object.freeze(record))
  }
  get(key: string): ReservedNameRecord | undefined {
    return this.#byKey.get(key)
  }
  put(record: ReservedNameRecord): void {
    this.delete(record._id)
    this.#byKey.set(record._id, record)
    this.#byUser.set(record.userId, record._id)
  }
  delete(key: string): void {
    const previous = this.#byKey.get(key)
    if (previous) this.#byUser.delete(previous.userId)
    this.#byKey.delete(key)
  }
  isReserved(username: string, at: string): boolean {
    const record = this.#byKey.get(usernameKey(username))
    return record !== undefined && record.until > at
  }
  wasDeleted(userId: string): boolean {
    return this.#byUser.has(userId)
  }
  /** The keys of names held no longer at `at`: forgotten at the next deletion. */
  expired(at: string): string[] {
    return [...this.#byKey.values()].filter((record) => record.until <= at).map((record) => record._id)
  }
}
