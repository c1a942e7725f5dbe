import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import type { Notification } from '../schemas/notifications.js'
import { statusKeyOf, timedIdOf } from '../services/status-ids.js'
import { ERROR_REPLIES, recordNotFound } from './errors.js'
import type { MastodonOptions } from './options.js'
import { PageQuerySchema, pageWindow, linkHeader } from './paging.js'
import { NOTIFICATION_TYPES, NotificationSchema, notificationOf } from './notification-entity.js'

const Types = Type.Optional(Type.Union([Type.String({ maxLength: 32 }), Type.Array(Type.String({ maxLength: 32 }))]))
const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) })

/**
 * Notifications (version 1), read from Chirp's notifications service: ids that sort by time as statuses'
 * do, `types` and `exclude_types` by Mastodon's names, and the unread count.
 */
const routes: FastifyPluginAsyncTypebox<MastodonOptions> = async (app, { services, publicUrl }) => {
  const entityOf = (notification: Notification, userId: string) =>
    notificationOf(services, publicUrl, notification, userId)

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
