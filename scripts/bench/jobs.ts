import { fork, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { randomUUID } from 'node:crypto'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { createJobQueue, newJob } from '../../server/services/jobs.js'
import { EmbeddedStore } from '../../server/store/embedded-store.js'
import type { Database } from '../../server/store/types.js'
import type { BenchBase } from './context.js'
import type { Report } from './legs.js'
import { BenchSchemas } from './pg.js'
import { atMost, measured, ms } from './report.js'

/**
 * Leg 18: the job queue at an offered 200 jobs a second, on the embedded store (one instance, in the bench
 * process) and, with DATABASE_URL, two instances on PostgreSQL, each a process of its own (jobs-instance.ts).
 */

const OFFERED_PER_SECOND = 200
const EMPTY: Database = { version: 1, users: [], posts: [] }
/** How long the last jobs may take to start before the run is counted as it stands. */
const DRAIN_MS = 30_000

interface JobsRun {
  offered: number
  done: number
  /** Jobs started a second, from the first enqueue to the last run's start. */
  perSecond: number
  /** From the call that enqueues a job to the start of its run. */
  p50: number
  p99: number
  max: number
  /** From the call that enqueues a job to its answer (the job durable): what a request enqueueing one waits. */
  acknowledgedP50: number
  acknowledgedP99: number
  /** Runs started by each instance. */
  runsPerInstance: number[]
}

const quantile = (sorted: readonly number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN

/** Times, in ms on one clock, of each job: when enqueue was called, answered, and its run started (and where). */
interface Timings {
  enqueued: Map<string, number>
  acknowledged: Map<string, number>
  started: Map<string, { at: number; instance: number }>
}

const timings = (): Timings => ({ enqueued: new Map(), acknowledged: new Map(), started: new Map() })

/** Calls `enqueue(i)` for `total` jobs at the offered rate. */
async function pace(total: number, enqueue: (i: number) => void): Promise<void> {
  const started = performance.now()
  for (let i = 0; i < total; i++) {
    const wait = started + (i * 1000) / OFFERED_PER_SECOND - performance.now()
    if (wait > 0) await sleep(wait)
    enqueue(i)
  }
}

async function drain(total: number, started: () => number): Promise<void> {
  for (let waited = 0; started() < total && waited < DRAIN_MS; waited += 50) await sleep(50)
}

function summary(offered: number, instances: number, { enqueued, acknowledged, started }: Timings): JobsRun {
  const latencies: number[] = []
  const acks: number[] = []
  const runsPerInstance = new Array<number>(instances).fill(0)
  let first = Infinity
  let last = -Infinity
  for (const [id, at] of enqueued) {
    first = Math.min(first, at)
    const ack = acknowledged.get(id)
    if (ack !== undefined) acks.push(ack - at)
    const start = started.get(id)
    if (!start) continue
    latencies.push(start.at - at)
    last = Math.max(last, start.at)
    runsPerInstance[start.instance] = (runsPerInstance[start.instance] ?? 0) + 1
  }
  const sorted = latencies.sort((a, b) => a - b)
  const sortedAcks = acks.sort((a, b) => a - b)
  return {
    offered,
    done: sorted.length,
    perSecond: sorted.length / ((last - first) / 1000),
    p50: quantile(sorted, 0.5),
    p99: quantile(sorted, 0.99),
    max: sorted.at(-1) ?? Number.NaN,
    acknowledgedP50: quantile(sortedAcks, 0.5),
    acknowledgedP99: quantile(sortedAcks, 0.99),
    runsPerInstance,
  }
}

/** One store and one queue of 8 workers in the bench process, as one Chirp server runs them. */
async function embeddedRun(bench: BenchBase, seconds: number): Promise<JobsRun> {
  const dataDir = await bench.scratch.dir('jobs')
  const store = await EmbeddedStore.open({ dataDir, seed: async () => structuredClone(EMPTY) })
  const times = timings()
  const queue = createJobQueue({
    store,
    now: () => new Date(),
    handlers: { push: async (job) => void times.started.set(job._id, { at: performance.now(), instance: 0 }) },
    concurrency: 8,
    pollMs: 1000,
    leaseMs: 30_000,
    retryMs: 5000,
    giveUpMs: 3_600_000,
    log: () => {},
  })
  const total = OFFERED_PER_SECOND * seconds
  try {
    queue.start()
    const enqueues: Promise<void>[] = []
    await pace(total, (n) => {
      const at = new Date().toISOString()
      const job = newJob('push', { n }, at)
      times.enqueued.set(job._id, performance.now())
      enqueues.push(store.enqueueJobs([job], at).then(() => void times.acknowledged.set(job._id, performance.now())))
    })
    await Promise.all(enqueues)
    await drain(total, () => times.started.size)
  } finally {
    await queue.close()
    await store.close()
  }
  return summary(total, 1, times)
}

interface Instance {
  child: ChildProcess
  /** Resolves with the next message that is not a run's start. */
  next(): Promise<unknown>
}

/** Forks one instance on `schema` and waits until its queue runs; each start it reports goes into `times`. */
async function startInstance(url: string, schema: string, index: number, times: Timings): Promise<Instance> {
  const child = fork(path.join(import.meta.dirname, 'jobs-instance.ts'), [], {
    env: { ...process.env, BENCH_DATABASE_URL: url, BENCH_SCHEMA: schema },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  const waiting: ((message: unknown) => void)[] = []
  child.on('message', (message: { started?: [string, number] }) => {
    if (message.started) times.started.set(message.started[0], { at: message.started[1], instance: index })
    else waiting.shift()?.(message)
  })
  const instance: Instance = { child, next: () => new Promise((resolve) => waiting.push(resolve)) }
  const exited = once(child, 'exit').then(([code]) => {
    throw new Error(`instance ${index + 1} of leg 18 exited with ${String(code)} before it was ready`)
  })
  await Promise.race([instance.next(), exited])
  exited.catch(() => {})
  return instance
}

async function stopInstance({ child }: Instance): Promise<void> {
  if (child.exitCode !== null) return
  const exited = once(child, 'exit')
  child.send('close')
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000)
  await exited
  clearTimeout(timer)
}

/**
 * Two instances on one schema, each a process with its own pool and 8 workers; the jobs are enqueued
 * through each in turn (as requests reach instances in turn), and whichever instance starts a job tells the bench.
 */
async function postgresRun(url: string, seconds: number): Promise<JobsRun> {
  const schemas = new BenchSchemas(url)
  const schema = schemas.name('jobs')
  const times = timings()
  const instances: Instance[] = []
  const total = OFFERED_PER_SECOND * seconds
  try {
    // One after the other: the first makes the schema.
    for (const index of [0, 1]) instances.push(await startInstance(url, schema, index, times))
    await pace(total, (n) => instances[n % instances.length]?.child.send({ enqueue: [randomUUID(), n] }))
    await drain(total, () => times.started.size)
    for (const instance of instances) {
      instance.child.send('collect')
      const reply = (await instance.next()) as { enqueued: [string, number][]; acknowledged: [string, number][] }
      for (const [id, at] of reply.enqueued) times.enqueued.set(id, at)
      for (const [id, at] of reply.acknowledged) times.acknowledged.set(id, at)
    }
  } finally {
    await Promise.allSettled(instances.map(stopInstance))
    await schemas.drop()
  }
  return summary(total, 2, times)
}

const line = (where: string, run: JobsRun) =>
  `${where}: ${run.done} of ${run.offered} jobs run (${run.runsPerInstance.join(' + ')}), ` +
  `${run.perSecond.toFixed(0)} a second; enqueue → start p50 ${ms(run.p50)}, p99 ${ms(run.p99)}, ` +
  `max ${ms(run.max)}; enqueue answered (durable) p50 ${ms(run.acknowledgedP50)}, p99 ${ms(run.acknowledgedP99)}.`

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
    details.push(line('Leg 18, two PostgreSQL instances (two processes)', postgres))
  }
  results.jobs = runs
}
