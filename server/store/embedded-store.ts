import { mkdir } from 'node:fs/promises'
import type { ChirpEvent } from '../schemas/events.js'
import { lockDataDir } from './lock.js'
import { EmbeddedJobs, type JobChange } from './embedded-jobs.js'
import { pollCloseJobs } from './job-index.js'
import { EmbeddedReader } from './embedded-reader.js'
import type { Kind } from './layout.js'
import { MemoryIndex } from './memory-index.js'
import { ShardedFiles } from './sharded-files.js'
import { Transaction } from './transaction.js'
import { FileKeyValues, MemoryFederationKv } from './memory-kv.js'
import { ALL, writeChange } from './change-tags.js'
import type {
  ClaimedJob,
  Database,
  JobClaimRequest,
  JobOutcome,
  JobRecord,
  NewJob,
  Store,
  StoreChange,
  StoreTx,
} from './types.js'

interface Waiter {
  resolve: () => void
  reject: (error: unknown) => void
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`

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

export interface EmbeddedStoreOptions {
  dataDir: string
  /** Builds the first database when db.json does not exist yet. */
  seed: () => Promise<Database>
  /** See Config.storeFlush: `per-write` is for measuring only. */
  flush?: 'shared' | 'per-write'
  /**
   * Called when a flush failed and the disk could not be read back either: memory then holds changes
   * that were never acknowledged, so the process should stop and start again from the disk.
   */
  onBroken?: (error: unknown) => void
  /** Told of each committed transaction's events, in commit order, once its changes are on disk. */
  publish?: (event: ChirpEvent) => void
  /** Told what a start is doing: reading and indexing a large database takes seconds. */
  log?: (message: string) => void
}

/**
 * The whole database lives in memory, indexed, and on disk as db.json plus shard files (layout.ts).
 * Transactions run one at a time, apply their changes to memory at once and wait for the next flush:
 * every transaction that commits while a flush is running shares the following one, and a flush writes
 * only the shards that changed, so a burst of writes costs a few small file writes, not one whole file each.
 */
export class EmbeddedStore extends EmbeddedReader implements Store {
  readonly kind = 'lowdb'
  readonly batchesAtOnce = Infinity
  readonly federationKv = new MemoryFederationKv()
  readonly keyValues: FileKeyValues
  readonly #mutex = new Mutex()
  readonly #files: ShardedFiles
  readonly #unlock: () => void
  readonly #perWrite: boolean
  #pending: Waiter[] = []
  #flushing: Promise<void> | undefined
  #broken: { error: unknown } | undefined
  readonly #watchers: ((change: StoreChange) => void)[] = []
  readonly #onBroken: (error: unknown) => void
  readonly #publish: (event: ChirpEvent) => void
  readonly #jobs: EmbeddedJobs

  private constructor(
    files: ShardedFiles,
    unlock: () => void,
    options: EmbeddedStoreOptions,
    keyValues: FileKeyValues,
  ) {
    super(new MemoryIndex())
    this.keyValues = keyValues
    this.#files = files
    this.#unlock = unlock
    this.#perWrite = options.flush === 'per-write'
    this.#onBroken = options.onBroken ?? (() => {})
    this.#publish = options.publish ?? (() => {})
    this.#jobs = new EmbeddedJobs(this.index.jobs, (work, durable) => this.#changeJobs(work, durable))
  }

  static async open(options: EmbeddedStoreOptions): Promise<EmbeddedStore> {
    await mkdir(options.dataDir, { recursive: true })
    const unlock = lockDataDir(options.dataDir)
    try {
      const log = options.log ?? (() => {})
      const files = new ShardedFiles(options.dataDir)
      const started = performance.now()
      log(`Reading the database in ${options.dataDir}`)
      const existing = await files.read()
      const store = new EmbeddedStore(files, unlock, options, await FileKeyValues.open(options.dataDir))
      const data = existing ?? (await options.seed())
      const read = performance.now()
      log(`Indexing ${data.users.length} users and ${data.posts.length} posts, read in ${seconds(read - started)}`)
      store.#load(data)
      log(`The database is ready, in ${seconds(performance.now() - started)}`)
      if (existing === null) {
        await store.#write()
      } else {
        await files.removeStrays()
      }
      return store
    } catch (error) {
      unlock()
      throw error
    }
  }

  async ping() {
    if (this.#broken) throw this.#broken.error
  }

  /** What each write changed, named by its events as it commits (change-tags.ts), before it is answered. */
  watchChanges(watcher: (change: StoreChange) => void): void {
    this.#watchers.push(watcher)
  }

  async transaction<T>(work: (tx: StoreTx) => Promise<T>): Promise<T> {
    const release = await this.#mutex.lock()
    let result: T
    let durable: Promise<void> | undefined
    let events: ChirpEvent[] = []
    try {
      if (this.#broken) throw this.#broken.error
      const tx = new Transaction(this, this.index.notifications)
      result = await work(tx)
      events = tx.events
      if (!tx.empty) {
        for (const user of tx.users.values()) {
          this.index.putUser(user)
          this.#files.touch('users', user._id)
        }
        const { index } = this
        this.#apply('posts', tx.posts, { put: (post) => index.putPost(post), delete: (id) => index.deletePost(id) })
        this.#apply('notifications', tx.notifications.changes, index.notifications)
        this.#apply('revokedTokens', tx.revokedTokens, index.revokedTokens)
        for (const id of tx.deletedUsers) {
          index.deleteUser(id)
          this.#files.remove('users', id)
        }
        const { moderation } = index
        this.#apply('reports', tx.reports, moderation.reports)
        this.#apply('auditLog', tx.auditLog, moderation.audit)
        this.#apply('invites', tx.invites, moderation.invites)
        this.#apply('reservedNames', tx.reservedNames, index.reservedNames)
        this.#apply('jobs', tx.jobs, index.jobs)
        const { clientApps } = index
        this.#apply('apps', tx.apps, clientApps.apps)
        this.#apply('authorizationCodes', tx.authorizationCodes, clientApps.codes)
        this.#apply('markers', tx.markers, clientApps.markers)
        this.#apply('pushSubscriptions', tx.pushSubscriptions, clientApps.pushSubscriptions)
        this.#apply('customEmojis', tx.customEmojis, clientApps.customEmojis)
        this.#changed(writeChange(events))
        durable = this.#awaitFlush()
        // Claimable from now on (EmbeddedJobs): the workers need not wait for the flush.
        this.#jobs.queued([...tx.jobs.values()].filter((job): job is JobRecord => job?.state === 'queued'))
        // Holding the lock through the flush gives this write a flush of its own.
        if (this.#perWrite) await durable
      }
    } finally {
      release()
    }
    await durable
    // Flushes complete in the order their transactions committed, so events keep that order too.
    for (const event of events) this.#publish(event)
    return result
  }

  enqueueJobs(jobs: readonly NewJob[], at: string): Promise<void> {
    return this.#jobs.enqueueJobs(jobs, at)
  }
  claimJobs(request: JobClaimRequest): Promise<ClaimedJob[]> {
    return this.#jobs.claimJobs(request)
  }
  extendJobLease(id: string, claim: string, leaseUntil: string): Promise<boolean> {
    return this.#jobs.extendJobLease(id, claim, leaseUntil)
  }
  settleJob(id: string, claim: string, outcome: JobOutcome, at: string): Promise<boolean> {
    return this.#jobs.settleJob(id, claim, outcome, at)
  }
  pruneJobs(doneBefore: string, failedBefore: string): Promise<number> {
    return this.#jobs.pruneJobs(doneBefore, failedBefore)
  }
  countJobs() {
    return this.#jobs.countJobs()
  }
  listFailedJobs(limit: number) {
    return this.#jobs.listFailedJobs(limit)
  }
  watchJobs(watcher: (runAt: string) => void): Promise<void> {
    return this.#jobs.watchJobs(watcher)
  }

  /**
   * A change of jobs alone, as a transaction makes one: in turn, and durable before it resolves unless
   * `durable` is false (see EmbeddedJobs); it leaves reads' caches be.
   */
  async #changeJobs<T>(work: () => JobChange<T>, durable = true): Promise<T> {
    const release = await this.#mutex.lock()
    let flushed: Promise<void> | undefined
    let answer: T
    try {
      if (this.#broken) throw this.#broken.error
      const change = work()
      answer = change.answer
      const changes = new Map<string, (typeof change.put)[number] | null>()
      for (const job of change.put) changes.set(job._id, job)
      for (const id of change.remove ?? []) changes.set(id, null)
      if (changes.size > 0) {
        this.#apply('jobs', changes, this.index.jobs)
        flushed = this.#awaitFlush()
        this.#jobs.queued(change.queued ?? [])
        // A flush that fails reads the disk back (#recover): nothing is lost that a caller was told of.
        if (!durable) flushed.catch(() => {})
        else if (this.#perWrite) await flushed
      }
    } finally {
      release()
    }
    if (durable) await flushed
    return answer
  }

  async close(): Promise<void> {
    await this.#flushing
    this.#unlock()
  }

  /** One kind's staged records into memory, their shards marked for the next flush; null removes the record. */
  #apply<T>(kind: Kind, changes: Map<string, T | null>, into: { put(record: T): void; delete(id: string): void }) {
    for (const [id, record] of changes) {
      if (record === null) {
        into.delete(id)
        this.#files.remove(kind, id)
      } else {
        into.put(record)
        this.#files.touch(kind, id)
      }
    }
  }

  #changed(change: StoreChange): void {
    for (const watcher of this.#watchers) watcher(change)
  }

  /** Reads a whole database into memory: everything read from the one before is void. */
  #load(database: Database): void {
    this.#changed(ALL)
    // A database from before the queue: its open polls' jobs are made now and written with the next flush.
    const loaded = database.jobs
      ? database
      : { ...database, jobs: pollCloseJobs(database.posts, new Date().toISOString()) }
    this.index.load(loaded)
    this.#files.load(loaded)
  }

  /** Serialises what changed, synchronously, then writes it. Transactions applied later wait for the next one. */
  #write(): Promise<void> {
    const index = this.index
    const records = {
      users: index.users,
      posts: index.posts,
      notifications: index.notifications,
      revokedTokens: index.revokedTokens,
      reports: index.moderation.reports,
      auditLog: index.moderation.audit,
      invites: index.moderation.invites,
      reservedNames: index.reservedNames,
      // A done job is kept in memory until pruned, never written: a restart forgets it, as pruning would.
      jobs: { get: (id: string) => (index.jobs.get(id)?.state === 'done' ? undefined : index.jobs.get(id)) },
      apps: index.clientApps.apps,
      authorizationCodes: index.clientApps.codes,
      markers: index.clientApps.markers,
      pushSubscriptions: index.clientApps.pushSubscriptions,
      customEmojis: index.clientApps.customEmojis,
    }
    const flush = this.#files.prepare((kind, id) => records[kind].get(id))
    return this.#files.commit(flush)
  }

  #awaitFlush(): Promise<void> {
    const done = new Promise<void>((resolve, reject) => this.#pending.push({ resolve, reject }))
    // Waiting for the next turn of the event loop lets every request that arrived together join one flush.
    this.#flushing ??= this.#perWrite
      ? this.#flushLoop()
      : new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.#flushLoop())
    return done
  }

  async #flushLoop(): Promise<void> {
    while (this.#pending.length > 0) {
      const batch = this.#pending
      this.#pending = []
      try {
        await this.#write()
        for (const waiter of batch) waiter.resolve()
      } catch (error) {
        await this.#recover(batch, error)
      }
    }
    this.#flushing = undefined
  }

  /** Memory holds changes the disk does not: fail every one of them and read the disk back, so the two agree. */
  async #recover(batch: Waiter[], error: unknown): Promise<void> {
    // In per-write mode the failing transaction still holds the lock.
    const release = this.#perWrite ? () => {} : await this.#mutex.lock()
    try {
      const failed = [...batch, ...this.#pending]
      this.#pending = []
      try {
        const data = await this.#files.read()
        if (data) this.#load(data)
      } catch (readError) {
        this.#broken = { error: readError }
        this.#onBroken(readError)
      }
      for (const waiter of failed) waiter.reject(error)
    } finally {
      release()
    }
  }
}
