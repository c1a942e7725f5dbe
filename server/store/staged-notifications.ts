import { byTime, identityKey, type NotificationBase } from './notification-index.js'
import type { NotificationMatch, NotificationRecord, UnreadCount } from './types.js'

/**
 * The notifications one transaction of the embedded store adds, removes and marks, over the committed
 * ones: each read answers as if the staged changes were committed, so a transaction that adds and then
 * counts sees its own addition, as one on PostgreSQL does.
 */
export class StagedNotifications {
  /** By id: the new record, or null for one removed. */
  readonly changes = new Map<string, NotificationRecord | null>()
  constructor(private readonly base: NotificationBase) {}

  get(id: string): NotificationRecord | undefined {
    const staged = this.changes.get(id)
    return staged === null ? undefined : (staged ?? this.base.get(id))
  }

  /** The committed count, moved by whatever this transaction changed of the user's notifications. */
  unread(userId: string): number {
    let count = this.base.unreadCount(userId)
    for (const [id, staged] of this.changes) {
      const committed = this.base.get(id)
      if (committed?.recipientId === userId && !committed.read) count--
      if (staged?.recipientId === userId && !staged.read) count++
    }
    return count
  }

  /** The user's unread notifications as this transaction leaves them, in no particular order. */
  unreadOf(userId: string): NotificationRecord[] {
    const found = new Map<string, NotificationRecord>()
    for (const committed of this.base.unreadOf(userId)) {
      const current = this.get(committed._id)
      if (current && !current.read) found.set(current._id, current)
    }
    for (const staged of this.changes.values())
      if (staged?.recipientId === userId && !staged.read) found.set(staged._id, staged)
    return [...found.values()]
  }

  /** The unread count after, or undefined when a notification of that identity exists already. */
  add(notification: NotificationRecord): number | undefined {
    const identity = identityKey(notification)
    const committed = this.base.idOf(identity)
    if (committed !== undefined && this.get(committed)) return undefined
    for (const staged of this.changes.values()) if (staged && identityKey(staged) === identity) return undefined
    this.changes.set(notification._id, Object.freeze(notification))
    return this.unread(notification.recipientId)
  }

  remove(match: NotificationMatch): UnreadCount[] {
    const ids = new Set<string>()
    if ('identity' in match) {
      const identity = identityKey(match.identity)
      const committed = this.base.idOf(identity)
      if (committed !== undefined) ids.add(committed)
      for (const [id, staged] of this.changes) if (staged && identityKey(staged) === identity) ids.add(id)
    } else if ('involving' in match) {
      const involving = (n: NotificationRecord) => n.recipientId === match.involving || n.actorId === match.involving
      for (const id of this.base.idsInvolving(match.involving)) ids.add(id)
      for (const [id, staged] of this.changes) if (staged && involving(staged)) ids.add(id)
    } else if ('recipientId' in match) {
      for (const id of this.base.idsTo(match.recipientId)) ids.add(id)
      for (const [id, staged] of this.changes) if (staged?.recipientId === match.recipientId) ids.add(id)
    } else if ('between' in match) {
      const [a, b] = match.between
      const between = (n: NotificationRecord) =>
        (n.recipientId === a && n.actorId === b) || (n.recipientId === b && n.actorId === a)
      for (const id of this.base.idsBetween(a, b)) ids.add(id)
      for (const [id, staged] of this.changes) if (staged && between(staged)) ids.add(id)
    } else {
      for (const id of this.base.idsAbout(match)) ids.add(id)
      const about = (n: NotificationRecord) =>
        'postId' in match ? n.postId === match.postId : n.commentId === match.commentId
      for (const [id, staged] of this.changes) if (staged && about(staged)) ids.add(id)
    }
    const fell = new Set<string>()
    for (const id of ids) {
      const current = this.get(id)
      if (!current) continue
      if (!current.read) fell.add(current.recipientId)
      this.changes.set(id, null)
    }
    return [...fell].map((recipientId) => ({ recipientId, unread: this.unread(recipientId) }))
  }

  /** Marks read the user's unread notifications up to and including `through` (all without it). */
  markRead(userId: string, through: NotificationRecord | undefined): { marked: number; unread: number } {
    const due = (n: NotificationRecord) =>
      n.recipientId === userId && !n.read && (!through || byTime.compare(n, through) <= 0)
    const marking = new Map<string, NotificationRecord>()
    for (const committed of this.base.unreadOf(userId)) {
      if (through && byTime.compare(committed, through) > 0) break
      const current = this.get(committed._id)
      if (current && due(current)) marking.set(current._id, current)
    }
    for (const staged of this.changes.values()) if (staged && due(staged)) marking.set(staged._id, staged)
    for (const notification of marking.values())
      this.changes.set(notification._id, Object.freeze({ ...notification, read: true }))
    return { marked: marking.size, unread: this.unread(userId) }
  }
}
