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
        description:
          "The home timeline: the caller's posts and those of everyone they follow; with `list`, that list's timeline.",
        querystring: FeedQuerySchema,
        response: { 200: FeedReplySchema, ...ERRORS },
      },
    },
    async (request, reply) => {
      const { list, ...query } = request.query
      const page =
        list === undefined
          ? await services.posts.feed(me(request), query, readerOf(request))
          : await services.posts.byList(me(request), list, { ...query, sort: 'latest' }, readerOf(request))
      return sendPostList(reply, page)
    },
  )
}

export default routes
