import { mkdir } from 'node:fs/promises'
import path from 'node:path'
import { Low } from 'lowdb'
import { DurableJsonFile } from './durable-file.js'
import { lockDataDir } from './lock.js'
import { MemoryIndex } from './memory-index.js'
import type { Database, PageRequest, PostQuery, PostRecord, Store, StoreWriter, UserRecord } from './types.js'

function isDatabase(data: unknown): data is Database {
  const candidate = data as Partial<Database> | null
  return (
    typeof candidate === 'object' &&
    candidate !== null &&
    candidate.version === 1 &&
    Array.isArray(candidate.users) &&
    Array.isArray(candidate.posts)
  )
}

interface Waiter {
  resolve: () => void
  reject: (error: unknown) => void
}

/** Runs one async section at a time, in arrival order. */
class Mutex {
  #tail: Promise<void> = Promise.resolve()
  lock(): Promise<() => void> {
    let release!: () => void
    const next = new Promise<void>((resolve) => (release = resolve))
    const acquired = this.#tail.then(() => release)
    this.#tail = this.#tail.then(() => next)
    return acquired
  }
}

/** Staged changes of one transaction; reads inside it see them first. */
class Transaction implements StoreWriter {
  readonly users = new Map<string, UserRecord>()
  readonly posts = new Map<string, PostRecord | null>()
  constructor(private readonly base: LowdbStore) {}

  get empty() {
    return this.users.size === 0 && this.posts.size === 0
  }
  async getUser(id: string) {
    return this.users.get(id) ?? this.base.getUser(id)
  }
  async getUserByUsername(username: string) {
    const lower = username.toLowerCase()
    for (const user of this.users.values()) if (user.username.toLowerCase() === lower) return user
    return this.base.getUserByUsername(username)
  }
  async getUsers(ids: readonly string[]) {
    const found = await Promise.all(ids.map((id) => this.getUser(id)))
    return found.filter((user): user is UserRecord => user !== undefined)
  }
  async getPost(id: string) {
    const staged = this.posts.get(id)
    return staged === null ? undefined : (staged ?? this.base.getPost(id))
  }
  async getPosts(ids: readonly string[]) {
    const found = await Promise.all(ids.map((id) => this.getPost(id)))
    return found.filter((post): post is PostRecord => post !== undefined)
  }
  /** Lists read committed data: no service lists inside a transaction. */
  listUsers(page: PageRequest) {
    return this.base.listUsers(page)
  }
  listPosts(query: PostQuery) {
    return this.base.listPosts(query)
  }
  async putUser(user: UserRecord) {
    this.users.set(user._id, Object.freeze(user))
  }
  async putPost(post: PostRecord) {
    this.posts.set(post._id, Object.freeze(post))
  }
  async deletePost(id: string) {
    this.posts.set(id, null)
  }
}

export interface LowdbStoreOptions {
  dataDir: string
  /** Builds the first database when db.json does not exist yet. */
  seed: () => Promise<Database>
}

/**
 * The whole database lives in memory and in DATA_DIR/db.json. Transactions run one at a time, apply
 * their changes to memory at once and wait for the next flush: every transaction that commits while a
 * flush is running shares the following one, so a burst of writes costs a few file writes, not one each.
 */
export class LowdbStore implements Store {
  readonly #index = new MemoryIndex()
  readonly #mutex = new Mutex()
  readonly #db: Low<Database>
  readonly #unlock: () => void
  #pending: Waiter[] = []
  #flushing: Promise<void> | undefined
  #broken: unknown

  private constructor(db: Low<Database>, unlock: () => void) {
    this.#db = db
    this.#unlock = unlock
  }

  static async open(options: LowdbStoreOptions): Promise<LowdbStore> {
    await mkdir(options.dataDir, { recursive: true })
    const unlock = lockDataDir(options.dataDir)
    try {
      const file = path.join(options.dataDir, 'db.json')
      const db = new Low<Database>(new DurableJsonFile(file, isDatabase), { version: 1, users: [], posts: [] })
      const existing = await db.adapter.read()
      if (existing === null) {
        db.data = await options.seed()
        await db.write()
      } else {
        db.data = existing
      }
      const store = new LowdbStore(db, unlock)
      store.#index.load(db.data)
      return store
    } catch (error) {
      unlock()
      throw error
    }
  }

  async getUser(id: string) {
    return this.#index.users.get(id)
  }
  async getUserByUsername(username: string) {
    return this.#index.usersByName.get(username.toLowerCase())
  }
  async getUsers(ids: readonly string[]) {
    return ids.map((id) => this.#index.users.get(id)).filter((user): user is UserRecord => user !== undefined)
  }
  async listUsers(page: PageRequest) {
    return this.#index.listUsers(page)
  }
  async getPost(id: string) {
    return this.#index.posts.get(id)
  }
  async getPosts(ids: readonly string[]) {
    return ids.map((id) => this.#index.posts.get(id)).filter((post): post is PostRecord => post !== undefined)
  }
  async listPosts(query: PostQuery) {
    return this.#index.listPosts(query)
  }

  async transaction<T>(work: (tx: StoreWriter) => Promise<T>): Promise<T> {
    const release = await this.#mutex.lock()
    let result: T
    let durable: Promise<void> | undefined
    try {
      if (this.#broken) throw this.#broken
      const tx = new Transaction(this)
      result = await work(tx)
      if (!tx.empty) {
        for (const user of tx.users.values()) this.#index.putUser(user)
        for (const [id, post] of tx.posts) {
          if (post === null) this.#index.deletePost(id)
          else this.#index.putPost(post)
        }
        durable = this.#awaitFlush()
      }
    } finally {
      release()
    }
    await durable
    return result
  }

  async close(): Promise<void> {
    await this.#flushing
    this.#unlock()
  }

  #awaitFlush(): Promise<void> {
    const done = new Promise<void>((resolve, reject) => this.#pending.push({ resolve, reject }))
    // Waiting for the next turn of the event loop lets every request that arrived together join one flush.
    this.#flushing ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.#flushLoop())
    return done
  }

  async #flushLoop(): Promise<void> {
    while (this.#pending.length > 0) {
      const batch = this.#pending
      this.#pending = []
      this.#db.data = this.#index.toDatabase()
      try {
        await this.#db.write()
        for (const waiter of batch) waiter.resolve()
      } catch (error) {
        await this.#recover(batch, error)
      }
    }
    this.#flushing = undefined
  }

  /** Memory holds changes the disk does not: fail every one of them and read the disk back, so the two agree. */
  async #recover(batch: Waiter[], error: unknown): Promise<void> {
    const release = await this.#mutex.lock()
    try {
      const failed = [...batch, ...this.#pending]
      this.#pending = []
      try {
        const data = await this.#db.adapter.read()
        if (data) this.#index.load(data)
      } catch (readError) {
        this.#broken = readError
      }
      for (const waiter of failed) waiter.reject(error)
    } finally {
      release()
    }
  }
}
