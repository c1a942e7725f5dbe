import { randomUUID } from 'node:crypto'
import type { ClaimedJob, JobKind, JobPayload, NewJob, Store, StoreTx } from '../store/types.js'

/**
 * The job queue's workers (DECISIONS §16): every instance runs some, each claiming due jobs of the kinds
 * it has handlers for, so jobs spread over instances and none is run by two at once. A job is claimed
 * with a lease, which its worker renews while the run lasts, however long; a worker that dies lets its
 * jobs go when the lease runs out, and another takes them. A
 * run that throws is tried again after a backoff, from `retryMs` doubling, until `giveUpMs` after its
 * first run (48 times that for deliveries), and then fails for good with its last error.
 *
 * So a job runs at least once; its effect happens once because handlers make it so: a handler that can
 * ends its job inside the transaction of its effect (JobRun.complete), so the two commit together or not
 * at all, and one whose effect lies outside the store (a mail) carries a key that makes a repeat
 * recognisable (the job's id).
 */

export interface JobRun {
  /**
   * Aborted when the app closes (the job is given back to the queue unharmed and runs again later), or
   * when the run lost its job to another worker.
   */
  signal: AbortSignal
  /**
   * Ends the job inside the transaction of its effect. Throws JobTakenOver, failing that transaction, when
   * the job is no longer this run's (its lease ran out and another worker took it).
   */
  complete(tx: StoreTx): Promise<void>
}

export type JobHandler = (job: ClaimedJob, run: JobRun) => Promise<void>
export type JobHandlers = Partial<Record<JobKind, JobHandler>>

/** A run that no retry can mend: the job fails at once with this message. */
export class PermanentJobError extends Error {}

/** The run lost its job to another worker; its effect was rolled back. */
class JobTakenOver extends Error {}

export interface JobQueueOptions {
  store: Store
  now: () => Date
  handlers: JobHandlers
  /** Runs at once in this instance. */
  concurrency: number
  /** How often the queue is looked at when nothing wakes the workers: for jobs of other instances. */
  pollMs: number
  /** How long a claimed job is this worker's; past it, the worker is presumed dead. */
  leaseMs: number
  /** The first retry's delay, doubling after each. */
  retryMs: number
  /** How long after its first run a job is retried (deliveries: 48 times as long). */
  giveUpMs: number
  log: (message: string, error?: unknown) => void
}

/** How long finished jobs are kept: done ones a day, failed ones two weeks (docs/job-queue.md). */
const KEEP_DONE_MS = 24 * 3600_000
const KEEP_FAILED_MS = 14 * 24 * 3600_000
const PRUNE_EVERY_MS = 60_000

/** A job to enqueue now, or at `runAt`. */
export function newJob(kind: JobKind, payload: JobPayload, runAt: string, id: string = randomUUID()): NewJob {
  return { _id: id, kind, payload, runAt }
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 2000)

