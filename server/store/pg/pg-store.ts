import type { Database, Store, StoreTx } from '../types.js'
import { createSql, keepFetchedTypes, type Sql } from './connect.js'
import { migrate } from './migrate.js'
import { PgReader } from './pg-reader.js'
import { PgTx } from './pg-tx.js'

export interface PgStoreOptions {
  url: string
  poolMax: number
  schema: string
  /** Fills an empty database, as the embedded store seeds a new data directory. */
  seed: () => Promise<Database>
  log?: { info(msg: string): void; warn(obj: object, msg: string): void }
}

/** Serialization failure and deadlock: the transaction lost a race and may simply run again. */
const RETRYABLE = new Set(['40001', '40P01'])
const RETRIES = 3

const isRetryable = (error: unknown) =>
  typeof error === 'object' && error !== null && RETRYABLE.has(String((error as { code?: unknown }).code))

/**
 * The store on PostgreSQL, for several instances sharing one database. Reads rebuild the embedded
 * store's records; a transaction is one database transaction (READ COMMITTED) whose operations each
 * check and change on locked rows, and whose events land in the outbox in the same commit.
 */
export class PgStore extends PgReader implements Store {
  readonly kind = 'postgres'
  /**
   * Awaited after a transaction that emitted events has committed, before it resolves: the event log
   * uses it to deliver those events to this instance's streams first, so an acknowledged write's event
   * is already on the writer's own streams, as with the embedded store.
   */
  afterEvents: (upTo: number) => Promise<void> = async () => {}
  /** This instance's commits and the events of the shared log it has received (see writeVersion). */
  #writes = 0

  private constructor(
    override readonly sql: Sql,
    readonly schema: string,
    private readonly log: PgStoreOptions['log'],
  ) {
    super(sql)
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
        let newestEvent = 0
        // begin() types its result for pipelined query arrays; `work` resolves to plain data.
        const result = (await this.sql.begin(async (sql) => {
          const tx = new PgTx(sql)
          const result = await work(tx)
          newestEvent = await tx.writeEvents()
          return result
        })) as T
        this.#writes++
        if (newestEvent > 0) await this.afterEvents(newestEvent)
        return result
      } catch (error) {
        if (attempt >= RETRIES || !isRetryable(error)) throw error
        this.log?.warn({ err: error, attempt: attempt + 1 }, 'PostgreSQL transaction lost a race; running it again')
      }
    }
  }

  /** This instance's own commits count at once; another instance's when their events arrive (eventArrived). */
  writeVersion(): number {
    return this.#writes
  }

  /** Called for each event of the shared log as it reaches this instance, before its streams see it. */
  eventArrived(): void {
    this.#writes++
  }

  async ping(): Promise<void> {
    await this.sql`SELECT 1`
  }

  async close(): Promise<void> {
    await this.sql.end({ timeout: 5 })
  }
}
