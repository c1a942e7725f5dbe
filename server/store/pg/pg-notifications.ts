import { CURSOR } from '../cursor.js'
import type {
  NotificationIdentity,
  NotificationMatch,
  NotificationRecord,
  NotificationType,
  Page,
  PageRequest,
  UnreadCount,
} from '../types.js'
import type { Queryable } from './connect.js'
import { inAudience } from './audience-sql.js'
import { hidden, limitOf, pageFrom, readCursor } from './keyset.js'
import { isUuid } from './records.js'

interface NotificationRow {
  id: string
  recipient_id: string
  type: NotificationType
  actor_id: string
  post_id: string | null
  comment_id: string | null
  created_at: Date
  read: boolean
}

const columns = (sql: Queryable) =>
  sql`n.id, n.recipient_id, n.type, n.actor_id, n.post_id, n.comment_id, n.created_at, n.read`

/** Optional fields are left out when NULL, as the embedded store never holds `undefined`. */
const toNotificationRecord = (row: NotificationRow): NotificationRecord => ({
  _id: row.id,
  recipientId: row.recipient_id,
  type: row.type,
  actorId: row.actor_id,
  ...(row.post_id !== null ? { postId: row.post_id } : {}),
  ...(row.comment_id !== null ? { commentId: row.comment_id } : {}),
  createdAt: row.created_at.toISOString(),
  read: row.read,
})

export const notificationRow = (n: NotificationRecord) => ({
  id: n._id,
  recipient_id: n.recipientId,
  type: n.type,
  actor_id: n.actorId,
  post_id: n.postId ?? null,
  comment_id: n.commentId ?? null,
  created_at: n.createdAt,
  read: n.read,
})

/** Ids reach here from URLs too: one that is no uuid names nothing, rather than failing the statement. */
const known = (n: { recipientId?: string; actorId?: string; postId?: string; commentId?: string }) =>
  [n.recipientId, n.actorId, n.postId, n.commentId].every((id) => id === undefined || isUuid(id))

export async function getNotification(sql: Queryable, id: string): Promise<NotificationRecord | undefined> {
  if (!isUuid(id)) return undefined
  const [row] = await sql<NotificationRow[]>`SELECT ${columns(sql)} FROM notifications n WHERE n.id = ${id}`
  return row && toNotificationRecord(row)
}

/**
 * The notifications its recipient is shown: one about a post only while they may read it (the `readable`
 * scope), the post found by its primary key (`p`, joined to `n`).
 */
const shownTo = (sql: Queryable, userId: string) =>
  sql`AND (p.id IS NULL OR (true ${inAudience(sql, { kind: 'readable', readerId: userId })}))`

/** Newest first, by the notifications_page index. */
export async function listNotifications(
  sql: Queryable,
  userId: string,
  page: PageRequest,
): Promise<Page<NotificationRecord>> {
  if (!isUuid(userId)) return { items: [], nextCursor: null }
  let after = sql``
  if (page.cursor !== undefined) {
    const [at, id] = readCursor(page.cursor, CURSOR.byTime)
    after = sql`AND (n.created_at, n.id) < (${at}, ${id}::uuid)`
  }
  const rows = await sql<NotificationRow[]>`
    SELECT ${columns(sql)} FROM notifications n LEFT JOIN posts p ON p.id = n.post_id
    WHERE n.recipient_id = ${userId} ${after} ${hidden(sql, 'n.actor_id', page.hide)} ${shownTo(sql, userId)}
    ORDER BY n.created_at DESC, n.id DESC ${limitOf(sql, page.limit)}`
  return pageFrom(rows, page.limit, (row) => [row.created_at.toISOString(), row.id], toNotificationRecord)
}

/**
 * The unread ones listNotifications shows, by the notifications_unread index: the count kept on the user's
 * row counts them all, those about posts the user may no longer read too.
 */
export async function countUnread(sql: Queryable, userId: string): Promise<number> {
  if (!isUuid(userId)) return 0
  const [row] = await sql<{ unread: number }[]>`
    SELECT count(*)::int AS unread FROM notifications n LEFT JOIN posts p ON p.id = n.post_id
    WHERE n.recipient_id = ${userId} AND NOT n.read ${shownTo(sql, userId)}`
  return row?.unread ?? 0
}

/** The unread ones countUnread counts, newest first, by the same index. */
export async function listUnreadNotifications(sql: Queryable, userId: string): Promise<NotificationRecord[]> {
  if (!isUuid(userId)) return []
  const rows = await sql<NotificationRow[]>`
    SELECT ${columns(sql)} FROM notifications n LEFT JOIN posts p ON p.id = n.post_id
    WHERE n.recipient_id = ${userId} AND NOT n.read ${shownTo(sql, userId)}
    ORDER BY n.created_at DESC, n.id DESC`
  return rows.map(toNotificationRecord)
}

