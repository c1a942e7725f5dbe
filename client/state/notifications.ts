import { proxy } from 'valtio'
import { apiGetNotifications, apiMarkNotificationsRead } from '../api/notifications.js'
import type { Notification, NotificationEventPayloads } from '../api/types.js'
import { emptyPaged, loadPaged } from './paged.js'

const PAGE = 20

const initial = () => ({
  list: emptyPaged<Notification>('mine'),
  /** How many are unread: the badge in the navigation and the count in the tab's title. */
  unread: 0,
})

export const notifications = proxy(initial())

/** Bumped by each change of the unread count, so a count asked for before it is not taken after it. */
let countVersion = 0

function setCount(unread: number): void {
  countVersion += 1
  notifications.unread = unread
}

/** The first page (fresh) or the next one, newest first; each answer also brings the unread count. */
export function loadNotifications(more = false): Promise<void> {
  const asked = countVersion
  return loadPaged(notifications, 'list', 'mine', more, async (cursor) => {
    const reply = await apiGetNotifications({ limit: PAGE, cursor })
    // Not a count older than one taken since, nor one asked for before a sign-out.
    if (asked === countVersion) setCount(reply.unread)
    return { items: reply.notifications, nextCursor: reply.nextCursor }
  })
}

/** Only the count, for the badge: on sign-in, and after a gap in the live events. */
export async function loadUnreadCount(): Promise<void> {
  const asked = countVersion
  try {
    const reply = await apiGetNotifications({ limit: 1 })
    if (asked === countVersion) setCount(reply.unread)
  } catch {
    // The badge keeps what it showed; the next sign-in or live event corrects it.
  }
}

/** Marks read everything up to the newest notification shown: the reader has now seen them. */
export async function markNotificationsRead(): Promise<void> {
  const newest = notifications.list.items[0]
  if (!newest || notifications.unread === 0) return
  try {
    setCount(await apiMarkNotificationsRead(newest._id))
  } catch {
    // Not something the reader asked for: the badge stays, and the next visit marks them again.
  }
}

/** A live `notification.created`: the count, and the notification on top of a list already loaded. */
export function receiveNotification({ unread, ...notification }: Notification & { unread: number }): void {
  setCount(unread)
  const { list } = notifications
  if (list.loaded && !list.items.some((n) => n._id === notification._id)) list.items.unshift(notification)
}

/** A live `notification.read`: marked read here or in another tab, or an action taken back. */
export function setUnread({ unread }: NotificationEventPayloads['notification.read']): void {
  setCount(unread)
}

/**
 * What a deleted post or comment took with it: the server has taken back the notifications about it, and
 * an open list drops them too rather than lead to something gone.
 */
export function dropNotificationsAbout(gone: { postId: string; commentId?: string }): void {
  const { list } = notifications
  const about = (n: Notification) =>
    gone.commentId === undefined ? n.post?._id === gone.postId : n.comment?._id === gone.commentId
  if (list.items.some(about)) list.items = list.items.filter((n) => !about(n))
}

export function reset(): void {
  countVersion += 1
  Object.assign(notifications, initial())
}
