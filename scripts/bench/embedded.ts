import type { Database } from '../../server/store/types.js'
import { BENCH_PASSWORD } from '../seed-large/people.js'
import { login } from './api.js'
import { postTaker, type Bench, type BenchBase } from './context.js'
import { copyDataSet, seedDataSet, type Scratch } from './dataset.js'
import { startChirp, startHello, type Running } from './processes.js'

/** The embedded legs' generated data set: its directory, never served itself, and what it holds. */
export interface DataSet {
  dir: string
  database: Database
}

const dataSets = new WeakMap<Scratch, Promise<DataSet>>()

/** The data set of `settings.users` and `settings.posts`, seeded once a run by whichever leg asks first. */
export function embeddedDataSet(base: BenchBase): Promise<DataSet> {
  const { settings, scratch, log } = base
  let dataSet = dataSets.get(scratch)
  if (!dataSet) {
    dataSet = (async () => {
      const dir = await scratch.dir('data')
      log(`seeding ${settings.users} users and ${settings.posts} posts`)
      return { dir, database: await seedDataSet(dir, settings.users, settings.posts) }
    })()
    dataSets.set(scratch, dataSet)
  }
  return dataSet
}

/** The production server on a copy of the data set of its own, in `running`. */
export async function serveCopy(
  base: BenchBase,
  dataSet: DataSet,
  name: string,
  running: Running[],
  env: Record<string, string> = {},
): Promise<Running> {
  const dataDir = await base.scratch.dir(name)
  await copyDataSet(dataSet.dir, dataDir)
  const chirp = await startChirp({ dataDir, jwtSecret: base.jwtSecret, openFiles: base.openFiles, env })
  running.push(chirp)
  return chirp
}

/** The ids of `database`'s posts that `username` has not liked, oldest first. */
export function unlikedBy(database: Database, username: string): string[] {
  const id = database.users.find((user) => user.username === username)?._id
  return database.posts.filter((post) => !post.likedBy.includes(id ?? '')).map((post) => post._id)
}

/**
 * The embedded store's legs' setup: a generated data set, the production server on a copy of it, and
 * Fastify's hello world beside it. Both servers go into `running`.
 */
export async function startEmbedded(base: BenchBase, running: Running[]): Promise<{ bench: Bench; hello: Running }> {
  const dataSet = await embeddedDataSet(base)
  const hello = await startHello()
  running.push(hello)
  const chirp = await serveCopy(base, dataSet, 'chirp', running, {
    EVENTS_MAX_STREAMS_PER_USER: String(Math.max(...base.settings.fanout, 10) + 100),
  })
  const session = (username: string) => login(chirp.url, username, BENCH_PASSWORD)
  const bench: Bench = {
    ...base,
    chirp,
    sessions: {
      typical: await session('bench_typical'),
      many: await session('bench_many'),
      few: await session('bench_few'),
      writer: await session('bench_writer'),
      popular: await session('bench_popular'),
    },
    takePosts: postTaker(unlikedBy(dataSet.database, 'bench_writer')),
    dataSetDir: dataSet.dir,
  }
  return { bench, hello }
}
