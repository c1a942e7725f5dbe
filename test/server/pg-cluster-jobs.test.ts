import { randomUUID } from 'node:crypto'
import t from 'tap'
import { onPostgres } from '../helpers/pg-pass.js'

/**
 * Two instances on one schema share the job queue: 200 jobs enqueued from outside either of them, claimed
 * by both at once through SKIP LOCKED, are each run exactly once. An instance that never polls still hears
 * of a job another one enqueued (NOTIFY). Claims and endings commit without waiting for the WAL; an
 * effect's transaction that completes its job waits, as every write does.
 */
await onPostgres(async () => {
  const { buildApiApp } = await import('../helpers/api.js')
  const { openPgStore } = await import('../helpers/both-stores.js')
  const { uuidDatabase } = await import('../helpers/uuid-database.js')
  const { QUICK_JOBS, untilJobs, countOf, startQueue } = await import('../helpers/jobs.js')
  const { newJob } = await import('../../server/services/jobs.js')
  const pgJobs = await import('../../server/store/pg/pg-jobs.js')
  type JobHandler = import('../../server/services/jobs.js').JobHandler
  type Queryable = import('../../server/store/pg/connect.js').Queryable

  const JOBS = 200
  const runs: { id: string; by: string }[] = []
  const recorder =
    (by: string): JobHandler =>
    async (job) => {
      runs.push({ id: job._id, by })
      // A little work, so both instances hold runs at the same time.
      await new Promise((resolve) => setTimeout(resolve, 2))
    }
  const config = { ...QUICK_JOBS, jobsConcurrency: 4 }
  const a = await buildApiApp(t, { config, options: { jobHandlers: { push: recorder('a') } } })
  await buildApiApp(t, {
    config,
    sharedSchema: a.schema as string,
    options: { jobHandlers: { push: recorder('b') } },
  })
  // A third connection to the schema enqueues, so neither instance is told by its own enqueue.
  const outside = await openPgStore(t, uuidDatabase({ users: 1, posts: 0 }), a.schema as string)

  await t.test('200 jobs, two instances: each job runs exactly once', async (t) => {
    const at = new Date().toISOString()
    const jobs = Array.from({ length: JOBS }, (_, i) => newJob('push', { n: i }, at))
    await outside.enqueueJobs(jobs, at)
    await untilJobs(outside, (counts) => countOf(counts, 'push', 'done') === JOBS)
    const times = new Map<string, number>()
    for (const run of runs) times.set(run.id, (times.get(run.id) ?? 0) + 1)
    t.equal(times.size, JOBS, 'every job ran')
    t.strictSame(
      [...times].filter(([, count]) => count !== 1),
      [],
      'none ran twice',
    )
    const byA = runs.filter((run) => run.by === 'a').length
    t.ok(byA > 0 && byA < JOBS, `both instances ran jobs (a: ${byA}, b: ${JOBS - byA})`)
  })

  await t.test('a job enqueued by one instance wakes the workers of another, which never polls', async (t) => {
    const database = uuidDatabase({ users: 1, posts: 0 })
    const enqueuer = await openPgStore(t, database)
    const worker = await openPgStore(t, database, enqueuer.schema)
    const ran: string[] = []
    startQueue(t, worker, { push: async (job) => void ran.push(String(job.payload.n)) }, { pollMs: 600_000 })
    // Once the worker's instance listens, it hears of every job enqueued after.
    await worker.watchJobs(() => {})
    // Due a second from now: the look the workers take as they start finds it not yet due.
    const at = new Date().toISOString()
    await enqueuer.enqueueJobs([newJob('push', { n: 1 }, new Date(Date.now() + 1000).toISOString())], at)
    await untilJobs(enqueuer, (counts) => countOf(counts, 'push', 'done') === 1)
    t.strictSame(ran, ['1'], 'run by the other instance')
  })

  await t.test('claims and endings need not wait for the WAL; an effect completed with its job does', async (t) => {
    const store = await openPgStore(t, uuidDatabase({ users: 1, posts: 0 }))
    const at = new Date().toISOString()
    await store.enqueueJobs([newJob('push', {}, at), newJob('push', {}, at)], at)
    const request = (claim: string) => ({ kinds: ['push' as const], limit: 1, at, claim, leaseUntil: at })
    /** What `synchronous_commit` is, at its commit, in a transaction that runs `work`. */
    const commitWith = (work: (sql: Queryable) => Promise<unknown>) =>
      store.sql.begin(async (sql) => {
        await work(sql)
        const [row] = await sql<{ synchronous_commit: string }[]>`SHOW synchronous_commit`
        return row?.synchronous_commit
      })
    const claim = randomUUID()
    let job: { _id: string } | undefined
    t.equal(await commitWith(async (sql) => ([job] = await pgJobs.claimJobs(sql, request(claim)))), 'off', 'a claim')
    const id = job?._id as string
    t.equal(await commitWith((sql) => pgJobs.extendJobLease(sql, id, claim, at)), 'off', 'a renewal')
    t.equal(
      await commitWith((sql) => pgJobs.settleJob(sql, id, claim, { state: 'queued', runAt: at, error: 'x' }, at)),
      'off',
      'an ending',
    )
    const [again] = await store.claimJobs(request(randomUUID()))
    t.ok(again, 'claimed again')
    t.equal(
      await commitWith((sql) => pgJobs.completeJob(sql, again?._id as string, again?.claim as string, at)),
      'on',
      'an effect completed with its job',
    )
    t.equal(await commitWith((sql) => pgJobs.enqueueJobs(sql, [newJob('push', {}, at)], at)), 'on', 'an enqueue')
  })
})
