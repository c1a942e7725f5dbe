import { createHash } from 'node:crypto'
import { StartupError } from '../../errors.js'
import type { Database } from '../types.js'
import { checkSchemaName, type Queryable, type Sql } from './connect.js'
import { MIGRATIONS, type Migration } from './migrations/index.js'
import { writeDatabase, type WriteSummary } from './write-database.js'

export interface MigrateOptions {
  schema: string
  /** Fills a database that has no users yet; absent, an empty database stays empty. */
  seed?: () => Promise<Database>
  log?: { info(msg: string): void }
  /** The migrations this release knows; tests pass their own. */
  migrations?: readonly Migration[]
}

export interface MigrateResult {
  /** Versions applied by this call, in order. */
  applied: number[]
  /** What the seed wrote, when this call seeded the database. */
  seeded: WriteSummary | undefined
}

export const checksumOf = (migration: Migration) => createHash('sha256').update(migration.sql).digest('hex')

/** Migrations, seeding and imports of one schema take turns; other schemas (other tests) go on meanwhile. */
export async function lockSchema(sql: Queryable, schema: string): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(hashtext('chirp.schema'), hashtext(${schema}))`
}

interface AppliedRow {
  version: number
  name: string
  checksum: string
}

function refuseUnknown(schema: string, applied: readonly AppliedRow[], known: readonly Migration[]): void {
  const byVersion = new Map(known.map((migration) => [migration.version, migration]))
  for (const row of applied) {
    const migration = byVersion.get(row.version)
    if (!migration) {
      throw new StartupError(
        `The database schema "${schema}" has migration ${row.version} (${row.name}) applied, which this release of Chirp ` +
          'does not know: a newer release migrated it. Run that release, or restore a backup taken before it.',
      )
    }
    if (checksumOf(migration) !== row.checksum) {
      throw new StartupError(
        `Migration ${row.version} (${row.name}) applied to the database schema "${schema}" differs from this release's ` +
          'copy of it (checksum mismatch): the schema was changed by another build. Refusing to start rather than guess.',
      )
    }
  }
}

/**
 * Brings `schema` up to this release, in one transaction under an advisory lock: instances starting
 * together wait for the first, then find nothing to do. Forward only: a database migrated by a newer
 * release, or whose applied migrations were edited, is refused with a StartupError. Then an empty
 * database is seeded, inside the same transaction, so no instance ever sees a half-seeded one.
 */
export async function migrate(sql: Sql, options: MigrateOptions): Promise<MigrateResult> {
  const schema = checkSchemaName(options.schema)
  const migrations = options.migrations ?? MIGRATIONS
  return sql.begin(async (tx) => {
    // Waiting on another instance's migration or seed, or an import, may take longer than a request would;
    // and an import writes more in one statement than a request's timeout allows.
    await tx`SELECT set_config('lock_timeout', '300s', true), set_config('statement_timeout', '0', true)`
    await lockSchema(tx, schema)
    await tx`CREATE SCHEMA IF NOT EXISTS ${tx(schema)}`
    await tx`SELECT set_config('search_path', ${schema}, true)`
    await tx`
      CREATE TABLE IF NOT EXISTS schema_migrations (
        version int PRIMARY KEY, name text NOT NULL, checksum text NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT now())`
    const applied = await tx<AppliedRow[]>`SELECT version, name, checksum FROM schema_migrations ORDER BY version`
    refuseUnknown(schema, applied, migrations)

    const done = new Set(applied.map((row) => row.version))
    const result: MigrateResult = { applied: [], seeded: undefined }
    for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
      if (done.has(migration.version)) continue
      await tx.unsafe(migration.sql)
      await migration.backfill?.(tx)
      await tx`
        INSERT INTO schema_migrations (version, name, checksum)
        VALUES (${migration.version}, ${migration.name}, ${checksumOf(migration)})`
      options.log?.info(`PostgreSQL schema "${schema}": applied migration ${migration.version} (${migration.name})`)
      result.applied.push(migration.version)
    }

    if (options.seed) {
      const [state] = await tx<{ empty: boolean }[]>`SELECT NOT EXISTS (SELECT 1 FROM users) AS empty`
      if (state?.empty) {
        result.seeded = await writeDatabase(tx, await options.seed())
        options.log?.info(
          `PostgreSQL schema "${schema}": wrote ${result.seeded.users} users and ${result.seeded.posts} posts into the empty database`,
        )
      }
    }
    return result
  })
}
