import {
  JOB_KINDS,
  JOB_STATES,
  type ClaimedJob,
  type JobClaimRequest,
  type JobCount,
  type JobKind,
  type JobOutcome,
  type JobPayload,
  type JobRecord,
  type JobState,
  type NewJob,
} from '../job-types.js'
import type { Queryable } from './connect.js'
import { isUuid } from './records.js'

/**
 * The job queue on PostgreSQL (migration 18). A claim locks due rows with SKIP LOCKED, so claims of
 * several instances at once pass each other by instead of waiting or taking one row twice; every ending
 * names the claim it ends, so a run whose lease ran out and was taken over cannot end the new run.
 */

interface JobRow {
  id: string
  kind: JobKind
  payload: JobPayload
  state: JobState
  run_at: Date
  attempts: number
  created_at: Date
  started_at: Date | null
  claim: string | null
  lease_until: Date | null
  last_error: string | null
  finished_at: Date | null
}

const iso = (date: Date | null) => (date === null ? null : date.toISOString())

const toJobRecord = (row: JobRow): JobRecord => ({
  _id: row.id,
  kind: row.kind,
  payload: row.payload,
  runAt: row.run_at.toISOString(),
  state: row.state,
  attempts: row.attempts,
  createdAt: row.created_at.toISOString(),
  startedAt: iso(row.started_at),
  claim: row.claim,
  leaseUntil: iso(row.lease_until),
  lastError: row.last_error,
  finishedAt: iso(row.finished_at),
})

/** The schema's channel for new jobs, so instances on other schemas of one database never hear them. */
export const jobsChannelOf = (schema: string) => `chirp_jobs_${schema}`

/** Who enqueued, and when the earliest of the jobs is due: what a NOTIFY on the jobs channel says. */
export interface JobsNotice {
  channel: string
  /** The enqueuing instance, which wakes its own workers without hearing itself. */
  sender: string
}

/**
 * The jobs, and in the same statement a NOTIFY that PostgreSQL delivers when they commit, and only then;
 * without `notice` (a database written before any instance runs on it) the jobs alone.
 */
export async function enqueueJobs(
  sql: Queryable,
  jobs: readonly NewJob[],
  at: string,
  notice?: JobsNotice,
): Promise<void> {
  if (jobs.length === 0) return
  const rows = jobs.map((job) => ({
    id: job._id,
    kind: job.kind,
    payload: sql.json(job.payload as Record<string, string>),
    run_at: job.runAt,
    created_at: at,
  }))
  if (!notice) {
    await sql`INSERT INTO jobs ${sql(rows)}`
    return
  }
  const due = jobs.reduce((earliest, job) => (job.runAt < earliest ? job.runAt : earliest), jobs[0]?.runAt ?? at)
  await sql`
    WITH added AS (INSERT INTO jobs ${sql(rows)})
    SELECT pg_notify(${notice.channel}, ${`${notice.sender} ${due}`})`
}

/** A notice's sender and due time, or undefined for a payload that is not one. */
export function parseJobsNotice(payload: string): { sender: string; runAt: string } | undefined {
  const [sender, runAt, ...rest] = payload.split(' ')
  if (!sender || !runAt || rest.length > 0 || Number.isNaN(Date.parse(runAt))) return undefined
  return { sender, runAt }
}

/**
 * A CTE that makes the statement's own transaction commit without waiting for its WAL to reach the disk.
 * For claims, renewals and endings alone: lost to a crash of PostgreSQL, each leaves the job to run again,
 * as at least once allows, and never records an effect without its claim (the WAL is written in order, so
 * an effect's commit, which does wait, makes every earlier claim durable with it). The enqueue, and an
 * effect completed with its job, wait as every write does. Each start would otherwise wait for two
 * flushes of the WAL (its enqueue's and its claim's), and each worker for one more before the next job.
 */
const unhurried = (sql: Queryable) => sql`unhurried AS (SELECT set_config('synchronous_commit', 'off', true))`

