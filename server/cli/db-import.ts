import path from 'node:path'
import { parseArgs } from 'node:util'
import { pathToFileURL } from 'node:url'
import { readDatabaseFiles } from '../store/database-files.js'
import { createSql } from '../store/pg/connect.js'
import { migrate } from '../store/pg/migrate.js'
import { readDatabaseEnv, runCommand, type Output } from './database-env.js'

const USAGE = 'Usage: npm run db:import -- --from <data dir>   (DATABASE_URL and DATABASE_SCHEMA name the target)'

/**
 * `npm run db:import -- --from <data dir>`: copies an embedded database (a data directory the server is
 * not running on) into an empty PostgreSQL database, keeping every id, date, password hash and the
 * order of every list. Migrating and copying are one transaction, so a failure leaves nothing behind,
 * and a database that already holds users is refused.
 */
export async function runDbImport(
  args: string[],
  env: Record<string, string | undefined>,
  out: Output,
): Promise<number> {
  return runCommand(
    'db:import',
    async () => {
      const { values } = parseArgs({ args, options: { from: { type: 'string' } } })
      if (!values.from) {
        out.error(USAGE)
        return 1
      }
      const from = path.resolve(values.from)
      const { url, schema, media } = readDatabaseEnv(env)
      const database = await readDatabaseFiles(from)
      const sql = createSql({ url, poolMax: 1, schema })
      try {
        const result = await migrate(sql, { schema, seed: async () => database, log: { info: out.log } })
        if (!result.seeded) {
          out.error(
            `db:import: the PostgreSQL database (schema "${schema}") already holds users; it copies only into an empty one. ` +
              'Point DATABASE_URL or DATABASE_SCHEMA at an empty database, or empty this one first.',
          )
          return 1
        }
        const { users, posts, notifications, blocks, mutes, skipped } = result.seeded
        out.log(`Imported ${users} users, ${posts} posts and ${notifications} notifications from ${from}.`)
        const count = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`
        if (blocks + mutes > 0) out.log(`Imported ${count(blocks, 'block')} and ${count(mutes, 'mute')}.`)
        if (skipped > 0)
          out.log(`Left out ${skipped} references to users, posts or comments that do not exist, or repeated.`)
        const folder = path.join(from, 'media')
        out.log(
          media.s3
            ? `Media files were not copied: MEDIA_DIR=${folder} npm run media:migrate copies them into the bucket.`
            : `Media files were not copied: set MEDIA_DIR=${folder} (or copy that folder to where MEDIA_DIR points).`,
        )
        return 0
      } finally {
        await sql.end({ timeout: 5 })
      }
    },
    out,
  )
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await runDbImport(process.argv.slice(2), process.env, { log: console.log, error: console.error })
}