export function createJobQueue(options: JobQueueOptions) {
  const { store, now, handlers, concurrency, pollMs, leaseMs, log } = options
  const kinds = Object.keys(handlers) as JobKind[]
  const shutdown = new AbortController()
  const running = new Set<Promise<void>>()
  let pumping: Promise<void> | undefined
  let again = false
  let wakeTimer: NodeJS.Timeout | undefined
  let wakeAt = Infinity
  let pollTimer: NodeJS.Timeout | undefined
  let pruneTimer: NodeJS.Timeout | undefined

  /** Wakes the workers at `when` (ms since the epoch), unless they are due to wake sooner already. */
  function wakeAtTime(when: number) {
    if (shutdown.signal.aborted || when >= wakeAt) return
    clearTimeout(wakeTimer)
    wakeAt = when
    wakeTimer = setTimeout(
      () => {
        wakeAt = Infinity
        wake()
      },
      Math.max(0, when - now().getTime()),
    )
    wakeTimer.unref()
  }

  function wake() {
    if (shutdown.signal.aborted) return
    if (pumping) {
      again = true
      return
    }
    pumping = pump()
      .catch((error: unknown) => log('the job queue could not be read', error))
      .finally(() => {
        pumping = undefined
        if (again) {
          again = false
          wake()
        }
      })
  }

  /** Claims as many due jobs as there are free workers, and starts them. */
  async function pump() {
    while (!shutdown.signal.aborted && running.size < concurrency && kinds.length > 0) {
      const at = now()
      const limit = concurrency - running.size
      const claimed = await store.claimJobs({
        kinds,
        limit,
        at: at.toISOString(),
        claim: randomUUID(),
        leaseUntil: new Date(at.getTime() + leaseMs).toISOString(),
      })
      for (const job of claimed) start(job)
      if (claimed.length < limit) return
    }
  }

  function start(job: ClaimedJob) {
    const task = run(job).finally(() => {
      running.delete(task)
      wake()
    })
    running.add(task)
  }

  /**
   * Renews the run's lease every third of it while the run lasts, so only a dead worker loses its jobs;
   * `lost` is aborted if the job was taken over all the same (a renewal that came too late).
   */
  function holdLease(job: ClaimedJob, lost: AbortController): () => void {
    const timer = setInterval(() => {
      const until = new Date(now().getTime() + leaseMs).toISOString()
      store.extendJobLease(job._id, job.claim, until).then(
        (held) => {
          if (!held) lost.abort(new JobTakenOver())
        },
        (error: unknown) => log(`the lease of job ${job._id} (${job.kind}) could not be renewed`, error),
      )
    }, leaseMs / 3)
    timer.unref()
    return () => clearInterval(timer)
  }

  async function run(job: ClaimedJob) {
    const handler = handlers[job.kind]
    let completed = false
    const lost = new AbortController()
    const release = holdLease(job, lost)
    const runOf: JobRun = {
      signal: AbortSignal.any([shutdown.signal, lost.signal]),
      async complete(tx) {
        if (!(await tx.completeJob(job._id, job.claim, now().toISOString()))) throw new JobTakenOver()
        completed = true
      },
    }
    try {
      // Claimed as the app began to close: given back before it starts.
      if (shutdown.signal.aborted) throw shutdown.signal.reason
      if (!handler) throw new PermanentJobError(`no handler for ${job.kind} jobs`)
      await handler(job, runOf)
      if (!completed) await settle(job, { state: 'done' })
    } catch (error) {
      if (error instanceof JobTakenOver || lost.signal.aborted)
        log(`job ${job._id} (${job.kind}) was taken over by another worker`)
      else if (shutdown.signal.aborted) await settle(job, { state: 'queued', runAt: now().toISOString(), error: null })
      else await retryOrFail(job, error)
    } finally {
      release()
    }
  }

  async function retryOrFail(job: ClaimedJob, error: unknown) {
    const at = now().getTime()
    const delay = options.retryMs * 2 ** (job.attempts - 1)
    const window = job.kind === 'delivery' ? options.giveUpMs * 48 : options.giveUpMs
    if (error instanceof PermanentJobError || at + delay > Date.parse(job.startedAt) + window) {
      log(`job ${job._id} (${job.kind}) failed after ${job.attempts} attempts`, error)
      await settle(job, { state: 'failed', error: messageOf(error) })
    } else {
      await settle(job, { state: 'queued', runAt: new Date(at + delay).toISOString(), error: messageOf(error) })
      wakeAtTime(at + delay)
    }
  }

  async function settle(job: ClaimedJob, outcome: Parameters<Store['settleJob']>[2]) {
    try {
      if (!(await store.settleJob(job._id, job.claim, outcome, now().toISOString())))
        log(`job ${job._id} (${job.kind}) had been taken over by another worker when its run ended`)
    } catch (error) {
      // Its lease runs out and the job runs again: at least once still holds.
      log(`the end of job ${job._id} (${job.kind}) could not be recorded`, error)
    }
  }

  async function prune() {
    const at = now().getTime()
    await store.pruneJobs(new Date(at - KEEP_DONE_MS).toISOString(), new Date(at - KEEP_FAILED_MS).toISOString())
  }

  return {
    /** Starts the workers: they look at the queue now, whenever this instance enqueues, and every `pollMs`. */
    start() {
      void store.watchJobs((runAt) => wakeAtTime(Date.parse(runAt)))
      pollTimer = setInterval(wake, pollMs).unref()
      pruneTimer = setInterval(() => {
        prune().catch((error: unknown) => log('finished jobs could not be pruned', error))
      }, PRUNE_EVERY_MS).unref()
      wake()
    },

    /**
     * Stops claiming, tells the runs under way to stop, and waits for every one of them to end: each is
     * recorded done, or given back to the queue, before the store closes.
     */
    async close() {
      shutdown.abort()
      clearTimeout(wakeTimer)
      clearInterval(pollTimer)
      clearInterval(pruneTimer)
      await pumping
      await Promise.allSettled([...running])
    },
  }
}
