import { http, pageQuery } from './http.js'
import type { Page, UserSummary } from './types.js'

/** The people asking to follow my locked account, the oldest request first. */
export function apiGetFollowRequests(page: Page): Promise<{ users: UserSummary[]; nextCursor: string | null }> {
  return http('/follow-requests', { query: pageQuery(page) })
}

/** Accepts (`authorize`) or rejects the request of the person `userId`; answers with that person. */
export async function apiAnswerFollowRequest(userId: string, answer: 'authorize' | 'reject'): Promise<UserSummary> {
  const reply = await http<{ user: UserSummary }>(`/follow-requests/${encodeURIComponent(userId)}/${answer}`, {
    method: 'POST',
  })
  return reply.user
}
