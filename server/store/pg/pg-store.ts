import { randomUUID } from 'node:crypto'
import { MSG, conflict } from '../../errors.js'
import { TaggedCache } from '../../tagged-cache.js'
import type {
  FederationKv,
  Database,
  FeedRepostQuery,
  LoggedEvent,
  Page,
  PostQuery,
  PostRecord,
  Relations,
  Store,
  StoreChange,
  StoreTx,
  TokenHolder,
  UserSummaryRecord,
  ClaimedJob,
  JobClaimRequest,
  JobOutcome,
  NewJob,
} from '../types.js'
import { ALL, changeTags, likeBucketTags } from './change-tags.js'
import { CURSOR } from '../cursor.js'
import { readCursor } from './keyset.js'
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

/** Reads kept between requests: a home-feed page is some 20 post records, a person's relations a few ids. */
const KEPT_MAX = 20_000
/** How long after a job of another instance is due this one looks for it (watchJobs). */
const OTHERS_JOBS_AFTER_MS = 50

/** The soonest of some ends (ISO times or null for none), in ms since the epoch: Infinity without any. */
const soonestEnd = (ends: readonly (string | null)[]) =>
  Math.min(...ends.map((end) => (end === null ? Infinity : Date.parse(end))))

/**
 * The store on PostgreSQL, for several instances sharing one database. Reads rebuild the embedded
 * store's records; a transaction is one database transaction (READ COMMITTED) whose operations each
 * check and change on locked rows, and whose events land in the outbox in the same commit.
 *
 * The reads every signed-in page makes (whom the reader follows, blocks and mutes, who is suspended,
 * the home feed's pages, which posts the reader likes and reposts) are kept in a TaggedCache and voided
 * by the events of the shared log as they reach this instance (change-tags.ts), a write's own before
 * it is answered. A write with no event of its own logs `store.changed`, which voids everything. Each
 * signed-in request's token check also reads the newest event its user caused or received, and first
 * takes in the log up to it (catchUp): a writer reads their own writes through any instance, and everyone
 * else once the events arrive. Transactions read the
 * database itself, never the kept reads.
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
  /** Changes that void everything kept (see writeVersion). */
  #writes = 0
  readonly #kept = new TaggedCache(KEPT_MAX)
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
        if (!this.#catchUp) this.#writes++
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
   * Raised by every change that voids all kept reads: an event change-tags.ts does not name (such as
   * `store.changed`), or any commit while nobody follows the log (followEvents). Other writes void only
   * what their events name (watchChanges).
   */
  writeVersion(): number {
    return this.#writes
  }

  /**
   * From now on the event log delivers every event to eventArrived, and `catchUp` takes in the log up to a
   * seq: only then are reads kept, since only then does every write void what it changed. A store nobody
   * follows the log for (a command-line tool, a test of the store alone) reads the database every time.
   */
  followEvents(catchUp: (head: number) => Promise<void>): void {
    this.#catchUp = catchUp
  }

  watchChanges(watcher: (change: StoreChange) => void): void {
    this.#watchers.push(watcher)
  }

  /** Called for each event of the shared log as it reaches this instance, before its streams see it. */
  eventArrived(event: LoggedEvent): void {
    const tags = changeTags(event)
    if (tags === ALL) {
      this.#writes++
      this.#kept.clear()
    } else if (tags.length > 0) this.#kept.change(tags)
    else return
    for (const watcher of this.#watchers) watcher(tags)
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

  /** `read`'s answer, kept under `key` until a change to one of `tags(answer)`. */
  async #keep<T>(key: string, read: () => Promise<T>, tags: (answer: T) => readonly string[]): Promise<T> {
    if (!this.#catchUp) return read()
    const kept = this.#kept.get<T>(key)
    if (kept !== undefined) return kept
    const stamp = this.#kept.stamp()
    const answer = await read()
    this.#kept.set(key, answer, tags(answer), stamp)
    return answer
  }

  /**
   * `read`'s answer at `at` (an ISO time), kept until a change to `tag` or until `ends(answer)`, the
   * soonest end (ms) of a timed entry in it; an answer for an earlier `at` than the kept one is read afresh.
   */
  async #keepUntil<T>(key: string, at: string, read: () => Promise<T>, tag: string, ends: (answer: T) => number) {
    if (!this.#catchUp) return read()
    const when = Date.parse(at)
    const kept = this.#kept.get<{ answer: T; from: number; until: number }>(key)
    if (kept && when >= kept.from && when < kept.until) return kept.answer
    const stamp = this.#kept.stamp()
    const answer = await read()
    this.#kept.set(key, { answer, from: when, until: ends(answer) }, [tag], stamp)
    return answer
  }

  protected override feedAuthors(userId: string): Promise<string[]> {
    return this.#keep(
      `authors ${userId}`,
      () => super.feedAuthors(userId),
      () => [`follows:${userId}`],
    )
  }

  /**
   * A home feed's page is kept in two parts. Which posts, in which order: voided by a change to the
   * reader's follows or by a post of any of their authors; most liked first, also by a like that moves a
   * post from or to a count in the page's range (change-tags.ts, `likes-at`) and by any change to one
   * of the posts on it. Each post's record, kept on its own: voided by a change to that post alone, so a
   * like reads one record again, not the page.
   */
  override async listPosts(query: PostQuery): Promise<Page<PostRecord>> {
    const reader = query.feedOf
    if (reader === undefined || !this.#catchUp || (query.uncounted ?? []).length > 0) return super.listPosts(query)
    const authors = await this.feedAuthors(reader)
    const trending = query.sort === 'trending'
    const page = await this.#keep(
      `feed ${JSON.stringify(query)}`,
      () =>
        this.pageOfPosts(
          query,
          (sql) => sql`p.id, p.created_at, p.like_count`,
          (row) => ({ id: row.id, likes: row.like_count }),
        ),
      (page) => [
        `follows:${reader}`,
        ...authors.map((id) => `author:${id}`),
        ...(trending ? ['likes', ...page.items.map((item) => `post:${item.id}`), ...this.#likeRange(query, page)] : []),
      ],
    )
    return { items: await this.#records(page.items.map((item) => item.id)), nextCursor: page.nextCursor }
  }

  /**
   * The like counts a most-liked page covers, as `likes-at` tags: from its last post's (0 when it is the
   * last page: any post may fall into it) up to the count its cursor starts below (no end on page one).
   */
  #likeRange(query: PostQuery, page: Page<{ likes: number }>): string[] {
    const high = query.cursor === undefined ? Infinity : Number(readCursor(query.cursor, CURSOR.byLikes)[0])
    const low = page.nextCursor === null ? 0 : (page.items[page.items.length - 1]?.likes ?? 0)
    return likeBucketTags(low, high)
  }

  /** Posts by id, in order, each kept until a change to it; those not kept are read in one statement. */
  #records(ids: readonly string[]): Promise<PostRecord[]> {
    return this.#keepEach(
      'record',
      ids,
      (missing) => this.getPosts(missing),
      (id) => [`post:${id}`],
    )
  }

  /**
   * Records by id, in order, repeats given again and unknown ids left out: each kept on its own until a
   * change to `tags(id)`, those not kept read in one call of `read`.
   */
  async #keepEach<T extends { _id: string }>(
    kind: string,
    ids: readonly string[],
    read: (missing: readonly string[]) => Promise<T[]>,
    tags: (id: string) => readonly string[],
  ): Promise<T[]> {
    if (!this.#catchUp) return read(ids)
    const kept = ids.map((id) => this.#kept.get<T>(`${kind} ${id}`))
    const missing = [...new Set(ids.filter((_, i) => kept[i] === undefined))]
    if (missing.length === 0) return kept as T[]
    const stamp = this.#kept.stamp()
    const found = new Map((await read(missing)).map((item) => [item._id, item]))
    for (const [id, item] of found) this.#kept.set(`${kind} ${id}`, item, tags(id), stamp)
    return ids.flatMap((id, i) => kept[i] ?? found.get(id) ?? [])
  }

  /** Reposts in a home feed, kept until a change to the reader's follows, to a repost by any of their authors, or to a post on the page. */
  override async listFeedReposts(userId: string, query: FeedRepostQuery) {
    const authors = await this.feedAuthors(userId)
    return this.#keep(
      `reposts ${userId} ${JSON.stringify(query)}`,
      () => super.listFeedReposts(userId, query),
      (page) => [
        `follows:${userId}`,
        ...authors.map((id) => `author:${id}`),
        ...page.items.map((item) => `post:${item.post._id}`),
      ],
    )
  }

  /** People's names and pictures, each kept until anyone's profile changes (`people`); repeated ids give repeated summaries. */
  override getUserSummaries(ids: readonly string[]): Promise<UserSummaryRecord[]> {
    return this.#keepEach(
      'summary',
      ids,
      (missing) => super.getUserSummaries(missing),
      () => ['people'],
    )
  }

  /** Kept until that token's logout; the token check reads the holder, and so takes in the log, first (services/auth.ts). */
  override isTokenRevoked(tokenId: string): Promise<boolean> {
    return this.#keep(
      `revoked ${tokenId}`,
      () => super.isTokenRevoked(tokenId),
      () => [`token:${tokenId}`],
    )
  }

  override likedAmong(userId: string, postIds: readonly string[]) {
    return this.#keep(
      `liked ${userId} ${postIds.join(',')}`,
      () => super.likedAmong(userId, postIds),
      () => [`liked-by:${userId}`, ...postIds.map((id) => `post:${id}`)],
    )
  }

  override repostedAmong(userId: string, postIds: readonly string[]) {
    return this.#keep(
      `reposted ${userId} ${postIds.join(',')}`,
      () => super.repostedAmong(userId, postIds),
      () => [`reposted-by:${userId}`, ...postIds.map((id) => `post:${id}`)],
    )
  }

  override relationsOf(userId: string, at: string): Promise<Relations> {
    return this.#keepUntil(
      `relations ${userId}`,
      at,
      () => super.relationsOf(userId, at),
      `relations:${userId}`,
      (relations) => soonestEnd(relations.muting.map((mute) => mute.until ?? null)),
    )
  }

  override listSuspended(at: string) {
    return this.#keepUntil(
      'suspended',
      at,
      () => super.listSuspended(at),
      'suspensions',
      (suspended) => soonestEnd(suspended.map((entry) => entry.until)),
    )
  }

  async ping(): Promise<void> {
    await this.sql`SELECT 1`
  }

  async close(): Promise<void> {
    await (await this.#jobsListening)?.unlisten().catch(() => {})
    await this.sql.end({ timeout: 5 })
  }
}
