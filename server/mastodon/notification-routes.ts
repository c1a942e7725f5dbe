import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import type { Notification } from '../schemas/notifications.js'
import { statusKeyOf, timedIdOf } from '../services/status-ids.js'
import { accountOf } from './account-entity.js'
import { ERROR_REPLIES, recordNotFound } from './errors.js'
import type { MastodonOptions } from './options.js'
import { PageQuerySchema, pageWindow, linkHeader } from './paging.js'
import { AccountSchema, Nullable } from './schemas.js'
import { statusOfPost } from './status-page.js'
import { StatusSchema, type Status } from './status-schemas.js'

/** Chirp's kinds of notification by Mastodon's names; a comment or a reply on one's post is a mention of one. */
const NOTIFICATION_TYPES: Record<Notification['type'], string> = {
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

const NotificationSchema = Type.Object(
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
const Types = Type.Optional(Type.Union([Type.String({ maxLength: 32 }), Type.Array(Type.String({ maxLength: 32 }))]))
const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) })

/**
 * Notifications (version 1), read from Chirp's notifications service: ids that sort by time as statuses'
 * do, `types` and `exclude_types` by Mastodon's names, and the unread count.
 */
const routes: FastifyPluginAsyncTypebox<MastodonOptions> = async (app, { services, publicUrl }) => {
  async function entityOf(notification: Notification, userId: string) {
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

  app.get(
    '/api/v1/notifications',
    {
      config: { scope: 'read:notifications' },
      schema: {
        tags: ['mastodon'],
        description:
          "The person's notifications, newest first; `types` keeps some kinds, `exclude_types` leaves some out.",
        querystring: Type.Composite([
          PageQuerySchema,
          Type.Object({ types: Types, 'types[]': Types, exclude_types: Types, 'exclude_types[]': Types }),
        ]),
        response: { 200: Type.Array(NotificationSchema), ...ERROR_REPLIES },
      },
    },
    async (request, reply) => {
      const userId = request.user._id
      const query = request.query
      const kept = [query.types ?? [], query['types[]'] ?? []].flat()
      const left = new Set([query.exclude_types ?? [], query['exclude_types[]'] ?? []].flat())
      const entries = await services.notifications.window(userId, pageWindow(query))
      const link = linkHeader(new URL(request.url, `${publicUrl}/`), entries)
      if (link !== undefined) void reply.header('link', link)
      const shown = entries.filter(({ item }) => {
        const type = NOTIFICATION_TYPES[item.type]
        return (kept.length === 0 || kept.includes(type)) && !left.has(type)
      })
      return Promise.all(shown.map(({ item }) => entityOf(item, userId)))
    },
  )

  app.get(
    '/api/v1/notifications/unread_count',
    {
      config: { scope: 'read:notifications' },
      schema: {
        tags: ['mastodon'],
        description: "How many of the person's notifications are unread.",
        response: { 200: Type.Object({ count: Type.Integer({ minimum: 0 }) }), ...ERROR_REPLIES },
      },
    },
    async (request) => ({ count: await services.notifications.unread(request.user._id) }),
  )

  app.get(
    '/api/v1/notifications/:id',
    {
      config: { scope: 'read:notifications' },
      schema: {
        tags: ['mastodon'],
        description: "One of the person's notifications.",
        params: IdParams,
        response: { 200: NotificationSchema, ...ERROR_REPLIES },
      },
    },
    async (request) => {
      const userId = request.user._id
      const id = request.params.id
      const key = statusKeyOf(id)
      if (!key || key.by !== undefined) throw recordNotFound()
      const notification = await services.notifications.get(userId, key.postId)
      if (timedIdOf(notification.createdAt, notification._id) !== id) throw recordNotFound()
      return entityOf(notification, userId)
    },
  )

  app.post(
    '/api/v1/notifications/:id/dismiss',
    {
      config: { scope: 'write:notifications' },
      schema: {
        tags: ['mastodon'],
        description: "Takes one of the person's notifications away.",
        params: IdParams,
        response: { 200: Type.Object({}), ...ERROR_REPLIES },
      },
    },
    async (request) => {
      const key = statusKeyOf(request.params.id)
      if (!key || key.by !== undefined) throw recordNotFound()
      return services.notifications.dismiss(request.user._id, key.postId)
    },
  )
}

export default routes
