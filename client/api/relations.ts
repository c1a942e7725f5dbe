import { http, pageQuery } from './http.js'
import type { BlocksReply, MutesReply, Page, UserSummary } from './types.js'

/** Blocks and mutes: each answers with the person's summary. */
function change(action: 'block' | 'unblock' | 'mute' | 'unmute', userId: string, body: object = {}) {
  return http<{ user: UserSummary }>(`/users/${action}/${encodeURIComponent(userId)}`, { method: 'POST', body })
}

export const apiBlockUser = (userId: string) => change('block', userId)
export const apiUnblockUser = (userId: string) => change('unblock', userId)
/** For `duration` seconds; until unmuted without one. */
export const apiMuteUser = (userId: string, duration?: number) =>
  change('mute', userId, duration === undefined ? {} : { duration })
export const apiUnmuteUser = (userId: string) => change('unmute', userId)

export function apiGetBlocks(page: Page = {}): Promise<BlocksReply> {
  return http<BlocksReply>('/users/blocks', { query: pageQuery(page) })
}

export function apiGetMutes(page: Page = {}): Promise<MutesReply> {
  return http<MutesReply>('/users/mutes', { query: pageQuery(page) })
}