export async function claimJobs(sql: Queryable, request: JobClaimRequest): Promise<ClaimedJob[]> {
  const { kinds, limit, at, claim, leaseUntil } = request
  if (limit <= 0 || kinds.length === 0) return []
  // Two small lookups, each on its own partial index: the due queue, and runs whose worker is presumed dead.
  const rows = await sql<JobRow[]>`
    WITH ${unhurried(sql)}, due AS (
      SELECT id, run_at FROM jobs
      WHERE state = 'queued' AND run_at <= ${at} AND kind = ANY(${kinds as string[]}::text[])
      ORDER BY run_at, id LIMIT ${limit} FOR UPDATE SKIP LOCKED
    ), stale AS (
      SELECT id, run_at FROM jobs
      WHERE state = 'running' AND lease_until <= ${at} AND kind = ANY(${kinds as string[]}::text[])
      ORDER BY run_at, id LIMIT ${limit} FOR UPDATE SKIP LOCKED
    ), taken AS (
      SELECT id FROM (SELECT * FROM due UNION ALL SELECT * FROM stale) both_ ORDER BY run_at, id LIMIT ${limit}
    )
    UPDATE jobs j SET state = 'running', attempts = j.attempts + 1, started_at = coalesce(j.started_at, ${at}),
      claim = ${claim}, lease_until = ${leaseUntil}
    FROM taken, unhurried WHERE j.id = taken.id
    RETURNING j.*`
  return rows
    .map(toJobRecord)
    .sort((a, b) => (a.runAt < b.runAt ? -1 : a.runAt > b.runAt ? 1 : a._id < b._id ? -1 : 1))
    .map((job) => ({
      _id: job._id,
      kind: job.kind,
      payload: job.payload,
      attempts: job.attempts,
      startedAt: job.startedAt ?? at,
      claim,
    }))
}

export async function extendJobLease(sql: Queryable, id: string, claim: string, leaseUntil: string): Promise<boolean> {
  if (!isUuid(id) || !isUuid(claim)) return false
  const rows = await sql`
    WITH ${unhurried(sql)}
    UPDATE jobs SET lease_until = ${leaseUntil} FROM unhurried
    WHERE id = ${id} AND state = 'running' AND claim = ${claim} RETURNING id`
  return rows.length > 0
}

export function settleJob(
  sql: Queryable,
  id: string,
  claim: string,
  outcome: JobOutcome,
  at: string,
): Promise<boolean> {
  return endRun(sql, id, claim, outcome, at, true)
}

async function endRun(
  sql: Queryable,
  id: string,
  claim: string,
  outcome: JobOutcome,
  at: string,
  /** Alone, not inside the transaction of an effect: it need not wait for the WAL (see unhurried). */
  alone: boolean,
): Promise<boolean> {
  if (!isUuid(id) || !isUuid(claim)) return false
  const change =
    outcome.state === 'done'
      ? sql`state = 'done', finished_at = ${at}`
      : outcome.state === 'failed'
        ? sql`state = 'failed', finished_at = ${at}, last_error = ${outcome.error}`
        : outcome.error === null
          ? sql`state = 'queued', run_at = ${outcome.runAt}, attempts = attempts - 1`
          : sql`state = 'queued', run_at = ${outcome.runAt}, last_error = ${outcome.error}`
  const rows = alone
    ? await sql`
        WITH ${unhurried(sql)}
        UPDATE jobs SET ${change}, claim = NULL, lease_until = NULL FROM unhurried
        WHERE id = ${id} AND state = 'running' AND claim = ${claim} RETURNING id`
    : await sql`
        UPDATE jobs SET ${change}, claim = NULL, lease_until = NULL
        WHERE id = ${id} AND state = 'running' AND claim = ${claim} RETURNING id`
  return rows.length > 0
}

/** In batches, so a long backlog of finished jobs never holds one long statement. */
export async function pruneJobs(sql: Queryable, doneBefore: string, failedBefore: string): Promise<number> {
  const rows = await sql`
    DELETE FROM jobs WHERE id IN (
      SELECT id FROM jobs WHERE state IN ('done', 'failed')
        AND finished_at < (CASE WHEN state = 'done' THEN ${doneBefore} ELSE ${failedBefore} END)::timestamptz
      LIMIT 10000)
    RETURNING id`
  return rows.length
}

export async function countJobs(sql: Queryable): Promise<JobCount[]> {
  const rows = await sql<{ kind: JobKind; state: JobState; count: number }[]>`
    SELECT kind, state, count(*)::int AS count FROM jobs GROUP BY kind, state`
  const order = (count: { kind: JobKind; state: JobState }) =>
    JOB_KINDS.indexOf(count.kind) * JOB_STATES.length + JOB_STATES.indexOf(count.state)
  return rows.map((row) => ({ kind: row.kind, state: row.state, count: row.count })).sort((a, b) => order(a) - order(b))
}

export async function listFailedJobs(sql: Queryable, limit: number): Promise<JobRecord[]> {
  const rows = await sql<JobRow[]>`
    SELECT * FROM jobs WHERE state = 'failed' ORDER BY finished_at DESC, id LIMIT ${Math.max(0, limit)}`
  return rows.map(toJobRecord)
}

/** Inside the effect's transaction: the row stays locked until it commits, so no claim takes it meanwhile. */
export async function completeJob(sql: Queryable, id: string, claim: string, at: string): Promise<boolean> {
  return endRun(sql, id, claim, { state: 'done' }, at, false)
}
