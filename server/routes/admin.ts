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
  RoleBodySchema,
  SuspendBodySchema,
  UserRefParamsSchema,
} from '../schemas/moderation.js'
import { JobsReplySchema } from '../schemas/jobs.js'
import { CommentParamsSchema, IdParamsSchema } from '../schemas/posts.js'
import { ERRORS, emptyBody, type RouteOptions } from './shared.js'
import type { FastifyRequest } from 'fastify'
import { Type } from '@sinclair/typebox'
import { EMOJI_MAX_BYTES } from '../../common/custom-emoji.js'
import { MSG, badRequest, payloadTooLarge } from '../errors.js'
import { uploadError } from '../services/media.js'

const EmojiReplySchema = Type.Object({ shortcode: Type.String(), url: Type.String() }, { title: 'CustomEmoji' })
const EmojiParamsSchema = Type.Object({ shortcode: Type.String({ maxLength: 64 }) })
import { staffScope, type StaffRouteOptions } from './staff-scope.js'

const tags = ['moderation']

/** Moderator actions on people and content, the audit log and invites: moderators and admins (DECISIONS §8). */
const moderatorRoutes: FastifyPluginAsyncTypebox<StaffRouteOptions<'moderator'>> = async (app, { services, staff }) => {
  const { moderation } = services
  const userAction = {
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
    '/admin/users',
    {
      schema: { tags, querystring: ModeratedUsersQuerySchema, response: { 200: ModeratedUsersReplySchema, ...ERRORS } },
    },
    async (request) => moderation.pending(staff(request), request.query),
  )

  app.get(
    '/admin/users/:id',
    {
      schema: { tags, params: UserRefParamsSchema, response: { 200: ModeratedUserReplySchema, ...ERRORS } },
    },
    async (request) => moderation.user(staff(request), request.params.id),
  )

  app.post(
    '/admin/users/:id/suspend',
    {
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
      const answer = await moderation.suspend(staff(request), request.params.id, request.body)
      await app.events.endUser(request.params.id)
      return answer
    },
  )

  app.post('/admin/users/:id/unsuspend', userAction, async (request) =>
    moderation.unsuspend(staff(request), request.params.id),
  )
  app.post('/admin/users/:id/approve', userAction, async (request) =>
    moderation.approve(staff(request), request.params.id),
  )
  app.post(
    '/admin/users/:id/reject',
    { ...userAction, schema: { ...userAction.schema, response: removal } },
    async (request) => moderation.reject(staff(request), request.params.id),
  )

  app.delete('/admin/posts/:id', { schema: { tags, params: IdParamsSchema, response: removal } }, async (request) =>
    moderation.removePost(staff(request), request.params.id),
  )
  app.delete(
    '/admin/comments/:postId/:commentId',
    { schema: { tags, params: CommentParamsSchema, response: removal } },
    async (request) => moderation.removeComment(staff(request), request.params.postId, request.params.commentId),
  )

  app.get(
    '/admin/log',
    { schema: { tags, querystring: PageQuerySchema, response: { 200: AuditLogReplySchema, ...ERRORS } } },
    async (request) => moderation.log(staff(request), request.query),
  )

  app.post(
    '/invites',
    {
      preValidation: emptyBody,
      schema: { tags, body: InviteBodySchema, response: { 201: InviteReplySchema, ...ERRORS } },
    },
    async (request, reply) => reply.code(201).send(await moderation.createInvite(staff(request), request.body)),
  )
  app.get(
    '/invites',
    { schema: { tags, querystring: PageQuerySchema, response: { 200: InvitesReplySchema, ...ERRORS } } },
    async (request) => moderation.invites(staff(request), request.query),
  )
}

/** Roles and the job queue: admins only (DECISIONS §8, §17). */
const adminRoutes: FastifyPluginAsyncTypebox<StaffRouteOptions<'admin'>> = async (app, { services, staff }) => {
  const { moderation, jobs, customEmojis } = services
  app.post(
    '/admin/users/:id/role',
    {
      schema: {
        tags,
        params: UserRefParamsSchema,
        body: RoleBodySchema,
        response: { 200: ModeratedUserReplySchema, ...ERRORS },
      },
    },
    async (request) => moderation.setRole(staff(request), request.params.id, request.body.role),
  )

  app.get(
    '/admin/jobs',
    {
      schema: {
        tags,
        description:
          'The job queue (admins only): how many jobs of each kind are queued, running, done and failed, done ' +
          'and failed ones for as long as they are kept, and the latest failures with their last error.',
        response: { 200: JobsReplySchema, ...ERRORS },
      },
    },
    async (request) => jobs.overview(staff(request)),
  )

  app.post(
    '/admin/emojis',
    {
      schema: {
        tags,
        description:
          'Adds a custom emoji (admins only), as multipart/form-data: the field `shortcode` (2 to 32 of A-Z, a-z, 0-9 and _, ' +
          'not taken: a taken one is a 422) and the image in the field `file` (JPEG, PNG, GIF or WebP, at most 262144 bytes: ' +
          'more is a 413), re-encoded as uploads are. `:shortcode:` in posts, comments, names and bios then shows it.',
        consumes: ['multipart/form-data'],
        response: { 201: EmojiReplySchema, ...ERRORS },
      },
    },
    async (request, reply) => {
      const { shortcode, file } = await emojiParts(request)
      const emoji = await customEmojis.add(staff(request), shortcode, file)
      return reply.code(201).send({ shortcode: emoji._id, url: emoji.url })
    },
  )

  app.delete(
    '/admin/emojis/:shortcode',
    {
      schema: {
        tags,
        description: 'Deletes a custom emoji (admins only); its image is deleted within a minute.',
        params: EmojiParamsSchema,
        response: { 200: EmptyObjectSchema, ...ERRORS },
      },
    },
    async (request) => {
      await customEmojis.remove(staff(request), request.params.shortcode)
      return {}
    },
  )
}

/**
 * The two parts of an emoji upload, in either order: the shortcode and the file, read whole (at most the
 * size an emoji may have).
 */
async function emojiParts(request: FastifyRequest): Promise<{ shortcode: string; file: Buffer }> {
  let shortcode: string | undefined
  let file: Buffer | undefined
  try {
    const parts = request.parts({ limits: { fileSize: EMOJI_MAX_BYTES, files: 1, fields: 1, parts: 2 } })
    for await (const part of parts) {
      if (part.type === 'file' && part.fieldname === 'file') {
        const chunks: Buffer[] = []
        for await (const chunk of part.file) chunks.push(chunk as Buffer)
        file = Buffer.concat(chunks)
      } else if (part.type === 'field' && part.fieldname === 'shortcode' && typeof part.value === 'string') {
        shortcode = part.value
      } else {
        throw badRequest(MSG.emojiPartsWanted)
      }
    }
  } catch (error) {
    const code = (error as { code?: string }).code
    // The parser stops at the limit the service keeps (custom-emojis.ts), so that more is never read.
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw payloadTooLarge(MSG.emojiTooLarge)
    if (code === 'FST_FILES_LIMIT' || code === 'FST_FIELDS_LIMIT' || code === 'FST_PARTS_LIMIT') {
      throw badRequest(MSG.emojiPartsWanted)
    }
    throw uploadError(error)
  }
  if (shortcode === undefined || file === undefined) throw badRequest(MSG.emojiPartsWanted)
  return { shortcode, file }
}

const routes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, options) => {
  await app.register(staffScope('moderator', moderatorRoutes), options)
  await app.register(staffScope('admin', adminRoutes), options)
}

export default routes
