import { access, mkdir } from 'node:fs/promises'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { hashPassword } from '../server/services/passwords.js'
import { lockDataDir } from '../server/store/lock.js'
import { writeDatabaseFiles } from '../server/store/database-files.js'
import type { Database } from '../server/store/types.js'
import { BENCH_PASSWORD, NAMED_ACCOUNTS, generatePeople, toUserRecord } from './seed-large/people.js'
import { generatePosts } from './seed-large/posts.js'
import { ProgressBar } from './seed-large/progress.js'
import { seededRandom } from './seed-large/random.js'

const USAGE = `Usage: npm run seed:large -- --users N --posts M [--seed S] [--force]

Writes a generated database into DATA_DIR (default ./data): N users in a power-law follow graph and M posts
with likes, comments and bookmarks. The same --seed gives the same data. An existing database is left alone
unless --force is given. Accounts: ${NAMED_ACCOUNTS.map((a) => a.username).join(', ')} and the generated ones,
all with the password "${BENCH_PASSWORD}" but guest's, "guestpassword".`

function count(name: string, raw: string | undefined, min: number): number {
  const value = Number(raw)
  if (!Number.isInteger(value) || value < min) throw new Error(`--${name} must be a whole number of at least ${min}\n\n${USAGE}`)
  return value
}

async function exists(file: string): Promise<boolean> {
  return access(file).then(
    () => true,
    () => false,
  )
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      users: { type: 'string' },
      posts: { type: 'string' },
      seed: { type: 'string', default: '1' },
      force: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  })
  if (values.help) {
    console.log(USAGE)
    return
  }
  const users = count('users', values.users, NAMED_ACCOUNTS.length)
  const posts = count('posts', values.posts, 0)
  const seed = count('seed', values.seed, 0)
  const dataDir = path.resolve(process.env.DATA_DIR || './data')
  const file = path.join(dataDir, 'db.json')
  if (!values.force && (await exists(file))) {
    throw new Error(`${file} already exists; pass --force to replace it with a generated database`)
  }
  // media/ too, as a seeded server has it: uploads land there and the server serves it from the start.
  await mkdir(path.join(dataDir, 'media'), { recursive: true })
  // A running server holds this lock: replacing its files under it would lose its writes.
  const unlock = lockDataDir(dataDir)
  try {
    const progress = new ProgressBar()
    const random = seededRandom(seed)
    const now = Date.now()
    const people = generatePeople(random, users, now, progress)
    const generatedPosts = generatePosts(random, people, posts, now, progress)
    progress.start('passwords', 2)
    // scrypt costs ~50 ms a hash on purpose; thousands would take minutes. Every generated account shares
    // one hash (and so one salt) of one password: fine for a local data set, never for real accounts.
    const shared = await hashPassword(BENCH_PASSWORD)
    progress.tick()
    const guest = await hashPassword('guestpassword')
    progress.finish()
    const database: Database = {
      version: 1,
      users: people.users.map((user, i) => toUserRecord(user, user.username === 'guest' ? guest : shared, i)),
      posts: generatedPosts,
    }
    progress.start('writing', 1)
    await writeDatabaseFiles(dataDir, database)
    progress.finish()
    process.stderr.write(`${users} users and ${posts} posts written to ${dataDir}\n`)
  } finally {
    unlock()
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error)
  process.exit(1)
})
