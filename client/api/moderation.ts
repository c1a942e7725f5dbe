import { http, pageQuery } from './http.js'
import type {
  AuditLogReply,
  Invite,
  InvitesReply,
  ModeratedUser,
  ModeratedUsersReply,
  Page,
  FiledReport,
  Report,
  ReportBody,
  ReportsReply,
  ResolveAction,
  Role,
  SuspendBody,
} from './types.js'

/** Reporting a post, a comment or a person, and the calls of moderators and admins (docs/api-contract.md, DECISIONS §8). */

export function apiReport(body: ReportBody): Promise<{ report: FiledReport }> {
  return http<{ report: FiledReport }>('/reports', { method: 'POST', body })
}

export function apiGetReports(status: 'open' | 'resolved', page: Page): Promise<ReportsReply> {
  return http<ReportsReply>('/admin/reports', { query: { status, ...pageQuery(page) } })
}

export function apiResolveReport(id: string, action: ResolveAction, note: string): Promise<{ report: Report }> {
  const body = note.trim() === '' ? { action } : { action, note: note.trim() }
  return http<{ report: Report }>(`/admin/reports/${encodeURIComponent(id)}/resolve`, { method: 'POST', body })
}

export function apiGetModeratedUser(id: string): Promise<{ user: ModeratedUser }> {
  return http<{ user: ModeratedUser }>(`/admin/users/${encodeURIComponent(id)}`)
}

export function apiGetPendingUsers(page: Page): Promise<ModeratedUsersReply> {
  return http<ModeratedUsersReply>('/admin/users', { query: { status: 'pending', ...pageQuery(page) } })
}

type UserAction = 'suspend' | 'unsuspend' | 'approve' | 'reject' | 'role'

function onUser<R>(id: string, action: UserAction, body: object = {}): Promise<R> {
  return http<R>(`/admin/users/${encodeURIComponent(id)}/${action}`, { method: 'POST', body })
}

export const apiSuspendUser = (id: string, body: SuspendBody) => onUser<{ user: ModeratedUser }>(id, 'suspend', body)
export const apiUnsuspendUser = (id: string) => onUser<{ user: ModeratedUser }>(id, 'unsuspend')
export const apiApproveUser = (id: string) => onUser<{ user: ModeratedUser }>(id, 'approve')
/** Deletes the waiting signup. */
export const apiRejectUser = (id: string) => onUser<Record<string, never>>(id, 'reject')
export const apiSetRole = (id: string, role: Role) => onUser<{ user: ModeratedUser }>(id, 'role', { role })

export function apiGetAuditLog(page: Page): Promise<AuditLogReply> {
  return http<AuditLogReply>('/admin/log', { query: pageQuery(page) })
}

export function apiGetInvites(page: Page): Promise<InvitesReply> {
  return http<InvitesReply>('/invites', { query: pageQuery(page) })
}

/** `uses` (default 1) and `days` (absent: no end). */
export function apiCreateInvite(body: { uses?: number; days?: number }): Promise<{ invite: Invite }> {
  return http<{ invite: Invite }>('/invites', { method: 'POST', body })
}
