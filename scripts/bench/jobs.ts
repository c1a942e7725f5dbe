import { setTimeout as sleep } from 'node:timers/promises'
import { createJobQueue, newJob, type JobQueue } from '../../server/services/jobs.js'
import { EmbeddedStore } from '../../server/store/embedded-store.js'
import { PgStore } from '../../server/store/pg/pg-store.js'
import type { Database, Store } from '../../server/store/types.js'
import type { BenchBase } from './context.js'
import type { Report } from './legs.js'
import { BenchSchemas } from './pg.js'
import { atMost, measured, ms } from './report.js'

/** Leg 18: the job queue at an offered 200 jobs a second, on the embedded store and, with DATABASE_URL, two instances on PostgreSQL. */

const OFFERED_PER_SECOND = 200
const EMPTY: Database = { version: 1, users: [], posts: [] }

interface JobsRun {
  offered: number
  done: number
  /** Jobs finished a second, from the first enqueue to the last run's end. */
  perSecond: number
  /** From the call that enqueues a job to the start of its run. */
  p50: number
  p99: number
  max: number
}

const quantile = (sorted: readonly number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN

/**
 * Offers jobs at a steady rate for `seconds`, each enqueued through the next store in turn (as requests
 * reach instances in turn), and times each from its enqueue to the start of its run, whichever instance runs it.
 */
async function offer(stores: readonly Store[], seconds: number): Promise<JobsRun> {
  const enqueuedAt = new Map<string, number>()
  const latencies: number[] = []
  let lastEnd = 0
  const queues: JobQueue[] = stores.map((store) =>
    createJobQueue({
      store,
      now: () => new Date(),
      handlers: {
        push: async (job) => {
          latencies.push(performance.now() - (enqueuedAt.get(job._id) ?? Number.NaN))
          lastEnd = performance.now()
        },
      },
      concurrency: 8,
      pollMs: 1000,
      leaseMs: 30_000,
      retryMs: 5000,
      giveUpMs: 3_600_000,
      log: () => {},
    }),
  )
  for (const queue of queues) queue.start()
  const total = OFFERED_PER_SECOND * seconds
  const started = performance.now()
  const enqueues: Promise<void>[] = []
  for (let i = 0; i < total; i++) {
    const due = started + (i * 1000) / OFFERED_PER_SECOND
    const wait = due - performance.now()
    if (wait > 0) await sleep(wait)
    const at = new Date().toISOString()
    const job = newJob('push', { n: i }, at)
    enqueuedAt.set(job._id, performance.now())
    enqueues.push((stores[i % stores.length] as Store).enqueueJobs([job], at))
  }
  await Promise.all(enqueues)
  for (let waited = 0; latencies.length < total && waited < 30_000; waited += 50) await sleep(50)
  await Promise.all(queues.map((queue) => queue.close()))
  const sorted = [...latencies].sort((a, b) => a - b)
  return {
    offered: total,
    done: latencies.length,
    perSecond: latencies.length / ((lastEnd - started) / 1000),
    p50: quantile(sorted, 0.5),
    p99: quantile(sorted, 0.99),
    max: sorted.at(-1) ?? Number.NaN,
  }
}

async function embeddedRun(bench: BenchBase, seconds: number): Promise<JobsRun> {
  const dataDir = await bench.scratch.dir('jobs')
  const store = await EmbeddedStore.open({ dataDir, seed: async () => structuredClone(EMPTY) })
  try {
    return await offer([store], seconds)
  } finally {
    await store.close()
  }
}

async function postgresRun(url: string, seconds: number): Promise<JobsRun> {
  const schemas = new BenchSchemas(url)
  const schema = schemas.name('jobs')
  const open = () => PgStore.open({ url, poolMax: 10, schema, seed: async () => structuredClone(EMPTY) })
  const first = await open()
  const second = await open()
  try {
    return await offer([first, second], seconds)
  } finally {
    await Promise.allSettled([first.close(), second.close()])
    await schemas.drop()
  }
}

const line = (where: string, run: JobsRun) =>
  `${where}: ${run.done} of ${run.offered} jobs run, ${run.perSecond.toFixed(0)} a second; enqueue → start ` +
  `p50 ${ms(run.p50)}, p99 ${ms(run.p99)}, max ${ms(run.max)}.`

export async function jobsLeg(bench: BenchBase, { checks, details, results }: Report): Promise<void> {
  const seconds = Math.max(5, bench.settings.duration * 2)
  bench.log(`18. the job queue, ${OFFERED_PER_SECOND} jobs/s offered for ${seconds} s, embedded`)
  const embedded = await embeddedRun(bench, seconds)
  const runs: Record<string, JobsRun> = { embedded }
  checks.push(measured(18, 'jobs a second at 200 offered, embedded', embedded.perSecond, embedded.perSecond.toFixed(0)))
  checks.push(atMost(18, 'job enqueue → start p99, embedded', embedded.p99, 100, ms(embedded.p99), '100 ms'))
  details.push(line('Leg 18, embedded', embedded))
  if (bench.settings.databaseUrl) {
    bench.log(`18. the job queue, ${OFFERED_PER_SECOND} jobs/s offered for ${seconds} s, two instances on PostgreSQL`)
    const postgres = await postgresRun(bench.settings.databaseUrl, seconds)
    runs.postgres = postgres
    checks.push(
      measured(
        18,
        'jobs a second at 200 offered, 2 PostgreSQL instances',
        postgres.perSecond,
        postgres.perSecond.toFixed(0),
      ),
    )
    checks.push(
      atMost(18, 'job enqueue → start p99, 2 PostgreSQL instances', postgres.p99, 100, ms(postgres.p99), '100 ms'),
    )
    details.push(line('Leg 18, two PostgreSQL instances (two pools and queues in the bench process)', postgres))
  }
  results.jobs = runs
}
