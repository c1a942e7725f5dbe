import t from 'tap'
import { newJob, PermanentJobError, type JobHandler } from '../../server/services/jobs.js'
import type { ClaimedJob, Store } from '../../server/store/types.js'
import { countOf, openTestStore, QUICK_JOBS, settled, startQueue, untilJobs } from '../helpers/jobs.js'

/**
 * The job queue's workers over the store the suite runs on (the PostgreSQL pass, test/suite/postgres-pass.ts, runs this file on
 * PostgreSQL): a job runs, a failing one is retried with a doubling backoff and then fails for good with
 * its last error, a run whose lease ran out is taken over and its late effect refused, and a queue that
 * closes gives back what it had not finished.
 */

const now = () => new Date().toISOString()

/** The store as a worker that died sees it: its lease is never renewed. */
const withoutRenewals = (store: Store): Store =>
  new Proxy(store, {
    get(target, key) {
      if (key === 'extendJobLease') return async () => true
      const value: unknown = Reflect.get(target, key, target)
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value
    },
  })

await t.test('an enqueued job runs once, woken by the enqueue, and is done', async (t) => {
  const store = await openTestStore(t)
  const runs: ClaimedJob[] = []
  // No poll: only the enqueue can wake the workers.
  startQueue(t, store, { push: async (job) => void runs.push(job) }, { pollMs: 600_000 })
  await store.enqueueJobs([newJob('push', { to: 'someone' }, now())], now())
  const counts = await untilJobs(store, (c) => countOf(c, 'push', 'done') === 1)
  t.strictSame(counts, [{ kind: 'push', state: 'done', count: 1 }])
  t.equal(runs.length, 1)
  t.match(runs[0], { kind: 'push', payload: { to: 'someone' }, attempts: 1 })
})

await t.test('a job enqueued in a write runs only once the write commits, and never if it fails', async (t) => {
  const store = await openTestStore(t)
  const runs: string[] = []
  startQueue(t, store, { push: async (job) => void runs.push(String(job.payload.n)) })
  await t.rejects(
    store.transaction(async (tx) => {
      await tx.enqueueJob(newJob('push', { n: 1 }, now()), now())
      throw new Error('the write fails')
    }),
  )
  await store.transaction((tx) => tx.enqueueJob(newJob('push', { n: 2 }, now()), now()))
  await untilJobs(store, (c) => countOf(c, 'push', 'done') === 1)
  t.strictSame(runs, ['2'])
})

await t.test('a failing job is retried after a doubling backoff, then fails with its last error', async (t) => {
  const store = await openTestStore(t)
  const started: number[] = []
  const failing: JobHandler = async (job) => {
    started.push(Date.now())
    throw new Error(`attempt ${job.attempts} failed`)
  }
  startQueue(t, store, { push: failing })
  await store.enqueueJobs([newJob('push', {}, now())], now())
  await untilJobs(store, (c) => countOf(c, 'push', 'failed') === 1)
  t.ok(started.length >= 3, `tried ${started.length} times`)
  started.slice(1).forEach((at, i) => {
    const wanted = QUICK_JOBS.jobsRetryMs * 2 ** i
    t.ok(at - (started[i] as number) >= wanted, `retry ${i + 1} waited at least ${wanted} ms`)
  })
  t.ok(
    (started.at(-1) as number) - (started[0] as number) <= QUICK_JOBS.jobsGiveUpMs,
    'no try begins past the give-up time',
  )
  const [failure] = await store.listFailedJobs(10)
  t.match(failure, {
    kind: 'push',
    state: 'failed',
    attempts: started.length,
    lastError: `attempt ${started.length} failed`,
  })
})

await t.test('a permanent error fails the job at once', async (t) => {
  const store = await openTestStore(t)
  let tries = 0
  startQueue(t, store, {
    push: async () => {
      tries++
      throw new PermanentJobError('the address is gone')
    },
  })
  await store.enqueueJobs([newJob('push', {}, now())], now())
  await untilJobs(store, (c) => countOf(c, 'push', 'failed') === 1)
  t.equal(tries, 1)
  t.match(await store.listFailedJobs(1), [{ attempts: 1, lastError: 'the address is gone' }])
})