/**
 * Inserts the notification if what it names exists and its identity is new (the unique index decides, so
 * two at once cannot both add one), and counts it on the recipient's row in the same statement.
 */
export async function addNotification(sql: Queryable, n: NotificationRecord): Promise<number | undefined> {
  if (!isUuid(n._id) || !known(n)) return undefined
  const row = notificationRow(n)
  const [counted] = await sql<{ unread: number }[]>`
    WITH added AS (
      INSERT INTO notifications (id, recipient_id, type, actor_id, post_id, comment_id, created_at, read)
      SELECT ${row.id}::uuid, r.id, ${row.type}, a.id, ${row.post_id}::uuid, ${row.comment_id}::uuid, ${row.created_at}::timestamptz, ${row.read}
      FROM users r, users a
      WHERE r.id = ${row.recipient_id} AND a.id = ${row.actor_id}
        AND (${row.post_id}::uuid IS NULL OR EXISTS (SELECT 1 FROM posts p WHERE p.id = ${row.post_id}::uuid))
        AND (${row.comment_id}::uuid IS NULL OR EXISTS (
          SELECT 1 FROM comments c WHERE c.id = ${row.comment_id}::uuid AND c.post_id = ${row.post_id}::uuid))
      ON CONFLICT DO NOTHING
      RETURNING recipient_id, read
    )
    UPDATE users u SET unread_notifications = u.unread_notifications + (NOT added.read)::int
    FROM added WHERE u.id = added.recipient_id
    RETURNING u.unread_notifications AS unread`
  return counted?.unread
}

/** addNotification for each, in one statement; the unread counts are those after all of them. */
export async function addNotifications(
  sql: Queryable,
  notifications: readonly NotificationRecord[],
): Promise<(number | undefined)[]> {
  const asked = notifications.filter((n) => isUuid(n._id) && known(n)).map(notificationRow)
  if (asked.length === 0) return notifications.map(() => undefined)
  const column = <K extends keyof (typeof asked)[number]>(key: K) => asked.map((row) => String(row[key] ?? ''))
  const rows = await sql<{ id: string; unread: number }[]>`
    WITH asked AS (
      SELECT * FROM unnest(${column('id')}::uuid[], ${column('recipient_id')}::uuid[], ${column('type')}::text[],
        ${column('actor_id')}::uuid[], ${column('post_id')}::text[], ${column('comment_id')}::text[],
        ${column('created_at')}::timestamptz[], ${asked.map((row) => (row.read ? 1 : 0))}::int[])
        AS a(id, recipient_id, type, actor_id, post_id, comment_id, created_at, read)
    ), added AS (
      INSERT INTO notifications (id, recipient_id, type, actor_id, post_id, comment_id, created_at, read)
      SELECT a.id, r.id, a.type, ac.id, nullif(a.post_id, '')::uuid, nullif(a.comment_id, '')::uuid, a.created_at, a.read = 1
      FROM asked a JOIN users r ON r.id = a.recipient_id JOIN users ac ON ac.id = a.actor_id
      WHERE (a.post_id = '' OR EXISTS (SELECT 1 FROM posts p WHERE p.id = nullif(a.post_id, '')::uuid))
        AND (a.comment_id = '' OR EXISTS (
          SELECT 1 FROM comments c WHERE c.id = nullif(a.comment_id, '')::uuid AND c.post_id = nullif(a.post_id, '')::uuid))
      ON CONFLICT DO NOTHING
      RETURNING id, recipient_id, read
    ), counted AS (
      UPDATE users u SET unread_notifications = u.unread_notifications + c.n
      FROM (SELECT recipient_id, (count(*) FILTER (WHERE NOT read))::int AS n FROM added GROUP BY recipient_id) c
      WHERE u.id = c.recipient_id
      RETURNING u.id, u.unread_notifications AS unread
    )
    SELECT added.id, counted.unread FROM added JOIN counted ON counted.id = added.recipient_id`
  const unread = new Map(rows.map((row) => [row.id, row.unread]))
  return notifications.map((n) => unread.get(n._id))
}

