import { claimedOf, type JobIndex } from './job-index.js'
import {
  queuedJob,
  settled,
  type ClaimedJob,
  type JobClaimRequest,
  type JobOutcome,
  type JobRecord,
  type JobStore,
  type NewJob,
} from './job-types.js'

/** Jobs to store and ids to forget, and what the operation answers. */
export interface JobChange<T> {
  put: readonly JobRecord[]
  remove?: readonly string[]
  /** New jobs: their watchers are told once the change is in memory, where a claim can take them. */
  queued?: readonly JobRecord[]
  answer: T
}

/**
 * The embedded store's job operations. Each change runs behind the store's mutex, like a transaction.
 * An enqueue resolves once it is on disk, as an acknowledged write does. A claim or an ending is written
 * with the next flush without being waited for: lost to a crash, it leaves the job queued, to run again
 * at the next start (at least once still holds; an effect ended with its job in one transaction was
 * flushed with it). Waiting for them put a flush or two between every job and the next.
 *
 * A new job can be claimed as soon as it is in memory, before its flush, as every read of this store
 * sees a write before it is on disk; so its watchers are told then too, not after the flush (which on a
 * busy disk took up to a tenth of a second). A crash cannot lose an acknowledged job this way, nor run
 * one twice: flushes land in order, so a claim, an ending, or an effect completed with the job is never
 * on disk without the enqueue before it; a crash before the enqueue's flush forgets the job with the
 * unanswered write that made it, and one after it finds the job queued, as it would have anyway.
 */
export class EmbeddedJobs implements JobStore {
  readonly #watchers: ((runAt: string) => void)[] = []

  constructor(
    private readonly index: JobIndex,
    private readonly change: <T>(work: () => JobChange<T>, durable?: boolean) => Promise<T>,
  ) {}

  async enqueueJobs(jobs: readonly NewJob[], at: string): Promise<void> {
    await this.change(() => {
      const put = jobs.map((job) => Object.freeze(queuedJob(job, at)))
      return { put, queued: put, answer: undefined }
    })
  }

  async claimJobs(request: JobClaimRequest): Promise<ClaimedJob[]> {
    const taken = await this.change(() => {
      const due = this.index.due(request).map((job) => Object.freeze(job))
      return { put: due, answer: due }
    }, false)
    return taken.map(claimedOf)
  }

  extendJobLease(id: string, claim: string, leaseUntil: string): Promise<boolean> {
    return this.change(() => {
      const job = this.index.get(id)
      if (job?.state !== 'running' || job.claim !== claim) return { put: [], answer: false }
      return { put: [Object.freeze({ ...job, leaseUntil })], answer: true }
    }, false)
  }

  settleJob(id: string, claim: string, outcome: JobOutcome, at: string): Promise<boolean> {
    return this.change(() => {
      const job = this.index.get(id)
      if (job?.state !== 'running' || job.claim !== claim) return { put: [], answer: false }
      return { put: [Object.freeze(settled(job, outcome, at))], answer: true }
    }, false)
  }

  pruneJobs(doneBefore: string, failedBefore: string): Promise<number> {
    return this.change(() => {
      const remove = this.index.expired(doneBefore, failedBefore)
      return { put: [], remove, answer: remove.length }
    })
  }

  async countJobs() {
    return this.index.counts()
  }

  async listFailedJobs(limit: number) {
    return this.index.failed(limit)
  }

  async watchJobs(watcher: (runAt: string) => void): Promise<void> {
    this.#watchers.push(watcher)
  }

  /** Tells the watchers of jobs now in memory, where a claim can take them. */
  queued(jobs: Iterable<Pick<JobRecord, 'runAt'>>): void {
    for (const job of jobs) for (const watcher of this.#watchers) watcher(job.runAt)
  }
}
