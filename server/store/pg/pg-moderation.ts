import type postgres from 'postgres'
import { CURSOR } from '../cursor.js'
import type {
  AuditEntryRecord,
  InviteRecord,
  Page,
  PageRequest,
  ReportRecord,
  ReportResolution,
  ReportStatus,
  UserRecord,
} from '../types.js'
import type { Queryable } from './connect.js'
import { limitOf, pageFrom, readCursor } from './keyset.js'
import { isUuid, toUserRecord, userColumns, type UserRow } from './records.js'

/** The records of moderation on PostgreSQL (migration 8): reports, the audit log, invites and pending signups. */

interface ReportRow {
  id: string
  reporter_id: string
  target_type: ReportRecord['targetType']
  target_id: string
  post_id: string | null
  subject_id: string
  snapshot: object
  category: ReportRecord['category']
  comment: string
  status: ReportStatus
  action: ReportResolution['action'] | null
  note: string | null
  resolved_by: string | null
  created_at: Date
  resolved_at: Date | null
}

const toReport = (row: ReportRow): ReportRecord => ({
  _id: row.id,
  reporterId: row.reporter_id,
  targetType: row.target_type,
  targetId: row.target_id,
  ...(row.post_id !== null ? { postId: row.post_id } : {}),
  subjectId: row.subject_id,
  snapshot: row.snapshot,
  category: row.category,
  comment: row.comment,
  status: row.status,
  createdAt: row.created_at.toISOString(),
  ...(row.action !== null ? { action: row.action } : {}),
  ...(row.note !== null ? { note: row.note } : {}),
  ...(row.resolved_by !== null ? { resolvedBy: row.resolved_by } : {}),
  ...(row.resolved_at !== null ? { resolvedAt: row.resolved_at.toISOString() } : {}),
})

interface AuditRow {
  id: string
  actor_id: string | null
  action: string
  target_type: string
  target_id: string
  reason: string | null
  created_at: Date
}

const toAuditEntry = (row: AuditRow): AuditEntryRecord => ({
  _id: row.id,
  actorId: row.actor_id,
  action: row.action,
  targetType: row.target_type,
  targetId: row.target_id,
  ...(row.reason !== null ? { reason: row.reason } : {}),
  createdAt: row.created_at.toISOString(),
})

interface InviteRow {
  code: string
  created_by: string
  uses: number
  used: number
  expires_at: Date | null
  created_at: Date
}

const toInvite = (row: InviteRow): InviteRecord => ({
  _id: row.code,
  createdBy: row.created_by,
  uses: row.uses,
  used: row.used,
  expiresAt: row.expires_at?.toISOString() ?? null,
  createdAt: row.created_at.toISOString(),
})

/** That a row comes after the cursor, newest first, by (created_at, its key); true without a cursor. */
function olderThan(sql: Queryable, page: PageRequest, key: 'id' | 'code') {
  if (page.cursor === undefined) return sql`true`
  const [at, id] = readCursor(page.cursor, CURSOR.byTime)
  return key === 'id' ? sql`(created_at, id) < (${at}, ${id}::uuid)` : sql`(created_at, code) < (${at}, ${id})`
}

export async function getReport(sql: Queryable, id: string): Promise<ReportRecord | undefined> {
  if (!isUuid(id)) return undefined
  const [row] = await sql<ReportRow[]>`SELECT * FROM reports WHERE id = ${id}`
  return row && toReport(row)
}

export async function listReports(sql: Queryable, status: ReportStatus, page: PageRequest) {
  const rows = await sql<ReportRow[]>`
    SELECT * FROM reports WHERE status = ${status} AND ${olderThan(sql, page, 'id')}
    ORDER BY created_at DESC, id DESC ${limitOf(sql, page.limit)}`
  return pageFrom(rows, page.limit, (row) => [row.created_at.toISOString(), row.id], toReport)
}

export async function countOpenReports(sql: Queryable): Promise<number> {
  const [row] = await sql<{ count: number }[]>`SELECT count(*)::int AS count FROM reports WHERE status = 'open'`
  return row?.count ?? 0
}

export async function countReportsSince(sql: Queryable, reporterId: string, since: string): Promise<number> {
  if (!isUuid(reporterId)) return 0
  const [row] = await sql<{ count: number }[]>`
    SELECT count(*)::int AS count FROM reports WHERE reporter_id = ${reporterId} AND created_at >= ${since}`
  return row?.count ?? 0
}

