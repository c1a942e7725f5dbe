import path from 'node:path'
import { DurableJsonFile } from './durable-file.js'
import type { FederationKv } from './types.js'

interface Entry {
  value: string
  expiresAt: string | undefined
}

/** What a file of keys and values holds: each entry as `[key, value, expiresAt or null]`. */
interface SavedEntries {
  version: 1
  entries: [string, string, string | null][]
}

const isSaved = (data: unknown): data is SavedEntries =>
  typeof data === 'object' &&
  data !== null &&
  (data as SavedEntries).version === 1 &&
  Array.isArray((data as SavedEntries).entries) &&
  (data as SavedEntries).entries.every(
    (entry) =>
      Array.isArray(entry) &&
      typeof entry[0] === 'string' &&
      typeof entry[1] === 'string' &&
      (entry[2] === null || typeof entry[2] === 'string'),
  )

/** How many writes pass between two sweeps of expired entries, so the map never grows without bound. */
const SWEEP_EVERY = 1000

/**
 * The embedded store's FederationKv: one process owns the data directory (its lock), so a map is seen by
 * every reader there is; what Fedify keeps in it (fetched documents and keys, replay guards) expires on
 * its own and is fetched again after a restart.
 */
export class MemoryFederationKv implements FederationKv {
  readonly #entries = new Map<string, Entry>()
  #writes = 0

  constructor(
    private readonly now: () => string = () => new Date().toISOString(),
    /** Called after every change, with every entry: a store that keeps them (FileKeyValues) writes them out. */
    private readonly changed: (entries: ReadonlyMap<string, Entry>) => Promise<void> = async () => {},
  ) {}

  /** Entries kept before, read back. */
  protected load(entries: Iterable<[string, Entry]>) {
    for (const [key, entry] of entries) this.#entries.set(key, entry)
  }

  async get(key: string, at: string) {
    return this.#live(key, at)?.value
  }

  async set(key: string, value: string, expiresAt: string | undefined) {
    this.#entries.set(key, { value, expiresAt })
    if (++this.#writes % SWEEP_EVERY === 0) this.#sweep(this.now())
    await this.changed(this.#entries)
  }

  async delete(key: string) {
    this.#entries.delete(key)
    await this.changed(this.#entries)
  }

  async compareAndSet(
    key: string,
    expected: string | undefined,
    value: string,
    expiresAt: string | undefined,
    at: string,
  ) {
    if (this.#live(key, at)?.value !== expected) return false
    await this.set(key, value, expiresAt)
    return true
  }

  #live(key: string, at: string) {
    const entry = this.#entries.get(key)
    if (entry?.expiresAt !== undefined && entry.expiresAt <= at) {
      this.#entries.delete(key)
      return undefined
    }
    return entry
  }

  #sweep(at: string) {
    for (const [key, entry] of this.#entries)
      if (entry.expiresAt !== undefined && entry.expiresAt <= at) this.#entries.delete(key)
  }
}

/**
 * Keys and values the embedded store keeps across restarts (Store.keyValues): the memory map above,
 * written whole to one file of the data directory after every change, durably (written aside, then
 * renamed), one write after another; expired entries are left out of what is written. What it holds is
 * short-lived and small (the Mastodon API's idempotency keys, an hour; its uploads' records, a day).
 */
export class FileKeyValues extends MemoryFederationKv {
  static async open(dataDir: string, now: () => string = () => new Date().toISOString()): Promise<FileKeyValues> {
    const file = new DurableJsonFile(path.join(dataDir, 'key-values.json'), isSaved)
    const saved = await file.read()
    let writing = Promise.resolve()
    const keyValues = new FileKeyValues(now, (entries) => {
      const at = now()
      const kept: SavedEntries['entries'] = []
      for (const [key, entry] of entries) {
        if (entry.expiresAt === undefined || entry.expiresAt > at)
          kept.push([key, entry.value, entry.expiresAt ?? null])
      }
      writing = writing.catch(() => {}).then(() => file.write({ version: 1, entries: kept }))
      return writing
    })
    keyValues.load(
      (saved?.entries ?? []).map(([key, value, expiresAt]) => [key, { value, expiresAt: expiresAt ?? undefined }]),
    )
    return keyValues
  }
}
