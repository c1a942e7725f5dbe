import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { FeedQuerySchema, FeedReplySchema } from '../schemas/posts.js'
import { sendPostList } from './post-list-reply.js'
import { ERRORS, me, readerOf, type RouteOptions } from './shared.js'

const routes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { services }) => {
  app.get(
    '/feed',
    {
      onRequest: [app.authenticate],
      schema: {
        tags: ['posts'],
        description: "The home timeline: the caller's posts and those of everyone they follow.",
        querystring: FeedQuerySchema,
        response: { 200: FeedReplySchema, ...ERRORS },
      },
    },
    async (request, reply) =>
      sendPostList(reply, await services.posts.feed(me(request), request.query, readerOf(request))),
  )
}

export default routes
