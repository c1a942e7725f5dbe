import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import type { Notification } from '../schemas/notifications.js'
import { statusKeyOf, timedIdOf } from '../services/status-ids.js'
import { ERROR_REPLIES, recordNotFound } from './errors.js'
import type { MastodonOptions } from './options.js'
import { PageQuerySchema, pageWindow, linkHeader } from './paging.js'
import {
  NotificationSchema,
  TypesQuerySchema,
  notificationOf,
  notificationsOf,
  typesFilter,
} from './notification-entity.js'
const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) })

/**
 * Notifications (version 1), read from Chirp's notifications service: ids that sort by time as statuses'
 * do, `types` and `exclude_types` by Mastodon's names, and the unread count.
 */
const routes: FastifyPluginAsyncTypebox<MastodonOptions> = async (app, { services, publicUrl }) => {
  /** A page of notifications as Mastodon's; one whose actor the reader may no longer see is left out. */
  const entitiesOf = (notifications: readonly Notification[], userId: string) =>
    notificationsOf(services, publicUrl, notifications, userId)
  const entityOf = async (notification: Notification, userId: string) => {
    const entity = await notificationOf(services, publicUrl, notification, userId)
    if (!entity) throw recordNotFound()
    return entity
  }

  app.get(
    '/api/v1/notifications',
    {
      config: { scope: 'read:notifications' },
      schema: {
        tags: ['mastodon'],
        description:
          "The person's notifications, newest first; `types` keeps some kinds, `exclude_types` leaves some out.",
        querystring: Type.Composite([PageQuerySchema, TypesQuerySchema]),
        response: { 200: Type.Array(NotificationSchema), ...ERROR_REPLIES },
      },
    },
    async (request, reply) => {
      const userId = request.user._id
      const entries = await services.notifications.window(userId, pageWindow(request.query))
      const link = linkHeader(new URL(request.url, `${publicUrl}/`), entries)
      if (link !== undefined) void reply.header('link', link)
      return entitiesOf(entries.map(({ item }) => item).filter(typesFilter(request.query)), userId)
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
    '/api/v1/notifications/clear',
    {
      config: { scope: 'write:notifications' },
      schema: {
        tags: ['mastodon'],
        description: "Takes every one of the person's notifications away.",
        response: { 200: Type.Object({}), ...ERROR_REPLIES },
      },
    },
    async (request) => services.notifications.clear(request.user._id),
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
