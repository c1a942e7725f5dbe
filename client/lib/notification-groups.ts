import { displayNameOf, type NotificationView, type UserSummaryView } from './model.js'

/** One row of the notifications page: a single notification, or likes of one post (or follows) taken together. */
export type NotificationGroup = {
  /** The newest notification's id: the row's key. */
  id: string
  type: NotificationView['type']
  /** Who did it, newest first, each once. */
  actors: UserSummaryView[]
  /** The newest notification: its time, post and comment stand for the row. */
  newest: NotificationView
  unread: boolean
}

/** Likes and follows join a row whose newest is at most this much newer: a like from last month is news of its own. */
export const GROUP_WINDOW_MS = 24 * 60 * 60 * 1000

/** Which row a notification may join: likes and reposts by post, follows all together; the rest never join. */
function groupKey(notification: NotificationView): string | null {
  if ((notification.type === 'like' || notification.type === 'repost') && notification.post)
    return `${notification.type}:${notification.post._id}`
  if (notification.type === 'follow') return 'follow'
  return null
}

/**
 * The rows of the page, newest first, from notifications newest first: "maya.lin and 2 others liked
 * your post". A row sits where its newest notification is.
 */
export function groupNotifications(items: readonly NotificationView[]): NotificationGroup[] {
  const groups: NotificationGroup[] = []
  const open = new Map<string, NotificationGroup>()
  for (const notification of items) {
    const key = groupKey(notification)
    const group = key === null ? undefined : open.get(key)
    if (group && Date.parse(group.newest.createdAt) - Date.parse(notification.createdAt) <= GROUP_WINDOW_MS) {
      if (!group.actors.some((a) => a._id === notification.actor._id)) group.actors.push(notification.actor)
      group.unread ||= !notification.read
      continue
    }
    const started: NotificationGroup = {
      id: notification._id,
      type: notification.type,
      actors: [notification.actor],
      newest: notification,
      unread: !notification.read,
    }
    groups.push(started)
    if (key !== null) open.set(key, started)
  }
  return groups
}

/** "Maya Lin", "Maya Lin and 1 other", "Maya Lin and 2 others": people by their names, as they chose them. */
export function actorsText(actors: readonly UserSummaryView[]): string {
  const [first, ...rest] = actors
  const name = (first && displayNameOf(first)) || first?.username || 'Someone'
  if (rest.length === 0) return name
  return `${name} and ${rest.length} other${rest.length === 1 ? '' : 's'}`
}

/** What the row says happened, after the names. */
export function actionText(group: NotificationGroup): string {
  switch (group.type) {
    case 'like':
      return 'liked your post'
    case 'follow':
      return 'followed you'
    case 'comment':
      return 'replied to your post'
    case 'mention':
      return group.newest.comment ? 'mentioned you in a reply' : 'mentioned you in a post'
    case 'reply':
      return 'replied to your comment'
    case 'poll':
      return 'ran a poll that has now ended'
    case 'repost':
      return 'reposted your post'
    case 'quote':
      return 'quoted your post'
    case 'follow_request':
      return 'asked to follow you'
  }
}
