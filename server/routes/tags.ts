import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { FeedReplySchema } from '../schemas/posts.js'
import { PageQueryOpenSchema, TagParamsSchema, TrendingQuerySchema, TrendingReplySchema } from '../schemas/search.js'
import { sendPostList } from './post-list-reply.js'
import { ERRORS, readerOf, type RouteOptions, viewer } from './shared.js'

const routes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { services }) => {
  const { search } = services
  const tags = ['tags']

  app.get(
    '/posts/tag/:tag',
    {
      onRequest: [app.identify],
      schema: {
        tags,
        description:
          "A hashtag's posts, newest first, 20 a page unless `limit` says otherwise. The tag is written without `#` and " +
          'matched without regard to case: 1 to 50 letters of any script, digits or `_`, not only digits.',
        params: TagParamsSchema,
        querystring: PageQueryOpenSchema,
        response: { 200: FeedReplySchema, ...ERRORS },
      },
    },
    async (request, reply) =>
      sendPostList(reply, await search.byTag(request.params.tag, request.query, readerOf(request))),
  )

  app.get(
    '/tags/trending',
    {
      onRequest: [app.identify],
      schema: {
        tags,
        description:
          'The tags used most in the last 7 days (10 unless `limit` says otherwise), with how many posts of those days carry each.',
        querystring: TrendingQuerySchema,
        response: { 200: TrendingReplySchema, ...ERRORS },
      },
    },
    async (request) => search.trending(request.query.limit ?? 10, viewer(request)),
  )
}

export default routes
