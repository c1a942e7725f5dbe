import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import {
  MarkReadBodySchema,
  NotificationsQuerySchema,
  NotificationsReplySchema,
  UnreadReplySchema,
} from '../schemas/notifications.js'
import { ERRORS, emptyBody, me, type RouteOptions } from './shared.js'

const routes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { services }) => {
  const { notifications } = services
  const tags = ['notifications']

  app.get(
    '/notifications',
    {
      onRequest: [app.authenticate],
      schema: {
        tags,
        description:
          "The caller's notifications, newest first (20 a page unless `limit` says otherwise), and how many are unread: " +
          'likes of and comments on their posts, mentions of them in posts and comments, and new followers.',
        querystring: NotificationsQuerySchema,
        response: { 200: NotificationsReplySchema, ...ERRORS },
      },
    },
    async (request) => notifications.list(me(request), request.query),
  )

  app.post(
    '/notifications/read',
    {
      onRequest: [app.authenticate],
      preValidation: emptyBody,
      schema: {
        tags,
        description:
          'Marks every notification read, or with `before` that one and every older one; answers the unread count left.',
        body: MarkReadBodySchema,
        response: { 200: UnreadReplySchema, ...ERRORS },
      },
    },
    async (request) => notifications.markRead(me(request), request.body.before),
  )
}

export default routes
