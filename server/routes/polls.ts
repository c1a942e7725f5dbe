import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { PostIdParamsSchema, PostReplySchema, VoteDataSchema } from '../schemas/posts.js'
import { ERRORS, me, type RouteOptions } from './shared.js'

const routes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { services }) => {
  const { polls, posts } = services

  app.post(
    '/polls/:postId/vote',
    {
      onRequest: [app.authenticate],
      schema: {
        tags: ['posts'],
        description: "A vote in the post's poll, once: `choice` is the option's index from 0.",
        params: PostIdParamsSchema,
        body: VoteDataSchema,
        response: { 200: PostReplySchema, ...ERRORS },
      },
    },
    async (request) => {
      const { postId } = request.params
      await polls.vote(me(request), postId, request.body.choice)
      return posts.get(postId, me(request))
    },
  )
}

export default routes
