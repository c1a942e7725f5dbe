import {
  JOB_KINDS,
  JOB_STATES,
  queuedJob,
  type ClaimedJob,
  type JobClaimRequest,
  type JobCount,
  type JobRecord,
  type JobState,
} from './job-types.js'
import type { PostRecord } from './types.js'

const byDue = (a: JobRecord, b: JobRecord) =>
  a.runAt < b.runAt ? -1 : a.runAt > b.runAt ? 1 : a._id < b._id ? -1 : a._id > b._id ? 1 : 0

/**
 * The embedded store's jobs. Those still to run (queued or running) are kept apart, so a claim looks at
 * them alone, however many finished jobs are kept; counts are kept as jobs change, for the admin's view.
 */
export class JobIndex {
  readonly #byId = new Map<string, JobRecord>()
  readonly #unfinished = new Map<string, JobRecord>()
  readonly #counts = new Map<string, number>()

  /**
   * A job found running when the database is read was being run by a process that is gone: the data
   * directory's lock proves no other one holds it, so it is due again at once.
   */
  load(records: readonly JobRecord[]): void {
    this.#byId.clear()
    this.#unfinished.clear()
    this.#counts.clear()
    for (const record of records) {
      this.put(
        record.state === 'running'
          ? Object.freeze({ ...record, state: 'queued' as const, claim: null, leaseUntil: null })
          : Object.freeze(record),
      )
    }
  }

  get(id: string): JobRecord | undefined {
    return this.#byId.get(id)
  }

  put(record: JobRecord): void {
    this.delete(record._id)
    this.#byId.set(record._id, record)
    if (record.state === 'queued' || record.state === 'running') this.#unfinished.set(record._id, record)
    this.#count(record, 1)
  }

  delete(id: string): void {
    const old = this.#byId.get(id)
    if (!old) return
    this.#byId.delete(id)
    this.#unfinished.delete(id)
    this.#count(old, -1)
  }

  /** The jobs a claim takes, as they are once taken: the caller stores them. */
  due({ kinds, limit, at, claim, leaseUntil }: JobClaimRequest): JobRecord[] {
    const wanted = new Set(kinds)
    const due = [...this.#unfinished.values()]
      .filter(
        (job) =>
          wanted.has(job.kind) &&
          ((job.state === 'queued' && job.runAt <= at) ||
            (job.state === 'running' && job.leaseUntil !== null && job.leaseUntil <= at)),
      )
      .sort(byDue)
      .slice(0, Math.max(0, limit))
    return due.map((job) => ({
      ...job,
      state: 'running',
      attempts: job.attempts + 1,
      startedAt: job.startedAt ?? at,
      claim,
      leaseUntil,
    }))
  }

  /** Finished jobs past their keeping. */
  expired(doneBefore: string, failedBefore: string): string[] {
    const ids: string[] = []
    for (const job of this.#byId.values()) {
      if (job.finishedAt === null) continue
      if (job.finishedAt < (job.state === 'done' ? doneBefore : failedBefore)) ids.push(job._id)
    }
    return ids
  }

  counts(): JobCount[] {
    const counts: JobCount[] = []
    for (const kind of JOB_KINDS) {
      for (const state of JOB_STATES) {
        const count = this.#counts.get(`${kind} ${state}`) ?? 0
        if (count > 0) counts.push({ kind, state, count })
      }
    }
    return counts
  }

  /** Walks every job kept: only an account's deletion asks. Addresses are compared without regard to case. */
  naming(postIds: readonly string[], email: string): string[] {
    const posts = new Set(postIds)
    const address = email.toLowerCase()
    const named = (job: JobRecord) => {
      const { postId, email: to } = job.payload
      return (
        (typeof postId === 'string' && posts.has(postId)) || (typeof to === 'string' && to.toLowerCase() === address)
      )
    }
    return [...this.#byId.values()].filter(named).map((job) => job._id)
  }

  failed(limit: number): JobRecord[] {
    return [...this.#byId.values()]
      .filter((job) => job.state === 'failed')
      .sort((a, b) => {
        const [x, y] = [a.finishedAt ?? '', b.finishedAt ?? '']
        return x < y ? 1 : x > y ? -1 : a._id < b._id ? -1 : 1
      })
      .slice(0, Math.max(0, limit))
  }

  #count(job: { kind: string; state: JobState }, by: number) {
    const key = `${job.kind} ${job.state}`
    this.#counts.set(key, (this.#counts.get(key) ?? 0) + by)
  }
}

/** The job handed to a worker, from the record a claim stored. */
export const claimedOf = (job: JobRecord): ClaimedJob => ({
  _id: job._id,
  kind: job.kind,
  payload: job.payload,
  attempts: job.attempts,
  startedAt: job.startedAt ?? job.runAt,
  claim: job.claim ?? '',
})

/**
 * The jobs a database written before the queue lacks: one `poll-close` for each poll nobody noticed closed
 * yet, due when it closes, as services/polls.ts enqueues them for new polls. Their ids come from the
 * post's, so reading the same old database twice makes the same jobs.
 */
export function pollCloseJobs(posts: Iterable<PostRecord>, at: string): JobRecord[] {
  const jobs: JobRecord[] = []
  for (const post of posts) {
    if (!post.poll || post.poll.closeNoticed) continue
    jobs.push(
      queuedJob({ _id: post._id, kind: 'poll-close', payload: { postId: post._id }, runAt: post.poll.closesAt }, at),
    )
  }
  return jobs
}
