import { randomBytes } from 'node:crypto'
import { mkdtemp, readdir, readFile } from 'node:fs/promises'
import { rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import postgres from 'postgres'
import type { Config } from '../../server/config.js'
import { createLocalMediaStorage } from '../../server/media/local-media-storage.js'
import type { MediaStorage } from '../../server/media/media-storage.js'
import { buildSeed } from '../../server/seed/index.js'
import type { Database } from '../../server/store/types.js'

/**
 * Which store the app tests run on. CHIRP_TEST_DATABASE_URL switches every app a test builds to
 * PostgreSQL, each app in a schema of its own, dropped when the test ends; without it, the embedded store.
 */
export const testDatabaseUrl = process.env.CHIRP_TEST_DATABASE_URL || undefined

/** The store the suite runs on, as GET /api/health names it. */
export const testStoreKind = testDatabaseUrl === undefined ? 'lowdb' : 'postgres'

/** A test's skip option for what only the embedded store has (db.json, its lock, its secret file). */
export const embeddedOnly = testDatabaseUrl === undefined ? false : 'the embedded store only'
/** A test's skip option for what needs PostgreSQL (a second instance on one database, a secret kept in it). */
export const postgresOnly = testDatabaseUrl === undefined ? 'PostgreSQL only' : false

/** Runs `work` with a connection to the schema's database, for what a test does behind the app's back. */
export async function withSql<T>(schema: string, work: (sql: postgres.Sql) => Promise<T>): Promise<T> {
  if (testDatabaseUrl === undefined) throw new Error('not on PostgreSQL')
  const sql = postgres(testDatabaseUrl, { max: 1, onnotice: () => {}, connection: { search_path: schema } })
  try {
    return await work(sql)
  } finally {
    await sql.end()
  }
}

export interface StoreUnderTest {
  config: Partial<Config>
  /** Drops what the app left behind; after the app has closed. */
  cleanup(): Promise<void>
}

/**
 * The schemas this process made, each migrated once and used again by the apps that follow: an app
 * takes a free one (seeded as it starts, since it is empty) and gives it back emptied when the last
 * app on it has closed. What is left is dropped when the process ends.
 */
const freeSchemas: string[] = []
const appsOn = new Map<string, number>()
let poolSql: postgres.Sql | undefined

function poolConnection(url: string): postgres.Sql {
  if (poolSql) return poolSql
  // Closed when idle, so that it does not keep the process alive to its end, where it drops the schemas.
  const sql = postgres(url, { max: 1, idle_timeout: 1, onnotice: () => {} })
  poolSql = sql
  process.once('beforeExit', () => {
    const made = [...freeSchemas, ...appsOn.keys()]
    void Promise.all(made.map((schema) => sql`DROP SCHEMA IF EXISTS ${sql(schema)} CASCADE`)).finally(() => sql.end())
  })
  return sql
}

/** Every row of every table gone and every sequence back at its start: as a new schema, but migrated. */
async function emptySchema(sql: postgres.Sql, schema: string): Promise<void> {
  const tables = await sql<{ name: string }[]>`
    select table_name as name from information_schema.tables
    where table_schema = ${schema} and table_type = 'BASE TABLE' and table_name <> 'schema_migrations'`
  const sequences = await sql<{ name: string }[]>`
    select sequence_name as name from information_schema.sequences where sequence_schema = ${schema}`
  if (tables.length > 0)
    await sql`TRUNCATE TABLE ${sql(tables.map(({ name }) => `${schema}.${name}`))} RESTART IDENTITY CASCADE`
  for (const { name } of sequences) await sql`ALTER SEQUENCE ${sql(`${schema}.${name}`)} RESTART`
}

/** With `sharedSchema`, the app joins another app's schema, which is emptied once both have closed. */
export function storeUnderTest(sharedSchema?: string): StoreUnderTest {
  const url = testDatabaseUrl
  if (url === undefined) return { config: {}, cleanup: async () => {} }
  const sql = poolConnection(url)
  const free = sharedSchema === undefined ? -1 : freeSchemas.indexOf(sharedSchema)
  // A schema given back already (its apps closed at the end of an earlier test) is taken anew.
  if (free >= 0) freeSchemas.splice(free, 1)
  const schema = sharedSchema ?? freeSchemas.pop() ?? `t_${randomBytes(6).toString('hex')}`
  appsOn.set(schema, (appsOn.get(schema) ?? 0) + 1)
  return {
    config: { databaseUrl: url, databaseSchema: schema, databasePoolMax: 4 },
    cleanup: async () => {
      const left = (appsOn.get(schema) ?? 1) - 1
      if (left > 0) return void appsOn.set(schema, left)
      appsOn.delete(schema)
      await emptySchema(sql, schema)
      freeSchemas.push(schema)
    },
  }
}

/** Every table's rows, hashed, but those of live streams: equal snapshots prove a refused request changed nothing. */
export async function snapshotSchema(url: string, schema: string): Promise<Record<string, string>> {
  const sql = postgres(url, { max: 1, onnotice: () => {} })
  try {
    const tables = await sql<{ name: string }[]>`
      select table_name as name from information_schema.tables
      where table_schema = ${schema} and table_name not in ('sse_tickets', 'event_streams', 'schema_migrations')
      order by table_name`
    const snapshot: Record<string, string> = {}
    for (const { name } of tables) {
      const [row] = await sql<{ digest: string | null }[]>`
        select md5(string_agg(r::text, '|' order by r::text)) as digest from ${sql(schema)}.${sql(name)} r`
      snapshot[name] = row?.digest ?? 'empty'
    }
    return snapshot
  } finally {
    await sql.end()
  }
}

/** Every row of every table as text: for checks of what is stored, such as a hash and never a plaintext password. */
export async function schemaText(url: string, schema: string): Promise<string> {
  const sql = postgres(url, { max: 1, onnotice: () => {} })
  try {
    const tables = await sql<{ name: string }[]>`
      select table_name as name from information_schema.tables where table_schema = ${schema} order by table_name`
    const texts: string[] = []
    for (const { name } of tables) {
      const rows = await sql<{ row: string }[]>`select r::text as row from ${sql(schema)}.${sql(name)} r`
      texts.push(...rows.map((r) => r.row))
    }
    return texts.join('\n')
  } finally {
    await sql.end()
  }
}

/**
 * scrypt's cost in every app and seed the tests build: N = 16 rather than production's 16384, since the
 * suite hashes and checks thousands of passwords. config.test.ts checks that the default stays 2^14.
 */
export const TEST_PASSWORD_HASH_COST = 4

let template: Promise<{ database: Database; mediaDir: string }> | undefined

/**
 * The demo seed, built once per test process: seeding hashes six passwords, which costs more than most
 * tests. Each app gets its own copy of the records and of the images, under the same ids, in whichever
 * storage (a folder or a bucket) it keeps uploads.
 */
export async function cachedSeed(media: MediaStorage): Promise<Database> {
  template ??= (async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'chirp-seed-'))
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }))
    return {
      database: await buildSeed(createLocalMediaStorage(dir), { passwordHashCost: TEST_PASSWORD_HASH_COST }),
      mediaDir: dir,
    }
  })()
  const { database, mediaDir: from } = await template
  for (const name of await readdir(from)) await media.put(name, await readFile(path.join(from, name)))
  return structuredClone(database)
}
