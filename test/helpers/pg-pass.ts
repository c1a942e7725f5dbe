import postgres from 'postgres'
import t from 'tap'

/** Where the PostgreSQL pass runs: CHIRP_TEST_DATABASE_URL, or the database every CI machine has. */
export const PG_TEST_URL = process.env.CHIRP_TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test'

/** Whether PostgreSQL answers at `url`; the reason when it does not. */
export async function reachable(url: string): Promise<string | undefined> {
  const sql = postgres(url, { max: 1, connect_timeout: 3, onnotice: () => {} })
  try {
    await sql`select 1`
    return undefined
  } catch (error) {
    return (error as Error).message
  } finally {
    await sql.end({ timeout: 1 }).catch(() => {})
  }
}

/**
 * Runs a test file of the app's suite again, on PostgreSQL. Without a reachable server the pass is
 * skipped, saying why, except under CI, where it must run.
 */
export async function onPostgres(suite: () => Promise<unknown>): Promise<void> {
  const problem = await reachable(PG_TEST_URL)
  if (problem !== undefined) {
    if (process.env.CI) throw new Error(`the PostgreSQL pass must run under CI, but ${PG_TEST_URL} is unreachable: ${problem}`)
    t.plan(0, `PostgreSQL is unreachable at ${PG_TEST_URL} (${problem}); the PostgreSQL pass is skipped`)
    return
  }
  process.env.CHIRP_TEST_DATABASE_URL = PG_TEST_URL
  await suite()
}
