import type { ScheduledPostRecord } from './types.js'

/** Scheduled posts the soonest first, the earlier made first among equals, as PostgreSQL orders them. */
export function soonestFirst(scheduled: readonly ScheduledPostRecord[] | undefined): ScheduledPostRecord[] {
  return [...(scheduled ?? [])].sort(
    (a, b) =>
      a.scheduledAt.localeCompare(b.scheduledAt) ||
      a.createdAt.localeCompare(b.createdAt) ||
      a._id.localeCompare(b._id),
  )
}
