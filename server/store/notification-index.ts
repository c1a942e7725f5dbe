import { CURSOR, pageOf, type SortKey } from './cursor.js'
import { SortedList } from './sorted-list.js'
import type { NotificationIdentity, NotificationRecord, Page, PageRequest } from './types.js'

const order = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)
/** Oldest first; pages read it backwards. PostgreSQL pages by the same (created_at, id), so cursors agree. */
export const byTime: SortKey<NotificationRecord> = {
  of: (notification) => [notification.createdAt, notification._id],
  parts: CURSOR.byTime,
  compare: (a, b) => order(a.createdAt, b.createdAt) || order(a._id, b._id),
}

/** Notifications newest first, as the pages list them. */
export const newestFirst = (notifications: readonly NotificationRecord[]): NotificationRecord[] =>
  [...notifications].sort((a, b) => byTime.compare(b, a))

/** One string per identity: a recipient holds at most one notification of each. */
export const identityKey = (n: NotificationIdentity) =>
  [n.type, n.recipientId, n.actorId, n.postId ?? '', n.commentId ?? ''].join(' ')

/** What a transaction of the embedded store reads of the committed notifications. */
export interface NotificationBase {
  get(id: string): NotificationRecord | undefined
  idOf(identity: string): string | undefined
  /** Ids of the notifications about the post, or about the comment. */
  idsAbout(match: { postId: string } | { commentId: string }): Iterable<string>
  /** Ids of the notifications either of two people made for the other. */
  idsBetween(a: string, b: string): Iterable<string>
  /** Ids of the notifications to the user and of those they made for anyone (a deleted account's). */
  idsInvolving(userId: string): Iterable<string>
  /** Ids of the notifications to the user. */
  idsTo(userId: string): Iterable<string>
  /** The user's unread notifications, oldest first. */
  unreadOf(userId: string): readonly NotificationRecord[]
  unreadCount(userId: string): number
}

function add<K, V>(map: Map<K, Set<V>>, key: K | undefined, value: V): void {
  if (key === undefined) return
  const set = map.get(key)
  if (set) set.add(value)
  else map.set(key, new Set([value]))
}

function drop<K, V>(map: Map<K, Set<V>>, key: K | undefined, value: V): void {
  if (key === undefined) return
  const set = map.get(key)
  set?.delete(value)
  if (set?.size === 0) map.delete(key)
}

/**
 * Every notification in memory: each recipient's in time order, their unread ones apart (so a count is a
 * length and marking read takes a run from the start), and lookups by identity, post and comment, so
 * that taking one back never walks a recipient's whole list.
 */
export class NotificationIndex implements NotificationBase {
  readonly #byId = new Map<string, NotificationRecord>()
  readonly #byRecipient = new Map<string, SortedList<NotificationRecord>>()
  readonly #unread = new Map<string, SortedList<NotificationRecord>>()
  readonly #byIdentity = new Map<string, string>()
  readonly #byPost = new Map<string, Set<string>>()
  readonly #byComment = new Map<string, Set<string>>()

  load(notifications: readonly NotificationRecord[]): void {
    for (const map of [this.#byId, this.#byRecipient, this.#unread, this.#byIdentity, this.#byPost, this.#byComment])
      map.clear()
    const all = new Map<string, NotificationRecord[]>()
    const unread = new Map<string, NotificationRecord[]>()
    const gather = (lists: Map<string, NotificationRecord[]>, notification: NotificationRecord) => {
      const list = lists.get(notification.recipientId)
      if (list) list.push(notification)
      else lists.set(notification.recipientId, [notification])
    }
    for (const notification of notifications) {
      const frozen = Object.freeze(notification)
      this.#lookups(frozen)
      gather(all, frozen)
      if (!frozen.read) gather(unread, frozen)
    }
    for (const [recipient, list] of all) this.#listOf(this.#byRecipient, recipient).reset(list)
    for (const [recipient, list] of unread) this.#listOf(this.#unread, recipient).reset(list)
  }

  get(id: string): NotificationRecord | undefined {
    return this.#byId.get(id)
  }
  idOf(identity: string): string | undefined {
    return this.#byIdentity.get(identity)
  }
  idsAbout(match: { postId: string } | { commentId: string }): Iterable<string> {
    return ('postId' in match ? this.#byPost.get(match.postId) : this.#byComment.get(match.commentId)) ?? []
  }
  idsBetween(a: string, b: string): Iterable<string> {
    const made = (recipient: string, actor: string) =>
      (this.#byRecipient.get(recipient)?.items ?? []).filter((n) => n.actorId === actor).map((n) => n._id)
    return [...made(a, b), ...made(b, a)]
  }
  /** Walks every notification for the ones the user made: only an account's deletion asks. */
  idsInvolving(userId: string): Iterable<string> {
    const ids = (this.#byRecipient.get(userId)?.items ?? []).map((n) => n._id)
    for (const n of this.#byId.values()) if (n.actorId === userId) ids.push(n._id)
    return ids
  }
  idsTo(userId: string): Iterable<string> {
    return (this.#byRecipient.get(userId)?.items ?? []).map((n) => n._id)
  }
  unreadOf(userId: string): readonly NotificationRecord[] {
    return this.#unread.get(userId)?.items ?? []
  }
  unreadCount(userId: string): number {
    return this.unreadOf(userId).length
  }

  page(userId: string, request: PageRequest): Page<NotificationRecord> {
    return pageOf(this.#byRecipient.get(userId)?.items ?? [], byTime, -1, request)
  }

  put(notification: NotificationRecord): void {
    const previous = this.#byId.get(notification._id)
    this.#lookups(notification)
    this.#listOf(this.#byRecipient, notification.recipientId).upsert(previous, notification)
    if (notification.read) this.#unread.get(notification.recipientId)?.remove(notification)
    else
      this.#listOf(this.#unread, notification.recipientId).upsert(
        previous?.read === false ? previous : undefined,
        notification,
      )
  }

  delete(id: string): void {
    const previous = this.#byId.get(id)
    if (!previous) return
    this.#byId.delete(id)
    this.#byIdentity.delete(identityKey(previous))
    drop(this.#byPost, previous.postId, id)
    drop(this.#byComment, previous.commentId, id)
    this.#byRecipient.get(previous.recipientId)?.remove(previous)
    this.#unread.get(previous.recipientId)?.remove(previous)
  }

  #lookups(notification: NotificationRecord): void {
    this.#byId.set(notification._id, notification)
    this.#byIdentity.set(identityKey(notification), notification._id)
    add(this.#byPost, notification.postId, notification._id)
    add(this.#byComment, notification.commentId, notification._id)
  }

  #listOf(lists: Map<string, SortedList<NotificationRecord>>, recipient: string): SortedList<NotificationRecord> {
    let list = lists.get(recipient)
    if (!list) lists.set(recipient, (list = new SortedList(byTime)))
    return list
  }
}
