import type {
  AppRecord,
  AuthorizationCodeRecord,
  CustomEmojiRecord,
  Database,
  MarkerRecord,
  PushSubscriptionRecord,
} from './types.js'

/** Records of one kind by id. */
class KeyedRecords<T extends { readonly _id: string }> {
  readonly #byId = new Map<string, T>()

  load(records: readonly T[]): void {
    this.#byId.clear()
    for (const record of records) this.#byId.set(record._id, Object.freeze(record))
  }
  get(id: string): T | undefined {
    return this.#byId.get(id)
  }
  put(record: T): void {
    this.#byId.set(record._id, record)
  }
  delete(id: string): void {
    this.#byId.delete(id)
  }
  values(): IterableIterator<T> {
    return this.#byId.values()
  }
}

/** Records of one kind by id, and by the user they belong to. */
class UserRecords<T extends { readonly _id: string; readonly userId: string }> extends KeyedRecords<T> {
  readonly #byUser = new Map<string, Map<string, T>>()

  override load(records: readonly T[]): void {
    super.load(records)
    this.#byUser.clear()
    for (const record of records) this.#index(record)
  }
  override put(record: T): void {
    this.delete(record._id)
    super.put(record)
    this.#index(record)
  }
  override delete(id: string): void {
    const record = this.get(id)
    if (record) this.#byUser.get(record.userId)?.delete(id)
    super.delete(id)
  }
  ofUser(userId: string): T[] {
    return [...(this.#byUser.get(userId)?.values() ?? [])]
  }
  #index(record: T): void {
    const mine = this.#byUser.get(record.userId) ?? new Map<string, T>()
    mine.set(record._id, record)
    this.#byUser.set(record.userId, mine)
  }
}

/**
 * The embedded store's records of the Mastodon client API. Codes live for minutes and markers are two a
 * person, so the walks below (an account's deletion, expired codes) stay short.
 */
export class ClientAppIndex {
  readonly apps = new KeyedRecords<AppRecord>()
  readonly codes = new KeyedRecords<AuthorizationCodeRecord>()
  readonly markers = new KeyedRecords<MarkerRecord>()
  readonly pushSubscriptions = new UserRecords<PushSubscriptionRecord>()
  /** The community's custom emoji, by shortcode: a few hundred at most. */
  readonly customEmojis = new KeyedRecords<CustomEmojiRecord>()

  load(data: Database): void {
    this.apps.load(data.apps ?? [])
    this.codes.load(data.authorizationCodes ?? [])
    this.markers.load(data.markers ?? [])
    this.pushSubscriptions.load(data.pushSubscriptions ?? [])
    this.customEmojis.load(data.customEmojis ?? [])
  }

  /** Codes expired at `at`, or given to this user when `userId` is set. */
  codesToForget(at: string, userId?: string): string[] {
    const ids: string[] = []
    for (const code of this.codes.values()) if (code.expiresAt <= at || code.userId === userId) ids.push(code._id)
    return ids
  }

  markersOf(userId: string): MarkerRecord[] {
    const found: MarkerRecord[] = []
    for (const marker of this.markers.values()) if (marker.userId === userId) found.push(marker)
    return found
  }
}

/** Custom emoji in the order both stores list them: by shortcode, code point by code point. */
export const byShortcode = (emojis: CustomEmojiRecord[]) =>
  emojis.sort((a, b) => (a._id < b._id ? -1 : a._id > b._id ? 1 : 0))
