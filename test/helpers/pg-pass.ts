import t from 'tap'
import { skipWithoutPostgres, TEST_DATABASE_URL } from './pg.js'

/**
 * Runs tests that hold only on PostgreSQL (several instances on one database, a connection cut), with
 * every app they build on it. Without a reachable server they are skipped, saying why, except under CI,
 * where they must run. A file that holds on either store is named in test/suite/postgres-pass.ts instead.
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
