import { http, pageQuery } from './http.js'
import type { NotificationsReply, Page, UnreadReply } from './types.js'

export function apiGetNotifications(page: Page): Promise<NotificationsReply> {
  return http<NotificationsReply>('/notifications', { query: pageQuery(page) })
}

/** Marks read every notification up to and including `before` (all of them without it); answers how many are left unread. */
export async function apiMarkNotificationsRead(before?: string): Promise<number> {
  const reply = await http<UnreadReply>('/notifications/read', { method: 'POST', body: before ? { before } : {} })
  return reply.unread
}
