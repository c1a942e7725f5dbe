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
  /** On a `follow`: it tells that a locked account accepted my request, not that someone followed me. */
  accepted: boolean
}

/** Likes and follows join a row whose newest is at most this much newer: a like from last month is news of its own. */
export const GROUP_WINDOW_MS = 24 * 60 * 60 * 1000

/**
 * Which row a notification may join: likes and reposts by post, follows all together, follow requests all
 * together; the rest (an accepted request among them) never join.
 */
function groupKey(notification: NotificationView, accepted: boolean): string | null {
  if ((notification.type === 'like' || notification.type === 'repost') && notification.post)
    return `${notification.type}:${notification.post._id}`
  if (notification.type === 'follow' && !accepted) return 'follow'
  if (notification.type === 'follow_request') return 'follow_request'
  return null
}

/**
 * The rows of the page, newest first, from notifications newest first: "maya.lin and 2 others liked
 * your post". A row sits where its newest notification is. A locked account that accepts my request
 * notifies me with a `follow` of its own: `accepted` tells which `follow` is that.
 */
export function groupNotifications(
  items: readonly NotificationView[],
  accepted: (notification: NotificationView) => boolean = () => false,
): NotificationGroup[] {
  const groups: NotificationGroup[] = []
  const open = new Map<string, NotificationGroup>()
  for (const notification of items) {
    const acceptance = notification.type === 'follow' && accepted(notification)
    const key = groupKey(notification, acceptance)
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
      accepted: acceptance,
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
      return group.accepted ? 'accepted your follow request' : 'followed you'
    case 'follow_request':
      return 'asked to follow you'
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
  }
}

/** The way to the follow requests waiting: "Follow requests (3)", or "(20+)" when more are past those loaded. */
export function followRequestsLabel(count: number, all: boolean): string {
  return `Follow requests (${count}${all ? '' : '+'})`
}
