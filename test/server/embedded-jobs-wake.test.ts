import t from 'tap'
import { newJob } from '../../server/services/jobs.js'
import { EmbeddedStore } from '../../server/store/embedded-store.js'
import { ShardedFiles } from '../../server/store/sharded-files.js'
import { tempDataDir, type TestContext } from '../helpers/app.js'
import { startQueue } from '../helpers/jobs.js'
import { uuidDatabase } from '../helpers/uuid-database.js'

/**
 * The embedded store wakes its workers for a new job as soon as a claim can take it, without waiting for
 * the job's flush (which on a busy disk takes up to a tenth of a second); the enqueue itself is still
 * answered only once it is on disk. Each flush here is held until the test lets it go.
 */

const now = () => new Date().toISOString()

/** Holds every flush until `release` is called; flushes started after that pass at once. */
function holdFlushes(t: TestContext) {
  const commit = Reflect.get(ShardedFiles.prototype, 'commit') as ShardedFiles['commit']
  let release!: () => void
  const gate = new Promise<void>((resolve) => (release = resolve))
  ShardedFiles.prototype.commit = async function (this: ShardedFiles, flush) {
    await gate
    return commit.call(this, flush)
  }
  t.teardown(() => {
    release()
    ShardedFiles.prototype.commit = commit
  })
  return release
}

async function openStore(t: TestContext) {
  const store = await EmbeddedStore.open({
    dataDir: await tempDataDir(t),
    seed: async () => uuidDatabase({ users: 2, posts: 2 }),
  })
  t.teardown(() => store.close())
  return store
}

for (const how of ['enqueueJobs', 'a write'] as const) {
  await t.test(`a job enqueued by ${how} starts before its flush ends, which its enqueue waits for`, async (t) => {
    const store = await openStore(t)
    const release = holdFlushes(t)
    // The queue's timers do not keep a process alive, and a held flush is no timer either.
    const alive = setInterval(() => {}, 1000)
    t.teardown(() => clearInterval(alive))
    let started!: () => void
    const start = new Promise<void>((resolve) => (started = resolve))
    // No poll: only the enqueue can wake the workers.
    startQueue(t, store, { push: async () => started() }, { pollMs: 600_000 })
    let acknowledged = false
    const job = newJob('push', {}, now())
    const enqueue =
      how === 'enqueueJobs' ? store.enqueueJobs([job], now()) : store.transaction((tx) => tx.enqueueJob(job, now()))
    void enqueue.then(() => (acknowledged = true))
    await start
    t.notOk(acknowledged, 'the run started while the enqueue was still being flushed')
    release()
    await enqueue
    t.ok(acknowledged, 'the enqueue is answered once its flush is done')
  })
}
