import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { SearchQuerySchema, SearchReplySchema } from '../schemas/search.js'
import { sendPostList } from './post-list-reply.js'
import { ERRORS, readerOf, type RouteOptions } from './shared.js'

const routes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { services }) => {
  app.get(
    '/search',
    {
      onRequest: [app.identify],
      schema: {
        tags: ['search'],
        description:
          '`type=posts`: posts holding every word of `q`, without regard to case or accents, newest first; `#tag` finds the ' +
          "tag's posts and `@name` the posts mentioning name. `type=users`: people each word of `q` begins a word of the " +
          'username, first or last name of, by username; `@name` matches usernames beginning with name. Without `type`, a ' +
          '`q` starting with `@` searches people and any other posts. 20 a page unless `limit` says otherwise.',
        querystring: SearchQuerySchema,
        response: { 200: SearchReplySchema, ...ERRORS },
      },
    },
    async (request, reply) => {
      const found = await services.search.search(request.query, readerOf(request))
      return 'posts' in found ? sendPostList(reply, found) : found
    },
  )
}

export default routes
