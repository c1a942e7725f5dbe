import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import {
  FiledReportReplySchema,
  ReportBodySchema,
  ReportReplySchema,
  ReportsQuerySchema,
  ReportsReplySchema,
  ResolveBodySchema,
  UserRefParamsSchema,
} from '../schemas/moderation.js'
import { ERRORS, me, type RouteOptions } from './shared.js'
import { staffScope, type StaffRouteOptions } from './staff-scope.js'

const tags = ['moderation']

/** The moderation queue: moderators and admins (DECISIONS §8). */
const queueRoutes: FastifyPluginAsyncTypebox<StaffRouteOptions<'moderator'>> = async (app, { services, staff }) => {
  const { reports } = services
  app.get(
    '/admin/reports',
    { schema: { tags, querystring: ReportsQuerySchema, response: { 200: ReportsReplySchema, ...ERRORS } } },
    async (request) => reports.list(staff(request), request.query),
  )

  app.post(
    '/admin/reports/:id/resolve',
    {
      schema: {
        tags,
        description:
          '`dismiss` closes the report, `remove` deletes the reported post or comment, `suspend` suspends the ' +
          'reported user or the author of the reported content until unsuspended.',
        params: UserRefParamsSchema,
        body: ResolveBodySchema,
        response: { 200: ReportReplySchema, ...ERRORS },
      },
    },
    async (request) => {
      const { report, suspended } = await reports.resolve(staff(request), request.params.id, request.body)
      if (suspended) await app.events.endUser(suspended)
      return { report }
    },
  )
}

/** Filing a report, for anyone signed in, and the queue the reports wait in. */
const routes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, options) => {
  app.post(
    '/reports',
    {
      onRequest: [app.authenticate],
      schema: {
        tags,
        description:
          'Reports a post, a comment (with its `postId`) or a user to the moderators: 10 an hour per user, never ' +
          "oneself or one's own content. Moderators' open screens hear of it at once. The answer is the report " +
          'without the reported content.',
        body: ReportBodySchema,
        response: { 201: FiledReportReplySchema, ...ERRORS },
      },
    },
    async (request, reply) => reply.code(201).send(await options.services.reports.create(me(request), request.body)),
  )
  await app.register(staffScope('moderator', queueRoutes), options)
}

export default routes
