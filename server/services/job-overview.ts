import { JOB_KINDS, type JobsReply } from '../schemas/jobs.js'
import type { ServiceDeps } from './deps.js'
import type { Admin } from './moderation-access.js'

/** How many of the latest failures the overview lists. */
const FAILURES_SHOWN = 50

/** The job queue as an admin sees it: every kind's jobs by state, and the latest failures with their error. */
export function createJobOverview({ store }: Pick<ServiceDeps, 'store'>) {
  return {
    async overview(_admin: Admin): Promise<JobsReply> {
      const [counts, failed] = await Promise.all([store.countJobs(), store.listFailedJobs(FAILURES_SHOWN)])
      const kinds = Object.fromEntries(
        JOB_KINDS.map((kind) => [kind, { queued: 0, running: 0, done: 0, failed: 0 }]),
      ) as JobsReply['kinds']
      for (const { kind, state, count } of counts) {
        const row = kinds[kind]
        if (row) row[state] = count
      }
      return {
        kinds,
        failures: failed.map((job) => ({
          _id: job._id,
          kind: job.kind,
          attempts: job.attempts,
          lastError: job.lastError ?? '',
          failedAt: job.finishedAt ?? job.runAt,
        })),
      }
    },
  }
}

export type JobOverview = ReturnType<typeof createJobOverview>
