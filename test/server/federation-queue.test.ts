import { randomUUID } from 'node:crypto'
import { Temporal } from '@js-temporal/polyfill'
import t from 'tap'
import { ChirpMessageQueue } from '../../server/federation/message-queue.js'
import type { JobHandler, JobHandlers } from '../../server/services/jobs.js'
import { countOf, openTestStore, startQueue } from '../helpers/jobs.js'

/**
 * Fedify's MessageQueue over Chirp's job queue (DECISIONS §14, §16): each message is a job, `inbox` for
 * activities received and `delivery` for the rest, due after its delay, run by the queue's workers through
 * Fedify's listener, and tried again while no listener has it.
 */
const at = new Date('2026-06-01T00:00:00Z')
const later = (ms: number) => new Date(at.getTime() + ms).toISOString()

await t.test('a message is a job of its kind, due after its delay', async (t) => {
  const store = await openTestStore(t)
  const queue = new ChirpMessageQueue(store, () => at)
  await queue.enqueue({ type: 'outbox', id: 'o1' }, { delay: Temporal.Duration.from({ minutes: 5 }) })
  await queue.enqueueMany([
    { type: 'inbox', id: 'i1' },
    { type: 'fanout', id: 'f1' },
  ])
  const claim = (when: string) =>
    store.claimJobs({
      kinds: ['delivery', 'inbox'],
      limit: 10,
      at: when,
      claim: randomUUID(),
      leaseUntil: later(3_600_000),
    })
  const now = await claim(at.toISOString())
  t.strictSame(
    now.map((job) => [job.kind, JSON.parse(String(job.payload.message)) as unknown]).sort(),
    [
      ['delivery', { type: 'fanout', id: 'f1' }],
      ['inbox', { type: 'inbox', id: 'i1' }],
    ],
    'due at once without a delay',
  )
  const afterDelay = await claim(later(5 * 60_000))
  t.strictSame(
    afterDelay.map((job) => job.kind),
    ['delivery'],
    'the delayed one once its time has come',
  )
})

await t.test('the workers hand each message to Fedify’s listener, and keep it while none listens', async (t) => {
  const store = await openTestStore(t)
  const queue = new ChirpMessageQueue(store, () => new Date())
  const heard: unknown[] = []
  // The queue's handlers as the app registers them, watched: each refusal is seen as it is thrown.
  const refusals: string[] = []
  const watched: JobHandlers = Object.fromEntries(
    Object.entries(queue.jobHandlers).map(([kind, handler]) => [
      kind,
      async (...args: Parameters<JobHandler>) => {
        try {
          await handler(...args)
        } catch (error) {
          refusals.push((error as Error).message)
          throw error
        }
      },
    ]),
  )
  startQueue(t, store, watched, { giveUpMs: 60_000 })
  await queue.enqueue({ type: 'inbox', id: 'early' })
  const waited = async (done: () => boolean | Promise<boolean>) => {
    for (let i = 0; i < 500 && !(await done()); i++) await new Promise((resolve) => setTimeout(resolve, 20))
  }
  // Nobody listens yet: the run throws, and the job waits for a retry rather than being lost.
  await waited(() => refusals.length > 0)
  t.strictSame(refusals.slice(0, 1), ['federation is not listening for messages on this instance'])
  t.equal(countOf(await store.countJobs(), 'inbox', 'done'), 0, 'not done while nobody listens')

  const listening = new AbortController()
  const stopped = queue.listen((message) => void heard.push(message), { signal: listening.signal })
  await queue.enqueue({ type: 'outbox', id: 'later' })
  await waited(async () => heard.length === 2)
  t.strictSame(
    heard.map((message) => (message as { id: string }).id).sort(),
    ['early', 'later'],
    'both reached the listener, the early one on its retry',
  )
  listening.abort()
  await stopped
  t.pass('listening ends with its signal')
})
