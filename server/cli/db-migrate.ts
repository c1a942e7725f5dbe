import { pathToFileURL } from 'node:url'
import { openMediaStorage } from '../media/index.js'
import { buildSeed } from '../seed/index.js'
import { createSql } from '../store/pg/connect.js'
import { migrate } from '../store/pg/migrate.js'
import { MIGRATIONS } from '../store/pg/migrations/index.js'
import { readDatabaseEnv, runCommand, type Output } from './database-env.js'

/**
 * `npm run db:migrate`: applies this release's migrations to DATABASE_URL's DATABASE_SCHEMA (default
 * public) and seeds an empty database, as a starting server would, and says what it did. Safe beside
 * running instances: they take turns on the same advisory lock.
 */
export async function runDbMigrate(env: Record<string, string | undefined>, out: Output): Promise<number> {
  return runCommand(
    'db:migrate',
    async () => {
      const { url, schema, media } = readDatabaseEnv(env)
      const sql = createSql({ url, poolMax: 1, schema })
      const storage = openMediaStorage(media)
      try {
        const result = await migrate(sql, { schema, seed: () => buildSeed(storage), log: { info: out.log } })
        const latest = Math.max(...MIGRATIONS.map((migration) => migration.version))
        if (result.applied.length === 0) out.log(`PostgreSQL schema "${schema}" is up to date (migration ${latest}).`)
        if (!result.seeded) out.log('The database already holds users: nothing seeded.')
        return 0
      } finally {
        storage.close()
        await sql.end({ timeout: 5 })
      }
    },
    out,
  )
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await runDbMigrate(process.env, { log: console.log, error: console.error })
}
