import t from 'tap'
import { skipWithoutPostgres, TEST_DATABASE_URL } from './pg.js'

/**
 * Runs a test file of the app's suite again, on PostgreSQL. Without a reachable server the pass is
 * skipped, saying why, except under CI, where it must run.
 */
export async function onPostgres(suite: () => Promise<unknown>): Promise<void> {
  const skip = await skipWithoutPostgres()
  if (skip) {
    t.plan(0, `${skip}; the PostgreSQL pass is skipped`)
    return
  }
  process.env.CHIRP_TEST_DATABASE_URL = TEST_DATABASE_URL
  await suite()
}
