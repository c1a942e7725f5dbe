import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { EmptyObjectSchema, PageQuerySchema } from '../schemas/common.js'
import { UserIdParamsSchema, UserReplySchema, UsersReplySchema } from '../schemas/users.js'
import { ERRORS, emptyBody, me, type RouteOptions } from './shared.js'

/** A locked account's follow requests (DECISIONS §12): the owner's own, so every call is protected. */
const routes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { services }) => {
  const { followRequests } = services
  const tags = ['users']

  app.get(
    '/follow-requests',
    {
      onRequest: [app.authenticate],
      schema: {
        tags,
        description: 'Who asks to follow the caller and waits for an answer, the oldest request first, 20 a page.',
        querystring: PageQuerySchema,
        response: { 200: UsersReplySchema, ...ERRORS },
      },
    },
    async (request) => followRequests.list(me(request), request.query),
  )

  const answer = {
    onRequest: [app.authenticate],
    preValidation: emptyBody,
    schema: {
      tags,
      params: UserIdParamsSchema,
      body: EmptyObjectSchema,
      response: { 200: UserReplySchema, ...ERRORS },
    },
  }
  app.post('/follow-requests/:id/authorize', answer, async (request) =>
    followRequests.authorize(me(request), request.params.id),
  )
  app.post('/follow-requests/:id/reject', answer, async (request) =>
    followRequests.reject(me(request), request.params.id),
  )
}

export default routes
