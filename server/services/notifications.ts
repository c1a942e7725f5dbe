import { MSG, notFound } from '../errors.js'
import type { PageRequest } from '../store/types.js'
import type { ServiceDeps } from './deps.js'
import { notificationViews } from './notification-views.js'
import { hiddenFrom } from './visibility.js'

/** A page of notifications, search results or a tag's posts when the request names no limit. */
export const DEFAULT_PAGE = 20

export function createNotificationsService({ store, now }: ServiceDeps) {
  return {
    /** The reader's notifications, newest first, with how many are unread. */
    async list(userId: string, page: PageRequest) {
      const hidden = await hiddenFrom(store, userId, now())
      const [{ items, nextCursor }, unread] = await Promise.all([
        store.listNotifications(userId, { ...page, limit: page.limit ?? DEFAULT_PAGE, hide: hidden.people }),
        store.countUnread(userId),
      ])
      return { notifications: await notificationViews(store, items), nextCursor, unread }
    },

    /** Marks every notification read, or `before` and every older one; the reader's other streams hear the new count. */
    async markRead(userId: string, before: string | undefined) {
      return store.transaction(async (tx) => {
        const through = before === undefined ? undefined : await tx.getNotification(before)
        if (before !== undefined && through?.recipientId !== userId) throw notFound(MSG.notificationNotFound)
        const { marked } = await tx.markNotificationsRead(userId, through)
        // The count the list shows: the one the write answers counts what the reader may no longer see too.
        const unread = await tx.countUnread(userId)
        if (marked > 0) tx.emit({ name: 'notification.read', data: { unread }, to: userId })
        return { unread }
      })
    },
  }
}

export type NotificationsService = ReturnType<typeof createNotificationsService>
