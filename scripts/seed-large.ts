import { access, mkdir } from 'node:fs/promises'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { readDatabaseEnv } from '../server/cli/database-env.js'
import { DEFAULT_PASSWORD_HASH_COST, hashPassword } from '../server/services/passwords.js'
import { lockDataDir } from '../server/store/lock.js'
import { writeDatabaseFiles } from '../server/store/database-files.js'
import type { Database } from '../server/store/types.js'
import { BENCH_PASSWORD, NAMED_ACCOUNTS, generatePeople, toUserRecord, type People } from './seed-large/people.js'
import { NotificationMaker } from './seed-large/notifications.js'
import { generatePosts } from './seed-large/posts.js'
import { loadPostgres, loaderSql, prepareSchema } from './seed-large/postgres.js'
import { ProgressBar } from './seed-large/progress.js'
import { seededRandom } from './seed-large/random.js'

/** The embedded store holds the whole database in memory, so its default is the benchmark's size, not PostgreSQL's. */
const DEFAULTS = {
  embedded: { users: 2_000, posts: 10_000 },
  postgres: { users: 20_000, posts: 1_000_000 },
}

const USAGE = `Usage: npm run seed:large -- [--users N] [--posts M] [--seed S] [--audiences] [--force]

Generates N users in a power-law follow graph and M posts with likes, comments, mentions and bookmarks,
and the notifications they made for the named accounts; the same --seed gives the same data. With
--audiences a third of the posts are not public (half unlisted, half for followers only), and the data
is otherwise the same.
- Without DATABASE_URL: into the embedded store in DATA_DIR (default ./data); by default
  ${DEFAULTS.embedded.users} users and ${DEFAULTS.embedded.posts} posts. An existing database is left alone unless --force is given.
- With DATABASE_URL: into the PostgreSQL schema DATABASE_SCHEMA (default public), migrated first and not
  seeded with the demo data; by default ${DEFAULTS.postgres.users} users and ${DEFAULTS.postgres.posts} posts. A schema that holds users
  is left alone unless --force is given, which drops the schema with everything in it first.
Accounts: ${NAMED_ACCOUNTS.map((a) => a.username).join(', ')} and the generated ones, all with the password
"${BENCH_PASSWORD}" but guest's, "guestpassword".`

function count(name: string, raw: string, min: number): number {
  const value = Number(raw)
  if (!Number.isInteger(value) || value < min)
    throw new Error(`--${name} must be a whole number of at least ${min}\n\n${USAGE}`)
  return value
}

async function exists(file: string): Promise<boolean> {
  return access(file).then(
    () => true,
    () => false,
  )
}

interface Options {
  users: number
  posts: number
  seed: number
  audiences: boolean
  force: boolean
}

/** The draws of the posts' audiences, apart from the data's own so that they change nothing else. */
const audienceDraws = (options: Options) => (options.audiences ? seededRandom(options.seed ^ 0x5eed) : undefined)

/** scrypt costs ~50 ms a hash on purpose; thousands would take minutes. */
async function passwordHashes(progress: ProgressBar): Promise<(username: string) => string> {
  progress.start('passwords', 2)
  // Every generated account shares one hash (and so one salt) of one password: fine for a local data set, never for real accounts.
  const shared = await hashPassword(BENCH_PASSWORD, DEFAULT_PASSWORD_HASH_COST)
  progress.tick()
  const guest = await hashPassword('guestpassword', DEFAULT_PASSWORD_HASH_COST)
  progress.finish()
  return (username) => (username === 'guest' ? guest : shared)
}

const userRecords = (people: People, hashOf: (username: string) => string) =>
  people.users.map((user, i) => toUserRecord(user, hashOf(user.username), i))

async function intoDataDir(options: Options, progress: ProgressBar): Promise<string> {
  const dataDir = path.resolve(process.env.DATA_DIR || './data')
  const file = path.join(dataDir, 'db.json')
  if (!options.force && (await exists(file))) {
    throw new Error(`${file} already exists; pass --force to replace it with a generated database`)
  }
  // media/ too, as a seeded server has it: uploads land there and the server serves it from the start.
  await mkdir(path.join(dataDir, 'media'), { recursive: true })
  // A running server holds this lock: replacing its files under it would lose its writes.
  const unlock = lockDataDir(dataDir)
  try {
    const random = seededRandom(options.seed)
    const now = Date.now()
    const people = generatePeople(random, options.users, now, progress)
    const posts = generatePosts(random, people, options.posts, now, progress, audienceDraws(options))
    const told = new NotificationMaker(options.seed, people.users, now)
    const notifications = [...told.ofFollows(people.users), ...posts.flatMap((post) => told.ofPost(post))]
    const users = userRecords(people, await passwordHashes(progress))
    const database: Database = { version: 1, users, posts, notifications }
    progress.start('writing', 1)
    await writeDatabaseFiles(dataDir, database)
    progress.finish()
    return dataDir
  } finally {
    unlock()
  }
}

async function intoPostgres(options: Options, progress: ProgressBar): Promise<string> {
  const { url, schema } = readDatabaseEnv(process.env)
  const target = { url, schema, force: options.force }
  const sql = loaderSql(target)
  try {
    await prepareSchema(sql, target)
    const random = seededRandom(options.seed)
    const now = Date.now()
    const people = generatePeople(random, options.users, now, progress)
    const users = userRecords(people, await passwordHashes(progress))
    const told = new NotificationMaker(options.seed, people.users, now)
    const audiences = audienceDraws(options)
    await loadPostgres(sql, schema, { random, people, users, posts: options.posts, now, told, audiences }, progress)
    return `the PostgreSQL schema "${schema}"`
  } finally {
    await sql.end({ timeout: 5 })
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      users: { type: 'string' },
      posts: { type: 'string' },
      seed: { type: 'string', default: '1' },
      audiences: { type: 'boolean', default: false },
      force: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  })
  if (values.help) {
    console.log(USAGE)
    return
  }
  const postgres = Boolean(process.env.DATABASE_URL)
  const defaults = postgres ? DEFAULTS.postgres : DEFAULTS.embedded
  const options: Options = {
    users: count('users', values.users ?? String(defaults.users), NAMED_ACCOUNTS.length),
    posts: count('posts', values.posts ?? String(defaults.posts), 0),
    seed: count('seed', values.seed, 0),
    audiences: values.audiences,
    force: values.force,
  }
  const started = performance.now()
  const progress = new ProgressBar()
  const where = postgres ? await intoPostgres(options, progress) : await intoDataDir(options, progress)
  const seconds = ((performance.now() - started) / 1000).toFixed(0)
  process.stderr.write(`${options.users} users and ${options.posts} posts written to ${where} in ${seconds} s\n`)
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error)
  process.exit(1)
})
