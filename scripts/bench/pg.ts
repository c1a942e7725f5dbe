import { randomBytes } from 'node:crypto'
import postgres from 'postgres'
import { BENCH_PASSWORD } from '../seed-large/people.js'
import { login, type Session } from './api.js'
import { postTaker, type BenchBase } from './context.js'
import { seedSchema } from './dataset.js'
import { startChirp, type Running } from './processes.js'

/** Streams of the cross-instance delivery leg, all on the first instance. */
export const PG_STREAMS = 1000

/**
 * Two schemas with the same people (the same seed draws the same users and follows first) and
 * different numbers of posts, and the servers on them: one on the large schema, two on the small one.
 */
export interface PgBench {
  version: string
  /** The database both schemas are in. */
  url: string
  large: { schema: string; few: Session; many: Session; popular: Session; writer: Session }
  small: { schema: string; few: Session; many: Session; writer: Session }
  /** A second instance on the small schema: the one cross-instance writes go through. */
  second: { writer: Session }
  /** Posts of the small schema the writer has not liked, as Bench.takePosts. */
  takePosts: (count: number) => string[]
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]'])

/** The benchmark creates, loads and drops schemas of its own: only ever in a database on this machine. */
export function checkBenchDatabase(url: string): string {
  let host: string
  try {
    host = new URL(url).hostname
  } catch {
    throw new Error('DATABASE_URL must be a postgres:// URL')
  }
  if (!/^postgres(ql)?:$/.test(new URL(url).protocol) || !LOOPBACK.has(host)) {
    throw new Error(
      `the PostgreSQL legs run only against a database on 127.0.0.1; DATABASE_URL names ${host || 'no host'}`,
    )
  }
  return url
}

/** Schemas this run made, dropped at the end whatever happens (servers first: they hold connections). */
export class BenchSchemas {
  readonly names: string[] = []
  readonly #run = randomBytes(4).toString('hex')

  constructor(readonly url: string) {}

  name(label: string): string {
    const name = `chirp_bench_${this.#run}_${label}`
    this.names.push(name)
    return name
  }

  async drop(): Promise<void> {
    if (this.names.length === 0) return
    const sql = postgres(this.url, { max: 1, onnotice: () => {} })
    try {
      for (const name of this.names.splice(0)) await sql`DROP SCHEMA IF EXISTS ${sql(name)} CASCADE`
    } finally {
      await sql.end({ timeout: 5 })
    }
  }
}

async function serverVersion(url: string): Promise<string> {
  const sql = postgres(url, { max: 1, onnotice: () => {} })
  try {
    const [row] = await sql<{ version: string }[]>`SELECT current_setting('server_version') AS version`
    return row?.version ?? 'unknown'
  } finally {
    await sql.end({ timeout: 5 })
  }
}

/**
 * The writer's unliked posts in `schema`, read the way the embedded legs read them from their data set
 * (oldest first); with `newest`, only that many of the newest, newest first.
 */
export async function unlikedPosts(url: string, schema: string, newest?: number): Promise<string[]> {
  const sql = postgres(url, { max: 1, onnotice: () => {}, connection: { search_path: schema } })
  try {
    const rows = await sql<{ id: string }[]>`
      SELECT p.id FROM posts p
      WHERE NOT EXISTS (
        SELECT 1 FROM post_reactions r JOIN users u ON u.id = r.user_id
        WHERE r.post_id = p.id AND r.liked AND u.username = 'bench_writer')
      ${newest === undefined ? sql`ORDER BY p.created_at, p.id` : sql`ORDER BY p.created_at DESC, p.id DESC LIMIT ${newest}`}`
    return rows.map((row) => row.id)
  } finally {
    await sql.end({ timeout: 5 })
  }
}

/**
 * Loads both schemas with `npm run seed:large` and starts the production server three times on them,
 * each on its own port, as a load balancer would see them. Every server goes into `running`.
 */
export async function preparePostgres(bench: BenchBase, schemas: BenchSchemas, running: Running[]): Promise<PgBench> {
  const { settings, log } = bench
  const url = schemas.url
  const large = schemas.name('large')
  const small = schemas.name('small')
  log(`PostgreSQL: loading ${settings.pgUsers} users and ${settings.pgPosts} posts into ${large}`)
  await seedSchema(url, large, settings.pgUsers, settings.pgPosts)
  log(`PostgreSQL: loading ${settings.pgUsers} users and ${settings.posts} posts into ${small}`)
  await seedSchema(url, small, settings.pgUsers, settings.posts)

  const start = async (schema: string, env: Record<string, string> = {}) => {
    const server = await startChirp({
      dataDir: await bench.scratch.dir(schema),
      jwtSecret: bench.jwtSecret,
      openFiles: bench.openFiles,
      env: { DATABASE_URL: url, DATABASE_SCHEMA: schema, ...env },
    })
    running.push(server)
    return server
  }
  const onLarge = await start(large)
  const onSmall = await start(small, { EVENTS_MAX_STREAMS_PER_USER: String(PG_STREAMS + 100) })
  const second = await start(small)
  const session = (server: Running, username: string) => login(server.url, username, BENCH_PASSWORD)
  return {
    version: await serverVersion(url),
    url,
    large: {
      schema: large,
      few: await session(onLarge, 'bench_few'),
      many: await session(onLarge, 'bench_many'),
      popular: await session(onLarge, 'bench_popular'),
      writer: await session(onLarge, 'bench_writer'),
    },
    small: {
      schema: small,
      few: await session(onSmall, 'bench_few'),
      many: await session(onSmall, 'bench_many'),
      writer: await session(onSmall, 'bench_writer'),
    },
    second: { writer: await session(second, 'bench_writer') },
    takePosts: postTaker(await unlikedPosts(url, small)),
  }
}
