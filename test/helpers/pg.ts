import { randomBytes } from 'node:crypto'
import postgres from 'postgres'
import type { TestContext } from './app.js'

/** The database the PostgreSQL tests use; each test file works in schemas of its own inside it. */
export const TEST_DATABASE_URL = process.env.CHIRP_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'

/**
 * tap's `skip` option for a PostgreSQL test: false when the database answers, else why not. In CI an
 * unreachable database is a failure, not a skip, so a broken service cannot pass unnoticed.
 */
export async function skipWithoutPostgres(): Promise<false | string> {
  const sql = postgres(TEST_DATABASE_URL, { max: 1, connect_timeout: 3, onnotice: () => {} })
  try {
    await sql`SELECT 1`
    return false
  } catch (error) {
    const reason = `PostgreSQL is unreachable at ${TEST_DATABASE_URL}: ${(error as Error).message}`
    if (process.env.CI) throw new Error(reason)
    return reason
  } finally {
    await sql.end({ timeout: 1 })
  }
}

/** A schema name of this test's own, dropped with everything in it when the test ends. */
export function testSchema(t: TestContext): string {
  const schema = `t_${randomBytes(6).toString('hex')}`
  t.teardown(() => dropSchema(schema))
  return schema
}

/**
 * Drops a test's schema. Several test processes drop their schemas at once, and PostgreSQL may pick one
 * of two concurrent `DROP SCHEMA … CASCADE`s as a deadlock's victim (40P01): that one tries again.
 */
export async function dropSchema(schema: string, url = TEST_DATABASE_URL): Promise<void> {
  const sql = postgres(url, { max: 1, onnotice: () => {} })
  try {
    for (let attempt = 1; ; attempt++) {
      try {
        await sql`DROP SCHEMA IF EXISTS ${sql(schema)} CASCADE`
        return
      } catch (error) {
        if ((error as { code?: string }).code !== '40P01' || attempt === 5) throw error
        await new Promise((resolve) => setTimeout(resolve, 50 + Math.random() * 200 * attempt))
      }
    }
  } finally {
    await sql.end({ timeout: 5 })
  }
}

/** A plain connection to the test database with `schema` first on its path, closed when the test ends. */
export function schemaSql(t: TestContext, schema: string): postgres.Sql {
  const sql = postgres(TEST_DATABASE_URL, { max: 2, onnotice: () => {}, connection: { search_path: schema } })
  t.teardown(() => sql.end({ timeout: 5 }))
  return sql
}
