import { MSG, notFound } from '../errors.js'
import type { PageRequest } from '../store/types.js'
import type { ServiceDeps } from './deps.js'
import { countShownUnread, notificationViews } from './notification-views.js'
import { wordsJudge } from './filters.js'
import { hiddenFrom } from './visibility.js'
import { timedIdOf } from './status-ids.js'
import { checkMayRead } from './audience-reads.js'
import { retract } from './notifier.js'
import { windowOf, type TimelineWindow } from './timelines.js'

/** A page of notifications, search results or a tag's posts when the request names no limit. */
export const DEFAULT_PAGE = 20

export function createNotificationsService({ store, now }: ServiceDeps) {
  /** Views of the recipient's notifications as their filters of notifications leave them (DECISIONS §15). */
  async function viewsFor(userId: string, records: Parameters<typeof notificationViews>[1]) {
    return notificationViews(store, records, await wordsJudge(store, userId, 'notifications', now()))
  }

  async function list(userId: string, page: PageRequest) {
    const hidden = await hiddenFrom(store, userId, now())
    const [{ items, nextCursor }, unread] = await Promise.all([
      store.listNotifications(userId, { ...page, limit: page.limit ?? DEFAULT_PAGE, hide: hidden.people }),
      countShownUnread(store, userId, now()),
    ])
    return { notifications: await viewsFor(userId, items), nextCursor, unread }
  }

  return {
    /** The reader's notifications, newest first, with how many are unread; their filters of notifications applied. */
    list,

    /** Notifications as the recipient's filters of notifications leave them: hidden ones out, warned ones marked. */
    viewsFor,

    /**
     * A window of them as the Mastodon API pages it, each with an id of the time it came and its own
     * (status-ids.ts), so that ids sort as the list does.
     */
    window: (userId: string, window: TimelineWindow) =>
      windowOf(
        async (_sort, cursor, limit) => {
          const page = await list(userId, { cursor, limit })
          return { items: page.notifications, nextCursor: page.nextCursor }
        },
        (notification) => timedIdOf(notification.createdAt, notification._id),
        window,
        false,
      ),

    /** One of the reader's notifications, while the list would show it. */
    async get(userId: string, id: string) {
      const record = await store.getNotification(id)
      if (record?.recipientId !== userId) throw notFound(MSG.notificationNotFound)
      const hidden = await hiddenFrom(store, userId, now())
      if (hidden.people.includes(record.actorId)) throw notFound(MSG.notificationNotFound)
      // As the list: one about a post the reader may no longer read is not there.
      const post = record.postId === undefined ? undefined : await store.getPost(record.postId)
      if (post) await checkMayRead(store, post, userId).catch(() => Promise.reject(notFound(MSG.notificationNotFound)))
      const [notification] = await viewsFor(userId, [record])
      if (!notification) throw notFound(MSG.notificationNotFound)
      return notification
    },

    /** Takes one of the reader's notifications away; if it was unread, their streams hear the new count. */
    async dismiss(userId: string, id: string) {
      await store.transaction(async (tx) => {
        const record = await tx.getNotification(id)
        if (record?.recipientId !== userId) throw notFound(MSG.notificationNotFound)
        const { type, recipientId, actorId, postId, commentId } = record
        const identity = {
          type,
          recipientId,
          actorId,
          ...(postId === undefined ? {} : { postId }),
          ...(commentId === undefined ? {} : { commentId }),
        }
        await retract(tx, { identity })
      })
      return {}
    },

    /** Takes every one of the reader's notifications away; their streams hear the count fall to none. */
    async clear(userId: string) {
      await store.transaction((tx) => retract(tx, { recipientId: userId }))
      return {}
    },

    /** How many of the reader's notifications are unread, leaving out those their filters hide. */
    unread: (userId: string) => countShownUnread(store, userId, now()),

    /** Marks every notification read, or `before` and every older one; the reader's other streams hear the new count. */
    async markRead(userId: string, before: string | undefined) {
      return store.transaction(async (tx) => {
        const through = before === undefined ? undefined : await tx.getNotification(before)
        if (before !== undefined && through?.recipientId !== userId) throw notFound(MSG.notificationNotFound)
        const { marked } = await tx.markNotificationsRead(userId, through)
        // The count the list shows: the one the write answers counts what the reader may no longer see too.
        const unread = await countShownUnread(tx, userId, now())
        if (marked > 0) tx.emit({ name: 'notification.read', data: { unread }, to: userId })
        return { unread }
      })
    },
  }
}

export type NotificationsService = ReturnType<typeof createNotificationsService>
