import { Type } from '@sinclair/typebox'
import type { Notification } from '../schemas/notifications.js'
import type { Services } from '../services/index.js'
import { timedIdOf } from '../services/status-ids.js'
import { accountOf } from './account-entity.js'
import { AccountSchema, Nullable } from './schemas.js'
import { statusOfPost } from './status-page.js'
import { StatusSchema, type Status } from './status-schemas.js'

/** Chirp's kinds of notification by Mastodon's names; a comment or a reply on one's post is a mention of one. */
export const NOTIFICATION_TYPES: Record<Notification['type'], string> = {
  like: 'favourite',
  repost: 'reblog',
  mention: 'mention',
  comment: 'mention',
  reply: 'mention',
  follow: 'follow',
  follow_request: 'follow_request',
  poll: 'poll',
  quote: 'quote',
}

export const NotificationSchema = Type.Object(
  {
    id: Type.String(),
    type: Type.String(),
    created_at: Type.String(),
    group_key: Type.String(),
    account: AccountSchema,
    status: Type.Optional(Nullable(StatusSchema)),
  },
  { title: 'MastodonNotification' },
)

/**
 * A notification as Mastodon's entity, for its recipient: its id sorts by time as statuses' do, and its
 * status is the post as the recipient may read it now (null once they may not).
 */
export async function notificationOf(
  services: Services,
  publicUrl: string,
  notification: Notification,
  userId: string,
) {
  const { user } = await services.users.get(notification.actor._id, userId)
  let status: Status | null = null
  if (notification.post) {
    const shown = await services.posts.get(notification.post._id, userId).catch(() => undefined)
    status = shown ? await statusOfPost(services, publicUrl, shown.post, userId) : null
  }
  const id = timedIdOf(notification.createdAt, notification._id)
  return {
    id,
    type: NOTIFICATION_TYPES[notification.type],
    created_at: notification.createdAt,
    group_key: `ungrouped-${id}`,
    account: accountOf(user, publicUrl),
    ...(notification.post ? { status } : {}),
  }
}