await t.test('a delayed job waits for its time', async (t) => {
  const store = await openTestStore(t)
  let ranAt = 0
  startQueue(t, store, { push: async () => void (ranAt = Date.now()) })
  const due = Date.now() + 150
  await store.enqueueJobs([newJob('push', {}, new Date(due).toISOString())], now())
  await untilJobs(store, (c) => countOf(c, 'push', 'done') === 1)
  t.ok(ranAt >= due, 'not before its runAt')
})

await t.test('a run whose lease ran out is taken over, and its late effect is refused', async (t) => {
  const store = await openTestStore(t)
  const effects: string[] = []
  let release!: () => void
  const stuck = new Promise<void>((resolve) => (release = resolve))
  const effect =
    (who: string): JobHandler =>
    async (job, run) => {
      if (who === 'first') await stuck
      // The effect and the job's end commit together, or neither does.
      await store.transaction(async (tx) => {
        await run.complete(tx)
        effects.push(who)
      })
    }
  // The first worker's renewals of its lease are lost, as a worker's that died would be.
  const first = startQueue(t, withoutRenewals(store), { push: effect('first') }, { leaseMs: 100, pollMs: 600_000 })
  await store.enqueueJobs([newJob('push', {}, now())], now())
  await untilJobs(store, (c) => countOf(c, 'push', 'running') === 1)
  // A second instance starts; the first is stuck past its lease.
  startQueue(t, store, { push: effect('second') }, { leaseMs: 100 })
  await untilJobs(store, (c) => countOf(c, 'push', 'done') === 1)
  release()
  await first.close()
  t.strictSame(effects, ['second'], 'the effect happened once, by the run that holds the job')
  t.match(
    (await store.countJobs()).filter((c) => c.kind === 'push'),
    [{ state: 'done', count: 1 }],
  )
})

await t.test('a live run keeps its job however long it takes: nobody else runs it', async (t) => {
  const store = await openTestStore(t)
  const runs: string[] = []
  const slow =
    (who: string): JobHandler =>
    async () => {
      runs.push(who)
      // Many leases long.
      await new Promise((resolve) => setTimeout(resolve, 2500))
    }
  startQueue(t, store, { push: slow('first') }, { leaseMs: 500, pollMs: 600_000 })
  await store.enqueueJobs([newJob('push', {}, now())], now())
  await untilJobs(store, (c) => countOf(c, 'push', 'running') === 1)
  startQueue(t, store, { push: slow('second') }, { leaseMs: 500, pollMs: 20 })
  await untilJobs(store, (c) => countOf(c, 'push', 'done') === 1)
  t.strictSame(runs, ['first'], 'run once, by the worker that claimed it')
})

await t.test('a queue that closes gives back the runs it had not finished, and another runs them', async (t) => {
  const store = await openTestStore(t)
  const first = startQueue(t, store, {
    push: (_job, run) =>
      new Promise((_resolve, reject) => run.signal.addEventListener('abort', () => reject(new Error('stopped')))),
  })
  await store.enqueueJobs([newJob('push', {}, now())], now())
  await untilJobs(store, (c) => countOf(c, 'push', 'running') === 1)
  await first.close()
  t.strictSame(await store.countJobs(), [{ kind: 'push', state: 'queued', count: 1 }], 'queued again, not failed')
  const runs: number[] = []
  startQueue(t, store, { push: async (job) => void runs.push(job.attempts) })
  await untilJobs(store, settled)
  t.strictSame(runs, [1], 'the unfinished run did not count as an attempt')
})

await t.test('finished jobs are pruned once past their keeping', async (t) => {
  const store = await openTestStore(t)
  startQueue(t, store, { push: async () => {} })
  await store.enqueueJobs([newJob('push', {}, now())], now())
  await untilJobs(store, (c) => countOf(c, 'push', 'done') === 1)
  t.equal(await store.pruneJobs(new Date(Date.now() - 60_000).toISOString(), now()), 0, 'kept while recent')
  t.equal(await store.pruneJobs(new Date(Date.now() + 1000).toISOString(), now()), 1, 'then forgotten')
  t.strictSame(await store.countJobs(), [])
})
