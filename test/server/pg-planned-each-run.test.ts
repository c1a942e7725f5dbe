import t from 'tap'
import { onPostgres } from '../helpers/pg-pass.js'

/**
 * The pool prepares its statements, so PostgreSQL may keep one plan for each; the lists whose plan
 * depends on an array's length go unprepared (plannedEachRun), and are planned for their own
 * parameters every time.
 */
await onPostgres(async () => {
  const { TEST_DATABASE_URL, testSchema } = await import('../helpers/pg.js')
  const { createSql, plannedEachRun } = await import('../../server/store/pg/connect.js')

  // One connection, so the statements it prepared can be read back from it.
  const sql = createSql({ url: TEST_DATABASE_URL, poolMax: 1, schema: testSchema(t) })
  t.teardown(() => sql.end({ timeout: 5 }))
  const prepared = async (marker: string) => {
    const rows = await sql<{ n: number }[]>`
      SELECT count(*)::int AS n FROM pg_prepared_statements WHERE statement LIKE ${`%${marker} %`}`
    return rows[0]?.n
  }

  await t.test('prepared statements, and a list planned each run, on one connection', async (t) => {
    const ids = ['0b8f7c4e-6f0e-4c41-9d6b-3f1b2f0b6a01']
    for (let run = 0; run < 7; run++) {
      await sql`SELECT count(*) AS kept_plan FROM unnest(${ids}::uuid[])`
      await plannedEachRun(sql`SELECT count(*) AS each_run FROM unnest(${ids}::uuid[])`)
    }
    const [setting] = await sql<{ mode: string }[]>`SELECT current_setting('plan_cache_mode') AS mode`
    t.equal(setting?.mode, 'auto', 'PostgreSQL may keep a generic plan for a prepared statement')
    t.equal(await prepared('kept_plan'), 1, 'an ordinary query is prepared once and kept')
    t.equal(await prepared('each_run'), 0, 'a list planned each run leaves no prepared statement')
    const [row] = await plannedEachRun(sql<{ n: string }[]>`SELECT count(*) AS n FROM unnest(${ids}::uuid[])`)
    t.equal(row?.n, '1', 'and answers as usual')
  })
})
