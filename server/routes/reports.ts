import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { FiledReportReplySchema, ReportBodySchema } from '../schemas/moderation.js'
import { ERRORS, me, type RouteOptions } from './shared.js'

const routes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { services }) => {
  app.post(
    '/reports',
    {
      onRequest: [app.authenticate],
      schema: {
        tags: ['moderation'],
        description:
          'Reports a post, a comment (with its `postId`) or a user to the moderators: 10 an hour per user, never ' +
          "oneself or one's own content. Moderators' open screens hear of it at once. The answer is the report " +
          'without the reported content.',
        body: ReportBodySchema,
        response: { 201: FiledReportReplySchema, ...ERRORS },
      },
    },
    async (request, reply) => reply.code(201).send(await services.reports.create(me(request), request.body)),
  )
}

export default routes