/** removeNotifications of each identity, in one statement. */
export async function removeNotificationsOf(
  sql: Queryable,
  identities: readonly NotificationIdentity[],
): Promise<UnreadCount[]> {
  const asked = identities.filter(known)
  if (asked.length === 0) return []
  const column = (pick: (identity: NotificationIdentity) => string | undefined) => asked.map((i) => pick(i) ?? '')
  const rows = await sql<{ recipient_id: string; unread: number }[]>`
    WITH asked AS (
      SELECT * FROM unnest(${column((i) => i.recipientId)}::uuid[], ${column((i) => i.type)}::text[],
        ${column((i) => i.actorId)}::uuid[], ${column((i) => i.postId)}::text[], ${column((i) => i.commentId)}::text[])
        AS a(recipient_id, type, actor_id, post_id, comment_id)
    ), removed AS (
      DELETE FROM notifications n USING asked a
      WHERE n.recipient_id = a.recipient_id AND n.type = a.type AND n.actor_id = a.actor_id
        AND n.post_id IS NOT DISTINCT FROM nullif(a.post_id, '')::uuid
        AND n.comment_id IS NOT DISTINCT FROM nullif(a.comment_id, '')::uuid
      RETURNING n.recipient_id, n.read
    ), fell AS (SELECT recipient_id, count(*)::int AS n FROM removed WHERE NOT read GROUP BY recipient_id)
    UPDATE users u SET unread_notifications = u.unread_notifications - fell.n
    FROM fell WHERE u.id = fell.recipient_id
    RETURNING u.id AS recipient_id, u.unread_notifications AS unread`
  return rows.map((row) => ({ recipientId: row.recipient_id, unread: row.unread }))
}

function matching(sql: Queryable, match: NotificationMatch) {
  if ('involving' in match) return sql`n.recipient_id = ${match.involving} OR n.actor_id = ${match.involving}`
  if ('recipientId' in match) return sql`n.recipient_id = ${match.recipientId}`
  if ('between' in match) {
    const [a, b] = match.between
    return sql`(n.recipient_id = ${a} AND n.actor_id = ${b}) OR (n.recipient_id = ${b} AND n.actor_id = ${a})`
  }
  if ('postId' in match) return sql`n.post_id = ${match.postId}`
  if ('commentId' in match) return sql`n.comment_id = ${match.commentId}`
  const { type, recipientId, actorId, postId, commentId } = match.identity
  return sql`
    n.recipient_id = ${recipientId} AND n.type = ${type} AND n.actor_id = ${actorId}
    AND n.post_id IS NOT DISTINCT FROM ${postId ?? null}::uuid AND n.comment_id IS NOT DISTINCT FROM ${commentId ?? null}::uuid`
}

/** Deletes the matching rows and takes the unread ones off their recipients' counts, in one statement. */
export async function removeNotifications(sql: Queryable, match: NotificationMatch): Promise<UnreadCount[]> {
  const [recipientId, actorId] = 'between' in match ? match.between : []
  const ids =
    'identity' in match
      ? match.identity
      : 'between' in match
        ? { recipientId, actorId }
        : 'involving' in match
          ? { recipientId: match.involving }
          : match
  if (!known(ids)) return []
  const rows = await sql<{ recipient_id: string; unread: number }[]>`
    WITH removed AS (DELETE FROM notifications n WHERE ${matching(sql, match)} RETURNING n.recipient_id, n.read),
    fell AS (SELECT recipient_id, count(*)::int AS n FROM removed WHERE NOT read GROUP BY recipient_id)
    UPDATE users u SET unread_notifications = u.unread_notifications - fell.n
    FROM fell WHERE u.id = fell.recipient_id
    RETURNING u.id AS recipient_id, u.unread_notifications AS unread`
  return rows.map((row) => ({ recipientId: row.recipient_id, unread: row.unread }))
}

/** Marks the unread ones up to `through` by the notifications_unread index, and takes them off the count. */
export async function markNotificationsRead(
  sql: Queryable,
  userId: string,
  through: NotificationRecord | undefined,
): Promise<{ marked: number; unread: number }> {
  if (!isUuid(userId)) return { marked: 0, unread: 0 }
  const upTo = through ? sql`AND (created_at, id) <= (${through.createdAt}::timestamptz, ${through._id}::uuid)` : sql``
  const [row] = await sql<{ marked: number; unread: number }[]>`
    WITH marked AS (
      UPDATE notifications SET read = true WHERE recipient_id = ${userId} AND NOT read ${upTo} RETURNING 1
    ), counted AS (SELECT count(*)::int AS n FROM marked)
    UPDATE users u SET unread_notifications = u.unread_notifications - counted.n
    FROM counted WHERE u.id = ${userId}
    RETURNING counted.n AS marked, u.unread_notifications AS unread`
  return row ?? { marked: 0, unread: 0 }
}
