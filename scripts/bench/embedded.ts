import { BENCH_PASSWORD } from '../seed-large/people.js'
import { login } from './api.js'
import { postTaker, type Bench, type BenchBase } from './context.js'
import { copyDataSet, seedDataSet } from './dataset.js'
import { startChirp, startHello, type Running } from './processes.js'

/**
 * The embedded store's legs' setup: a generated data set, the production server on a copy of it, and
 * Fastify's hello world beside it. Both servers go into `running`.
 */
export async function startEmbedded(base: BenchBase, running: Running[]): Promise<{ bench: Bench; hello: Running }> {
  const { settings, scratch, log } = base
  const dataSetDir = await scratch.dir('data')
  log(`seeding ${settings.users} users and ${settings.posts} posts`)
  const dataSet = await seedDataSet(dataSetDir, settings.users, settings.posts)
  const chirpDir = await scratch.dir('chirp')
  await copyDataSet(dataSetDir, chirpDir)
  const hello = await startHello()
  running.push(hello)
  const chirp = await startChirp({
    dataDir: chirpDir,
    jwtSecret: base.jwtSecret,
    openFiles: base.openFiles,
    env: { EVENTS_MAX_STREAMS_PER_USER: String(Math.max(...settings.fanout, 10) + 100) },
  })
  running.push(chirp)
  const session = (username: string) => login(chirp.url, username, BENCH_PASSWORD)
  const writerId = dataSet.users.find((user) => user.username === 'bench_writer')?._id
  const free = dataSet.posts.filter((post) => !post.likedBy.includes(writerId ?? '')).map((post) => post._id)
  const bench: Bench = {
    ...base,
    chirp,
    sessions: {
      typical: await session('bench_typical'),
      many: await session('bench_many'),
      few: await session('bench_few'),
      writer: await session('bench_writer'),
    },
    takePosts: postTaker(free),
    dataSetDir,
  }
  return { bench, hello }
}
