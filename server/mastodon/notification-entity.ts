import { Type } from '@sinclair/typebox'
import type { Notification } from '../schemas/notifications.js'
import { NOTIFICATION_TYPES } from './notification-types.js'
import type { Services } from '../services/index.js'
import { timedIdOf } from '../services/status-ids.js'
import { accountsOf, ifThere } from './account-entity.js'
import { AccountSchema, Nullable, type Account } from './schemas.js'
import { statusesOf } from './status-page.js'
import { StatusSchema, type Status } from './status-schemas.js'

export { NOTIFICATION_TYPES }

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

/** The kinds Mastodon groups when the request names none. */
export const GROUPED_BY_DEFAULT: readonly string[] = ['favourite', 'follow', 'reblog']

const Types = Type.Optional(Type.Union([Type.String({ maxLength: 32 }), Type.Array(Type.String({ maxLength: 32 }))]))
/** `types` keeps some kinds, `exclude_types` leaves some out, by Mastodon's names, as lists or one each. */
export const TypesQuerySchema = Type.Object({
  types: Types,
  'types[]': Types,
  exclude_types: Types,
  'exclude_types[]': Types,
})
type TypesQuery = Partial<Record<keyof typeof TypesQuerySchema.properties, string | string[]>>

/** Whether a notification's kind is among those the query keeps. */
export function typesFilter(query: TypesQuery) {
  const kept = [query.types ?? [], query['types[]'] ?? []].flat()
  const left = new Set([query.exclude_types ?? [], query['exclude_types[]'] ?? []].flat())
  return (notification: Notification) => {
    const type = NOTIFICATION_TYPES[notification.type]
    return (kept.length === 0 || kept.includes(type)) && !left.has(type)
  }
}

/**
 * The group a notification belongs to, as Mastodon keys them: favourites and reblogs of one status
 * together, follows of one day together, when their kind is among `grouped`; any other alone.
 */
export function groupKeyOf(notification: Notification, id: string, grouped: readonly string[] = GROUPED_BY_DEFAULT) {
  const type = NOTIFICATION_TYPES[notification.type]
  if (!grouped.includes(type)) return `ungrouped-${id}`
  if (type === 'follow') return `follow-${notification.createdAt.slice(0, 10)}`
  return notification.post && (type === 'favourite' || type === 'reblog')
    ? `${type}-${notification.post._id}`
    : `ungrouped-${id}`
}

/**
 * What a page of notifications shows, each read once: the actors as Account entities and the posts as
 * statuses, as the reader may see them. Someone or something the reader may no longer see is missing;
 * a post so is `null`.
 */
export async function notificationParts(
  services: Services,
  publicUrl: string,
  notifications: readonly Notification[],
  userId: string,
) {
  const actorIds = [...new Set(notifications.map((each) => each.actor._id))]
  const postIds = [...new Set(notifications.flatMap((each) => (each.post ? [each.post._id] : [])))]
  const [people, posts] = await Promise.all([
    accountsOf(services, publicUrl, actorIds, userId),
    Promise.all(postIds.map((id) => ifThere(services.posts.get(id, userId)))),
  ])
  const shown = posts.flatMap((found) => (found ? [found.post] : []))
  const statuses = await statusesOf(services, publicUrl, shown, userId)
  const accounts = new Map<string, Account>(people.map((account) => [account.id, account]))
  const byPost = new Map<string, Status | null>(postIds.map((id) => [id, null]))
  shown.forEach((post, i) => byPost.set(post._id, statuses[i] ?? null))
  return { accounts, statuses: byPost }
}

/**
 * Notifications as Mastodon's entities, for their recipient: each id sorts by time as statuses' do, and
 * each status is the post as the recipient may read it now (null once they may not). One whose actor the
 * recipient may no longer see is left out.
 */
export async function notificationsOf(
  services: Services,
  publicUrl: string,
  notifications: readonly Notification[],
  userId: string,
) {
  const { accounts, statuses } = await notificationParts(services, publicUrl, notifications, userId)
  return notifications.flatMap((notification) => {
    const account = accounts.get(notification.actor._id)
    if (!account) return []
    const id = timedIdOf(notification.createdAt, notification._id)
    const read = notification.post ? (statuses.get(notification.post._id) ?? null) : undefined
    // A warning of the recipient's filters of notifications rides on the status, as Mastodon's apps read it.
    const status =
      read && notification.filtered
        ? { ...read, filtered: notification.filtered.map((result) => ({ ...result, status_matches: null })) }
        : read
    return [
      {
        id,
        type: NOTIFICATION_TYPES[notification.type],
        created_at: notification.createdAt,
        group_key: groupKeyOf(notification, id),
        account,
        ...(status === undefined ? {} : { status }),
      },
    ]
  })
}

/** One notification as Mastodon's entity (notificationsOf); undefined when its actor is hidden from the recipient. */
export async function notificationOf(
  services: Services,
  publicUrl: string,
  notification: Notification,
  userId: string,
) {
  const [entity] = await notificationsOf(services, publicUrl, [notification], userId)
  return entity
}
