import { http } from './http.js'
import type { PostData } from './types.js'

/** A scheduled post of mine, as the Mastodon routes answer it (DECISIONS §17). */
export type ScheduledStatus = {
  id: string
  scheduled_at: string
  params: { text: string; spoiler_text: string | null; poll: { options: string[] } | null; media_ids: string[] | null }
}

/** Keeps a post to be published at `scheduledAt`: POST /api/posts, which answers the scheduled post. */
export async function apiSchedulePost(
  postData: PostData,
  scheduledAt: string,
): Promise<{ _id: string; scheduledAt: string }> {
  const reply = await http<{ scheduledPost: { _id: string; scheduledAt: string } }>('/posts', {
    method: 'POST',
    body: { postData: { ...postData, scheduledAt } },
  })
  return reply.scheduledPost
}

/** Chirp's client lists, moves and cancels scheduled posts through the Mastodon routes, with its session token. */
export function apiScheduledStatuses(): Promise<ScheduledStatus[]> {
  return http<ScheduledStatus[]>('/v1/scheduled_statuses', { query: { limit: 40 } })
}

export function apiReschedule(id: string, scheduledAt: string): Promise<ScheduledStatus> {
  return http<ScheduledStatus>(`/v1/scheduled_statuses/${encodeURIComponent(id)}`, {
    method: 'PUT',
    body: { scheduled_at: scheduledAt },
  })
}

export async function apiCancelScheduled(id: string): Promise<void> {
  await http(`/v1/scheduled_statuses/${encodeURIComponent(id)}`, { method: 'DELETE' })
}
