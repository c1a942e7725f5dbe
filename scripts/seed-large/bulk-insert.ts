import type { Queryable } from '../../server/store/pg/connect.js'

/** A jsonb column takes an object (a suspension, a poll), sent as its JSON. */
type Value = string | number | boolean | null | readonly string[] | { readonly [key: string]: unknown }
export type Row = Record<string, Value>

/** Rows a statement carries: big enough that a statement's round trip is noise, small enough to stay a few MB. */
const BATCH_ROWS = 20_000
/**
 * Statements sent but not yet answered. They are pipelined on the transaction's one connection, so
 * PostgreSQL inserts one batch while the generator builds the next, and memory stays bounded.
 */
const IN_FLIGHT = 3

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`
/** An array column's value as PostgreSQL reads an array from text: every element quoted. */
const arrayLiteral = (items: readonly string[]) =>
  `{${items.map((item) => `"${item.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`).join(',')}}`

function asText(value: Value): string | null {
  if (value === null) return null
  if (typeof value === 'boolean') return value ? 't' : 'f'
  if (Array.isArray(value)) return arrayLiteral(value as readonly string[])
  if (typeof value === 'object') return JSON.stringify(value)
  return String(value)
}

/**
 * Generated rows into a schema's tables, each batch one `INSERT … SELECT FROM unnest(…)` with every
 * column a single text-array parameter, each value cast from text to the column's own type as the
 * catalog reports it (an array column's values are array literals).
 * Against COPY from postgres.js this measured as fast here, and a rejected row fails its statement
 * with PostgreSQL's message instead of leaving a COPY stream that never finishes (postgres.js 3.4
 * does not settle a COPY that fails after its end).
 */
export class BulkInserter {
  readonly #batches = new Map<string, Row[]>()
  readonly #statements = new Map<string, { text: string; columns: string[] }>()
  readonly #inFlight: Promise<unknown>[] = []

  private constructor(
    private readonly sql: Queryable,
    private readonly schema: string,
    private readonly types: ReadonlyMap<string, ReadonlyMap<string, string>>,
  ) {}

  static async open(sql: Queryable, schema: string, tables: readonly string[]): Promise<BulkInserter> {
    const rows = await sql<{ table: string; column: string; type: string }[]>`
      SELECT c.relname AS table, a.attname AS column, format_type(a.atttypid, a.atttypmod) AS type
      FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
      WHERE c.relnamespace = ${schema}::regnamespace AND c.relname = ANY(${tables as string[]})
        AND a.attnum > 0 AND NOT a.attisdropped`
    const types = new Map<string, Map<string, string>>()
    for (const { table, column, type } of rows) {
      const columns = types.get(table) ?? new Map<string, string>()
      columns.set(column, type)
      types.set(table, columns)
    }
    return new BulkInserter(sql, schema, types)
  }

  /** Queues rows for `table`, sending every full batch; waits while too many statements are unanswered. */
  async add(table: string, rows: readonly Row[]): Promise<void> {
    let batch = this.#batches.get(table)
    if (!batch) this.#batches.set(table, (batch = []))
    for (const row of rows) {
      batch.push(row)
      if (batch.length >= BATCH_ROWS) {
        this.#send(table, batch)
        batch = []
        this.#batches.set(table, batch)
      }
    }
    while (this.#inFlight.length > IN_FLIGHT) await this.#settleOldest()
  }

  /** Sends what is left and waits for every statement; the first failure is the one thrown. */
  async finish(): Promise<void> {
    for (const [table, batch] of this.#batches) if (batch.length > 0) this.#send(table, batch)
    this.#batches.clear()
    while (this.#inFlight.length > 0) await this.#settleOldest()
  }

  async #settleOldest(): Promise<void> {
    const oldest = this.#inFlight.shift()
    try {
      await oldest
    } catch (error) {
      // Statements behind a failed one fail too (the transaction is aborted): wait for them, report the first.
      await Promise.allSettled(this.#inFlight.splice(0))
      throw error
    }
  }

  #send(table: string, rows: readonly Row[]): void {
    const first = rows[0]
    if (!first) return
    const { text, columns } = this.#statement(table, Object.keys(first))
    const parameters = columns.map((column) =>
      this.sql.array(
        rows.map((row) => asText(row[column] ?? null)),
        25,
      ),
    )
    const pending = this.sql.unsafe(text, parameters)
    // Awaited in order by #settleOldest; until then a rejection must not count as unhandled.
    pending.catch(() => {})
    this.#inFlight.push(pending)
  }

  #statement(table: string, columns: string[]): { text: string; columns: string[] } {
    const key = `${table}(${columns.join(',')})`
    let statement = this.#statements.get(key)
    if (!statement) {
      const types = this.types.get(table)
      if (!types) throw new Error(`table ${table} does not exist in schema ${this.schema}`)
      const casts = columns.map((column, i) => {
        const type = types.get(column)
        if (!type) throw new Error(`table ${table} has no column ${column}`)
        return `c${i}::${type}`
      })
      const text =
        `INSERT INTO ${quoted(this.schema)}.${quoted(table)} (${columns.map(quoted).join(', ')}) ` +
        `SELECT ${casts.join(', ')} FROM unnest(${columns.map((_, i) => `$${i + 1}::text[]`).join(', ')}) ` +
        `AS t (${columns.map((_, i) => `c${i}`).join(', ')})`
      statement = { text, columns }
      this.#statements.set(key, statement)
    }
    return statement
  }
}
