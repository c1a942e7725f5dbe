import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { EmptyObjectSchema, PageQuerySchema } from '../schemas/common.js'
import {
  AuditLogReplySchema,
  InviteBodySchema,
  InviteReplySchema,
  InvitesReplySchema,
  ModeratedUserReplySchema,
  ModeratedUsersQuerySchema,
  ModeratedUsersReplySchema,
  ReportReplySchema,
  ReportsQuerySchema,
  ReportsReplySchema,
  ResolveBodySchema,
  RoleBodySchema,
  SuspendBodySchema,
  UserRefParamsSchema,
} from '../schemas/moderation.js'
import { JobsReplySchema } from '../schemas/jobs.js'
import { CommentParamsSchema, IdParamsSchema } from '../schemas/posts.js'
import { ERRORS, emptyBody, me, type RouteOptions } from './shared.js'

/** The moderation queue, moderator actions, the audit log and invites: moderators and admins only (DECISIONS §8). */
const routes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { services }) => {
  const { moderation, reports, jobs } = services
  const tags = ['moderation']
  const onRequest = [app.authenticate]
  const userAction = {
    onRequest,
    preValidation: emptyBody,
    schema: {
      tags,
      params: UserRefParamsSchema,
      body: EmptyObjectSchema,
      response: { 200: ModeratedUserReplySchema, ...ERRORS },
    },
  }
  const removal = { 200: EmptyObjectSchema, ...ERRORS }

  app.get(
    '/admin/reports',
    { onRequest, schema: { tags, querystring: ReportsQuerySchema, response: { 200: ReportsReplySchema, ...ERRORS } } },
    async (request) => reports.list(me(request), request.query),
  )

  app.post(
    '/admin/reports/:id/resolve',
    {
      onRequest,
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
      const { report, suspended } = await reports.resolve(me(request), request.params.id, request.body)
      if (suspended) await app.events.endUser(suspended)
      return { report }
    },
  )

  app.get(
    '/admin/users',
    {
      onRequest,
      schema: { tags, querystring: ModeratedUsersQuerySchema, response: { 200: ModeratedUsersReplySchema, ...ERRORS } },
    },
    async (request) => moderation.pending(me(request), request.query),
  )

  app.get(
    '/admin/users/:id',
    {
      onRequest,
      schema: { tags, params: UserRefParamsSchema, response: { 200: ModeratedUserReplySchema, ...ERRORS } },
    },
    async (request) => moderation.user(me(request), request.params.id),
  )

  app.post(
    '/admin/users/:id/role',
    {
      onRequest,
      schema: {
        tags,
        params: UserRefParamsSchema,
        body: RoleBodySchema,
        response: { 200: ModeratedUserReplySchema, ...ERRORS },
      },
    },
    async (request) => moderation.setRole(me(request), request.params.id, request.body.role),
  )

  app.post(
    '/admin/users/:id/suspend',
    {
      onRequest,
      schema: {
        tags,
        description:
          'Ends every token and stream of the user at once, on every instance, and refuses their logins; without `days` it lasts until unsuspended. A moderator may suspend only users without a role.',
        params: UserRefParamsSchema,
        body: SuspendBodySchema,
        response: { 200: ModeratedUserReplySchema, ...ERRORS },
      },
    },
    async (request) => {
      const answer = await moderation.suspend(me(request), request.params.id, request.body)
      await app.events.endUser(request.params.id)
      return answer
    },
  )

  app.post('/admin/users/:id/unsuspend', userAction, async (request) =>
    moderation.unsuspend(me(request), request.params.id),
  )
  app.post('/admin/users/:id/approve', userAction, async (request) =>
    moderation.approve(me(request), request.params.id),
  )
  app.post(
    '/admin/users/:id/reject',
    { ...userAction, schema: { ...userAction.schema, response: removal } },
    async (request) => moderation.reject(me(request), request.params.id),
  )

  app.delete(
    '/admin/posts/:id',
    { onRequest, schema: { tags, params: IdParamsSchema, response: removal } },
    async (request) => moderation.removePost(me(request), request.params.id),
  )
  app.delete(
    '/admin/comments/:postId/:commentId',
    { onRequest, schema: { tags, params: CommentParamsSchema, response: removal } },
    async (request) => moderation.removeComment(me(request), request.params.postId, request.params.commentId),
  )

  app.get(
    '/admin/log',
    { onRequest, schema: { tags, querystring: PageQuerySchema, response: { 200: AuditLogReplySchema, ...ERRORS } } },
    async (request) => moderation.log(me(request), request.query),
  )

  app.get(
    '/admin/jobs',
    {
      onRequest,
      schema: {
        tags,
        description:
          'The job queue (admins only): how many jobs of each kind are queued, running, done and failed, done ' +
          'and failed ones for as long as they are kept, and the latest failures with their last error.',
        response: { 200: JobsReplySchema, ...ERRORS },
      },
    },
    async (request) => jobs.overview(me(request)),
  )

  app.post(
    '/invites',
    {
      onRequest,
      preValidation: emptyBody,
      schema: { tags, body: InviteBodySchema, response: { 201: InviteReplySchema, ...ERRORS } },
    },
    async (request, reply) => reply.code(201).send(await moderation.createInvite(me(request), request.body)),
  )
  app.get(
    '/invites',
    { onRequest, schema: { tags, querystring: PageQuerySchema, response: { 200: InvitesReplySchema, ...ERRORS } } },
    async (request) => moderation.invites(me(request), request.query),
  )
}

export default routes
