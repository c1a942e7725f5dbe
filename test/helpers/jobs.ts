import type { JobsReply } from '../../server/schemas/jobs.js'
import { createJobQueue, type JobHandlers, type JobQueueOptions } from '../../server/services/jobs.js'
import type { JobCount, JobKind, JobState, Store } from '../../server/store/types.js'
import { EmbeddedStore } from '../../server/store/embedded-store.js'
import { tempDataDir, type TestApp, type TestContext } from './app.js'
import { openPgStore } from './both-stores.js'
import { testDatabaseUrl } from './store-under-test.js'
import { uuidDatabase } from './uuid-database.js'

/** Queue settings for tests: short delays, so retries and give-ups happen within a test. */
export const QUICK_JOBS = { jobsPollMs: 20, jobsLeaseMs: 30_000, jobsRetryMs: 20, jobsGiveUpMs: 300 }

/** A queue's workers over `store`, started, and closed when the test ends. */
export function startQueue(
  t: TestContext,
  store: Store,
  handlers: JobHandlers,
  options: Partial<JobQueueOptions> = {},
) {
  const queue = createJobQueue({
    store,
    now: () => new Date(),
    handlers,
    concurrency: 8,
    pollMs: QUICK_JOBS.jobsPollMs,
    leaseMs: QUICK_JOBS.jobsLeaseMs,
    retryMs: QUICK_JOBS.jobsRetryMs,
    giveUpMs: QUICK_JOBS.jobsGiveUpMs,
    log: () => {},
    ...options,
  })
  queue.start()
  t.teardown(() => queue.close())
  return queue
}

/** How many jobs of the kind are in the state. */
export const countOf = (counts: readonly JobCount[], kind: JobKind, state: JobState) =>
  counts.find((count) => count.kind === kind && count.state === state)?.count ?? 0

/** Waits until the store's job counts satisfy `done`; throws after `timeoutMs` with the counts seen last. */
export async function untilJobs(
  store: Pick<Store, 'countJobs'>,
  done: (counts: JobCount[]) => boolean,
  timeoutMs = 20_000,
): Promise<JobCount[]> {
  const until = Date.now() + timeoutMs
  for (;;) {
    const counts = await store.countJobs()
    if (done(counts)) return counts
    if (Date.now() > until) throw new Error(`jobs never got there: ${JSON.stringify(counts)}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

/** Nothing queued or running any more. */
export const settled = (counts: readonly JobCount[]) =>
  counts.every((count) => count.state === 'done' || count.state === 'failed')

/** The store the suite runs on (PostgreSQL under CHIRP_TEST_DATABASE_URL), small and fresh, closed when the test ends. */
export async function openTestStore(t: TestContext): Promise<Store> {
  const database = uuidDatabase({ users: 2, posts: 2 })
  if (testDatabaseUrl !== undefined) return openPgStore(t, database)
  const store = await EmbeddedStore.open({ dataDir: await tempDataDir(t), seed: async () => database })
  t.teardown(() => store.close())
  return store
}

/** GET /api/admin/jobs as the admin `token`, polled until `done` holds of it. */
export async function untilOverview(
  api: Pick<TestApp, 'as'>,
  token: string,
  done: (reply: JobsReply) => boolean,
): Promise<JobsReply> {
  for (let i = 0; ; i++) {
    const reply = (await api.as(token, { method: 'GET', url: '/api/admin/jobs' })).json() as JobsReply
    if (done(reply)) return reply
    if (i > 1000) throw new Error(`the queue never got there: ${JSON.stringify(reply)}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

/** Until every `media-delete` job enqueued so far has run (GET /api/admin/jobs as the admin `token`). */
export const untilMediaDeleted = (api: Pick<TestApp, 'as'>, token: string) =>
  untilOverview(api, token, (r) => r.kinds['media-delete']?.queued === 0 && r.kinds['media-delete'].running === 0)
