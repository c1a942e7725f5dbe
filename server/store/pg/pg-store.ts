import { randomUUID } from 'node:crypto'
import { MSG, conflict } from '../../errors.js'
import type {
  FederationKv,
  Database,
  LoggedEvent,
  Store,
  StoreChange,
  StoreTx,
  TokenHolder,
  ClaimedJob,
  JobClaimRequest,
  JobOutcome,
  NewJob,
} from '../types.js'
import { ALL, changeTags } from '../change-tags.js'
import { createSql, keepFetchedTypes, type Sql } from './connect.js'
import { migrate } from './migrate.js'
import { PgReader } from './pg-reader.js'
import { PgTx } from './pg-tx.js'
import * as jobs from './pg-jobs.js'
import { PgFederationKv } from './pg-federation.js'
import { isUuid } from './records.js'

export interface PgStoreOptions {
  url: string
  poolMax: number
  schema: string
  /** Fills an empty database, as the embedded store seeds a new data directory. */
  seed: () => Promise<Database>
  log?: { info(msg: string): void; warn(obj: object, msg: string): void }
}

/**
 * Serialization failure, deadlock, and a lock waited for past lock_timeout (held by a long transaction,
 * such as a big account's deletion): the transaction lost a race and may simply run again, and then
 * finds what the winner left (a deleted account is gone: a 4xx).
 */
const RETRYABLE = new Set(['40001', '40P01', '55P03'])
const RETRIES = 3

const isRetryable = (error: unknown) =>
  typeof error === 'object' && error !== null && RETRYABLE.has(String((error as { code?: unknown }).code))

/** How long after a job of another instance is due this one looks for it (watchJobs). */
const OTHERS_JOBS_AFTER_MS = 50

/**
 * The store on PostgreSQL, for several instances sharing one database. Reads rebuild the embedded
 * store's records; a transaction is one database transaction (READ COMMITTED) whose operations each
 * check and change on locked rows, and whose events land in the outbox in the same commit.
 *
 * It keeps nothing between reads. What each write changed reaches the app's read cache (kept-reads.ts,
 * plugins/read-cache.ts) through watchChanges, named by the events of the shared log as they reach this
 * instance (change-tags.ts), a write's own before it is answered; a write with no event of its own logs
 * `store.changed`, which voids everything. Each signed-in request's token check also reads the newest
 * event its user caused or received, and first takes in the log up to it (catchUp): a writer reads their
 * own writes through any instance, and everyone else once the events arrive.
 */
export class PgStore extends PgReader implements Store {
  readonly kind = 'postgres'
  readonly batchesAtOnce = 1
  readonly federationKv: FederationKv
  /** The federation_kv table too: its keys of the Mastodon API are named apart (`mastodon:`). */
  get keyValues(): FederationKv {
    return this.federationKv
  }
  /**
   * Awaited after a transaction that emitted events has committed, before it resolves: the event log
   * uses it to deliver those events to this instance's streams first, so an acknowledged write's event
   * is already on the writer's own streams, as with the embedded store.
   */
  afterEvents: (upTo: number) => Promise<void> = async () => {}
  /** Takes in every event of the shared log up to `head` (followEvents). */
  #catchUp: ((head: number) => Promise<void>) | undefined
  readonly #watchers: ((change: StoreChange) => void)[] = []
  readonly #jobWatchers: ((runAt: string) => void)[] = []
  readonly #jobsNotice: jobs.JobsNotice
  #jobsListening: Promise<{ unlisten(): Promise<void> } | undefined> | undefined
  #jobsHeard = false

  private constructor(
    override readonly sql: Sql,
    readonly schema: string,
    private readonly log: PgStoreOptions['log'],
  ) {
    super(sql)
    this.#jobsNotice = { channel: jobs.jobsChannelOf(schema), sender: randomUUID() }
    this.federationKv = new PgFederationKv(sql)
  }

  /** Connects, brings the schema up to date and seeds an empty database; rejects (and lets go of the pool) if any step fails. */
  static async open(options: PgStoreOptions): Promise<PgStore> {
    const sql = createSql(options)
    try {
      await migrate(sql, { schema: options.schema, seed: options.seed, ...(options.log ? { log: options.log } : {}) })
      // The migration's queries have fetched the array types (uuid[] for follows, likes and bookmarks).
      keepFetchedTypes(sql)
      return new PgStore(sql, options.schema, options.log)
    } catch (error) {
      await sql.end({ timeout: 5 })
      throw error
    }
  }

  /** Runs `work` again, whole, when PostgreSQL reports a lost race; it builds everything it writes inside, so that is safe. */
  async transaction<T>(work: (tx: StoreTx) => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        let written: Promise<number> = Promise.resolve(0)
        let queued: readonly string[] = []
        // begin() types its result for pipelined query arrays; `work` resolves to plain data.
        const result = (await this.sql.begin(async (sql) => {
          const tx = new PgTx(sql, this.#jobsNotice)
          queued = tx.queued
          const result = await work(tx)
          // The outbox rows go with the COMMIT, which begin() sends as soon as this returns: the driver
          // writes the two at once, one round trip. Should the insert fail, PostgreSQL ends the aborted
          // transaction with a rollback in place of the commit, and awaiting `written` throws its error.
          written = tx.writeEvents()
          written.catch(() => {})
          return result
        })) as T
        const newestEvent = await written
        // Without the event log, no event says what changed: every commit voids everything kept.
        if (!this.#catchUp) this.#changed(ALL)
        await this.afterEvents(newestEvent)
        this.#jobsQueued(queued)
        return result
      } catch (error) {
        if (!isRetryable(error)) throw error
        // Still losing after every try: a clear refusal that changed nothing, never an internal error.
        if (attempt >= RETRIES) throw conflict(MSG.busy)
        this.log?.warn({ err: error, attempt: attempt + 1 }, 'PostgreSQL transaction lost a race; running it again')
      }
    }
  }

