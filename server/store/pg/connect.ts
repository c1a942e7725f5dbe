import postgres from 'postgres'
import { StartupError } from '../../errors.js'

/** The pool. */
export type Sql = postgres.Sql
/** What a query runs on: the pool, or the one connection of a transaction. */
export type Queryable = postgres.ISql

export interface SqlOptions {
  url: string
  poolMax: number
  /** Every table lives in this schema, so several databases' worth of Chirp (or tests) can share one database. */
  schema: string
}

/** Lower case, as PostgreSQL folds unquoted names, and short enough that it is never truncated. */
const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/

/** The schema name, or a StartupError saying what a valid one looks like. */
export function checkSchemaName(schema: string): string {
  if (!SCHEMA_NAME.test(schema)) {
    throw new StartupError(
      `DATABASE_SCHEMA must be 1 to 63 of a-z, 0-9 and _, not starting with a digit, got "${schema}"`,
    )
  }
  return schema
}

/**
 * A pool whose every connection starts in `schema` with bounded waits: a stuck statement, a held lock or a
 * transaction left open cannot hold up the instance for long. `synchronous_commit` keeps the server's
 * default (on): a write is acknowledged only once it is on disk. A backend terminated under a query or
 * a transaction fails that work alone: patches/postgres+3.4.9.patch keeps the driver from writing to
 * the dead socket (which threw outside any promise and ended the process), from running a cut
 * transaction's later statements on the reconnected connection outside it, and from failing the next
 * query with the old backend's error.
 */
export function createSql({ url, poolMax, schema }: SqlOptions): Sql {
  checkSchemaName(schema)
  return postgres(url, {
    max: poolMax,
    // A health check against a database that is down should answer within a load balancer's patience.
    connect_timeout: 10,
    onnotice: () => {},
    connection: {
      application_name: 'chirp',
      search_path: schema,
      statement_timeout: 5000,
      lock_timeout: 2000,
      idle_in_transaction_session_timeout: 10000,
    },
  })
}

/**
 * Plans `query` for its own parameters every time it runs: it goes as an unnamed statement, where the
 * pool's statements are prepared once per connection and PostgreSQL may settle on one generic plan for
 * them after five runs. For the lists whose best path depends on an array's length (the authors of a
 * home feed, the people whose likes are not counted): a generic plan takes no account of it and can pick
 * a slow path. Everything else keeps its prepared plan: planning every statement again (the pool once ran
 * with plan_cache_mode force_custom_plan) held one instance to 877 likes a second, against 1,467 with
 * prepared plans. The driver reads a query's own `prepare` option (patches/postgres+3.4.9.patch pins it).
 */
export function plannedEachRun<T extends readonly postgres.Row[]>(
  query: postgres.PendingQuery<T>,
): postgres.PendingQuery<T> {
  ;(query as unknown as { options: { prepare?: boolean } }).options.prepare = false
  return query
}

/**
 * Stops the pool asking each new connection for the database's array types once one connection has.
 * postgres.js keeps the answer for the whole pool, but asks again on every connection it opens, in a
 * promise nothing waits on: a connection that breaks during that query (the database restarting, the
 * network dropping) rejected it unhandled, and that ended the process. Call it after a first query.
 */
export function keepFetchedTypes(sql: Sql): void {
  sql.options.fetch_types = false
}
