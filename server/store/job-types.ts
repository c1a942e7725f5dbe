/**
 * The job queue's records (DECISIONS §16): everything that happens after an answer is a job, kept by the
 * store beside the data it concerns, so a job enqueued in a write's transaction exists exactly when the
 * write does, and survives a restart or a kill -9 like any acknowledged write.
 */

import type { JobKind } from '../schemas/jobs.js'

export { JOB_KINDS, type JobKind } from '../schemas/jobs.js'

export const JOB_STATES = ['queued', 'running', 'done', 'failed'] as const
export type JobState = (typeof JOB_STATES)[number]

/** What a handler needs to know of its job: plain JSON, as the store keeps it. */
export type JobPayload = Readonly<Record<string, string | number | boolean | null>>

/** A job as it is enqueued. */
export interface NewJob {
  readonly _id: string
  readonly kind: JobKind
  readonly payload: JobPayload
  /** Not before then: now, or a delay (a poll's close, a retry's backoff). */
  readonly runAt: string
}

export interface JobRecord extends NewJob {
  readonly state: JobState
  /** Runs begun, the one under way included. */
  readonly attempts: number
  readonly createdAt: string
  /** When the first run began: retries give up a while after it. */
  readonly startedAt: string | null
  /** Whose run it is while running: the claim that took it. */
  readonly claim: string | null
  /** While running: when another worker may take it, its worker presumed dead. */
  readonly leaseUntil: string | null
  readonly lastError: string | null
  /** When it ended done or failed. */
  readonly finishedAt: string | null
}

/** A job handed to a worker: run it, then settle it under this claim. */
export interface ClaimedJob {
  readonly _id: string
  readonly kind: JobKind
  readonly payload: JobPayload
  readonly attempts: number
  readonly startedAt: string
  readonly claim: string
}

export interface JobClaimRequest {
  kinds: readonly JobKind[]
  limit: number
  at: string
  /** The claim's own id, which each of its jobs carries until settled. */
  claim: string
  leaseUntil: string
}

/**
 * How a run ended: done; queued again for `runAt` (with the error that ended the run, or null when the
 * worker gave the job back unrun, at shutdown, which does not count as an attempt); or failed for good.
 */
export type JobOutcome =
  { state: 'done' } | { state: 'queued'; runAt: string; error: string | null } | { state: 'failed'; error: string }

export interface JobCount {
  kind: JobKind
  state: JobState
  count: number
}

/**
 * The queue's operations beside the transactions: claims, settling and upkeep touch only jobs, so they
 * need neither a transaction's locks nor its event (on PostgreSQL a transaction without events tells
 * every instance to drop what it keeps). Enqueueing inside a write, and completing inside the effect's
 * transaction, are StoreTx's enqueueJob and completeJob.
 */
export interface JobStore {
  /** Enqueues jobs with no write to go with them (a mail asked for), once they are durable. */
  enqueueJobs(jobs: readonly NewJob[], at: string): Promise<void>
  /**
   * Takes up to `limit` jobs of these kinds that are due at `at` (queued with `runAt` passed, or running
   * with their lease run out), oldest `runAt` first, then by id: each counts a run and carries the claim.
   * Two claims at once, from any instances, never take one job.
   */
  claimJobs(request: JobClaimRequest): Promise<ClaimedJob[]>
  /**
   * Keeps a run's job its own until `leaseUntil`, as a live worker does while its run lasts; false,
   * changing nothing, unless the job is still running under this claim.
   */
  extendJobLease(id: string, claim: string, leaseUntil: string): Promise<boolean>
  /** Ends a run; false, changing nothing, unless the job is still running under this claim. */
  settleJob(id: string, claim: string, outcome: JobOutcome, at: string): Promise<boolean>
  /** Forgets done jobs that finished before `doneBefore` and failed ones before `failedBefore`: how many. */
  pruneJobs(doneBefore: string, failedBefore: string): Promise<number>
  /** How many jobs each kind has in each state; pairs with none are left out. */
  countJobs(): Promise<JobCount[]>
  /** The failed jobs, the latest failure first. */
  listFailedJobs(limit: number): Promise<JobRecord[]>
  /**
   * Called with each job's `runAt` once a claim can take it (on PostgreSQL once committed; on the embedded
   * store once in memory, its flush under way), for jobs enqueued in this process: a worker need not poll for it.
   * Resolves once every job enqueued from then on will be told of.
   */
  watchJobs(watcher: (runAt: string) => void): Promise<void>
}

/** A job as enqueueJob keeps it, before any run. */
export const queuedJob = (job: NewJob, at: string): JobRecord => ({
  _id: job._id,
  kind: job.kind,
  payload: job.payload,
  runAt: job.runAt,
  state: 'queued',
  attempts: 0,
  createdAt: at,
  startedAt: null,
  claim: null,
  leaseUntil: null,
  lastError: null,
  finishedAt: null,
})

/** The record after a run ends as `outcome` says. */
export function settled(job: JobRecord, outcome: JobOutcome, at: string): JobRecord {
  const ended = { ...job, claim: null, leaseUntil: null }
  if (outcome.state === 'done') return { ...ended, state: 'done', finishedAt: at }
  if (outcome.state === 'failed') return { ...ended, state: 'failed', lastError: outcome.error, finishedAt: at }
  return outcome.error === null
    ? { ...ended, state: 'queued', runAt: outcome.runAt, attempts: job.attempts - 1 }
    : { ...ended, state: 'queued', runAt: outcome.runAt, lastError: outcome.error }
}
