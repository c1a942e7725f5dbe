import { createJobQueue, newJob } from '../../server/services/jobs.js'
import { PgStore } from '../../server/store/pg/pg-store.js'

/**
 * One instance of leg 18 on PostgreSQL, a process of its own: a store on the schema the parent names and
 * a queue of 8 workers on it, as a Chirp server runs them. The parent sends it jobs to enqueue
 * (`{ enqueue: [id, n] }`); it tells the parent of every run it starts (`{ started: [id, at] }`), and on
 * `collect` answers when it called enqueue for each job it was sent and when that enqueue was
 * acknowledged. Times are absolute (timeOrigin + now), so those of the two instances compare.
 */

type Message = { enqueue: [string, number] } | 'collect' | 'close'

const url = process.env.BENCH_DATABASE_URL
const schema = process.env.BENCH_SCHEMA
const send = process.send?.bind(process)
if (!url || !schema || !send)
  throw new Error('jobs-instance runs forked by leg 18, with BENCH_DATABASE_URL and BENCH_SCHEMA')

const clock = () => performance.timeOrigin + performance.now()
const store = await PgStore.open({ url, poolMax: 10, schema, seed: async () => ({ version: 1, users: [], posts: [] }) })
const queue = createJobQueue({
  store,
  now: () => new Date(),
  handlers: {
    push: async (job) => {
      send({ started: [job._id, clock()] })
    },
  },
  concurrency: 8,
  pollMs: 1000,
  leaseMs: 30_000,
  retryMs: 5000,
  giveUpMs: 3_600_000,
  log: (message, error) => console.error(message, error ?? ''),
})
queue.start()

const enqueued: [string, number][] = []
const acknowledged: [string, number][] = []

process.on('message', (message: Message) => {
  if (message === 'collect') {
    send({ enqueued, acknowledged })
  } else if (message === 'close') {
    void queue
      .close()
      .then(() => store.close())
      .then(() => process.exit(0))
  } else {
    const [id, n] = message.enqueue
    const at = new Date().toISOString()
    enqueued.push([id, clock()])
    store.enqueueJobs([newJob('push', { n }, at, id)], at).then(
      () => void acknowledged.push([id, clock()]),
      (error: unknown) => console.error(`job ${id} could not be enqueued`, error),
    )
  }
})
send('ready')