  async enqueueJobs(queued: readonly NewJob[], at: string): Promise<void> {
    await jobs.enqueueJobs(this.sql, queued, at, this.#jobsNotice)
    this.#jobsQueued(queued.map((job) => job.runAt))
  }
  claimJobs(request: JobClaimRequest): Promise<ClaimedJob[]> {
    return jobs.claimJobs(this.sql, request)
  }
  extendJobLease(id: string, claim: string, leaseUntil: string): Promise<boolean> {
    return jobs.extendJobLease(this.sql, id, claim, leaseUntil)
  }
  settleJob(id: string, claim: string, outcome: JobOutcome, at: string): Promise<boolean> {
    return jobs.settleJob(this.sql, id, claim, outcome, at)
  }
  pruneJobs(doneBefore: string, failedBefore: string): Promise<number> {
    return jobs.pruneJobs(this.sql, doneBefore, failedBefore)
  }
  countJobs() {
    return jobs.countJobs(this.sql)
  }
  listFailedJobs(limit: number) {
    return jobs.listFailedJobs(this.sql, limit)
  }
  /**
   * Jobs enqueued through this instance once they commit, and those of other instances as PostgreSQL tells
   * of them (NOTIFY on the schema's jobs channel), OTHERS_JOBS_AFTER_MS after they are due: their own
   * instance, woken at once, takes them first, and a burst of them wakes this one once. A listen that
   * reconnects wakes the workers for whatever was missed meanwhile; the workers' polling is the last resort.
   */
  async watchJobs(watcher: (runAt: string) => void): Promise<void> {
    this.#jobWatchers.push(watcher)
    this.#jobsListening ??= this.sql
      .listen(
        this.#jobsNotice.channel,
        (payload) => {
          const notice = jobs.parseJobsNotice(payload)
          if (!notice || notice.sender === this.#jobsNotice.sender) return
          const due = Math.max(Date.parse(notice.runAt), Date.now()) + OTHERS_JOBS_AFTER_MS
          this.#jobsQueued([new Date(due).toISOString()])
        },
        () => {
          // Called at the first connect too, when there is nothing missed yet.
          if (this.#jobsHeard) this.#jobsQueued([new Date().toISOString()])
          this.#jobsHeard = true
        },
      )
      .catch((error: unknown) => {
        this.log?.warn({ err: error }, 'could not listen for new jobs; the workers poll for them')
        return undefined
      })
    await this.#jobsListening
  }
  #jobsQueued(runAts: readonly string[]): void {
    for (const runAt of runAts) for (const watcher of this.#jobWatchers) watcher(runAt)
  }

  /**
   * From now on the event log delivers every event to eventArrived, and `catchUp` takes in the log up to a
   * seq. Until then nothing tells this instance what the others wrote, and each of its own commits is
   * named as changing everything; the app follows the log from before it serves its first request.
   */
  followEvents(catchUp: (head: number) => Promise<void>): void {
    this.#catchUp = catchUp
  }

  /** What each write changed, named by the events of the shared log as they reach this instance (eventArrived). */
  watchChanges(watcher: (change: StoreChange) => void): void {
    this.#watchers.push(watcher)
  }

  /** Called for each event of the shared log as it reaches this instance, before its streams see it. */
  eventArrived(event: LoggedEvent): void {
    const tags = changeTags(event)
    if (tags === ALL || tags.length > 0) this.#changed(tags)
  }

  #changed(change: StoreChange): void {
    for (const watcher of this.#watchers) watcher(change)
  }

  /**
   * The token check, with the newest event the user caused or received read in the same statement and
   * caught up to: their own writes, through whichever instance, are seen by this request (see the class).
   */
  override async getTokenHolder(id: string): Promise<TokenHolder | undefined> {
    if (!isUuid(id)) return undefined
    const [row] = await this.sql<{ id: string | null; username: string; token_version: number; seen: string | null }[]>`
      SELECT u.id, u.username, u.token_version, greatest(
        (SELECT max(seq) FROM events WHERE actor = ${id}), (SELECT max(seq) FROM events WHERE recipient = ${id}))::text AS seen
      FROM (VALUES (1)) one LEFT JOIN users u ON u.id = ${id}`
    if (row?.seen) await this.#catchUp?.(Number(row.seen))
    return row?.id ? { _id: row.id, username: row.username, tokenVersion: row.token_version } : undefined
  }

  async ping(): Promise<void> {
    await this.sql`SELECT 1`
  }

  async close(): Promise<void> {
    await (await this.#jobsListening)?.unlisten().catch(() => {})
    await this.sql.end({ timeout: 5 })
  }
}