export async function listAuditLog(sql: Queryable, page: PageRequest): Promise<Page<AuditEntryRecord>> {
  const rows = await sql<AuditRow[]>`
    SELECT * FROM audit_log WHERE ${olderThan(sql, page, 'id')}
    ORDER BY created_at DESC, id DESC ${limitOf(sql, page.limit)}`
  return pageFrom(rows, page.limit, (row) => [row.created_at.toISOString(), row.id], toAuditEntry)
}

export async function listInvites(sql: Queryable, page: PageRequest): Promise<Page<InviteRecord>> {
  const rows = await sql<InviteRow[]>`
    SELECT * FROM invites WHERE ${olderThan(sql, page, 'code')}
    ORDER BY created_at DESC, code DESC ${limitOf(sql, page.limit)}`
  return pageFrom(rows, page.limit, (row) => [row.created_at.toISOString(), row.code], toInvite)
}

export async function listPendingUsers(sql: Queryable, page: PageRequest): Promise<Page<UserRecord>> {
  let after = sql``
  if (page.cursor !== undefined) {
    const [at, id] = readCursor(page.cursor, CURSOR.byTime)
    after = sql`AND (u.created_at, u.id) > (${at}, ${id}::uuid)`
  }
  const rows = await sql<UserRow[]>`
    SELECT ${userColumns(sql)} FROM users u WHERE u.pending ${after}
    ORDER BY u.created_at, u.id ${limitOf(sql, page.limit)}`
  return pageFrom(rows, page.limit, (row) => [row.created_at.toISOString(), row.id], toUserRecord)
}

export async function listStaffIds(sql: Queryable): Promise<string[]> {
  const rows = await sql<{ id: string }[]>`SELECT id FROM users WHERE role <> 'user'`
  return rows.map((row) => row.id)
}

export async function listSuspended(sql: Queryable, at: string): Promise<{ userId: string; until: string | null }[]> {
  const rows = await sql<{ id: string; until: string | null }[]>`
    SELECT id, suspension->>'until' AS until FROM users
    WHERE suspension IS NOT NULL AND (suspension->>'until' IS NULL OR (suspension->>'until')::timestamptz > ${at})`
  return rows.map((row) => ({ userId: row.id, until: row.until === null ? null : new Date(row.until).toISOString() }))
}

export async function addReport(sql: Queryable, report: ReportRecord): Promise<void> {
  await sql`
    INSERT INTO reports (id, reporter_id, target_type, target_id, post_id, subject_id, snapshot, category, comment,
      status, created_at)
    VALUES (${report._id}, ${report.reporterId}, ${report.targetType}, ${report.targetId}, ${report.postId ?? null},
      ${report.subjectId}, ${sql.json(report.snapshot as postgres.JSONValue)}, ${report.category}, ${report.comment},
      ${report.status}, ${report.createdAt})`
}

/** Only an open report changes: the status check and the change are one statement, so two resolves cannot both win. */
export async function resolveReport(
  sql: Queryable,
  id: string,
  { action, note, resolvedBy, resolvedAt }: ReportResolution,
): Promise<ReportRecord | undefined> {
  if (!isUuid(id)) return undefined
  const [row] = await sql<ReportRow[]>`
    UPDATE reports SET status = 'resolved', action = ${action}, note = ${note}, resolved_by = ${resolvedBy},
      resolved_at = ${resolvedAt}
    WHERE id = ${id} AND status = 'open' RETURNING *`
  return row && toReport(row)
}

export async function addAuditEntry(sql: Queryable, entry: AuditEntryRecord): Promise<void> {
  await sql`
    INSERT INTO audit_log (id, actor_id, action, target_type, target_id, reason, created_at)
    VALUES (${entry._id}, ${entry.actorId}, ${entry.action}, ${entry.targetType}, ${entry.targetId},
      ${entry.reason ?? null}, ${entry.createdAt})`
}

export async function addInvite(sql: Queryable, invite: InviteRecord): Promise<void> {
  await sql`
    INSERT INTO invites (code, created_by, uses, used, expires_at, created_at)
    VALUES (${invite._id}, ${invite.createdBy}, ${invite.uses}, ${invite.used}, ${invite.expiresAt}, ${invite.createdAt})`
}

/** One statement checks and counts, so the last use cannot be taken twice. */
export async function useInvite(sql: Queryable, code: string, at: string): Promise<boolean> {
  const rows = await sql`
    UPDATE invites SET used = used + 1
    WHERE code = ${code} AND used < uses AND (expires_at IS NULL OR expires_at > ${at}) RETURNING code`
  return rows.length === 1
}
