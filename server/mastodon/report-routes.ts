import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { LIMITS } from '../../common/limits.js'
import { AppError } from '../errors.js'
import type { ReportBody } from '../schemas/moderation.js'
import { statusKeyOf } from '../services/status-ids.js'
import { accountOf } from './account-entity.js'
import { ERROR_REPLIES, orNotFound, recordNotFound } from './errors.js'
import type { MastodonOptions } from './options.js'
import { AccountSchema, Nullable } from './schemas.js'

/** Mastodon's categories by Chirp's: a rule broken is abuse here, a law broken illegal. */
const CATEGORIES = { spam: 'spam', legal: 'illegal', violation: 'abuse', other: 'other' } as const
const CATEGORY_NAMES = { spam: 'spam', illegal: 'legal', abuse: 'violation', other: 'other' } as const
/** Far more statuses than one report needs. */
const MAX_STATUSES = 20

const StatusIds = Type.Union([
  Type.String({ maxLength: 100 }),
  Type.Array(Type.String({ maxLength: 100 }), { maxItems: MAX_STATUSES }),
])
const ReportBodySchema = Type.Object({
  account_id: Type.String({ minLength: 1, maxLength: 100 }),
  status_ids: Type.Optional(StatusIds),
  'status_ids[]': Type.Optional(StatusIds),
  comment: Type.Optional(Type.String({ maxLength: LIMITS.reportComment })),
  category: Type.Optional(
    Type.Union([Type.Literal('spam'), Type.Literal('legal'), Type.Literal('violation'), Type.Literal('other')]),
  ),
  forward: Type.Optional(Type.Union([Type.Boolean(), Type.String({ maxLength: 8 })])),
  rule_ids: Type.Optional(Type.Unknown()),
})

const ReportSchema = Type.Object(
  {
    id: Type.String(),
    action_taken: Type.Boolean(),
    action_taken_at: Nullable(Type.String()),
    category: Type.String(),
    comment: Type.String(),
    forwarded: Type.Boolean(),
    created_at: Type.String(),
    status_ids: Nullable(Type.Array(Type.String())),
    rule_ids: Nullable(Type.Array(Type.String())),
    target_account: AccountSchema,
  },
  { title: 'MastodonReport' },
)

/**
 * Reports through Chirp's reports service, which keeps its rules (what the reporter may read, never
 * oneself, ten an hour) and tells the moderators. A Chirp report names one thing: an account alone is a
 * report of the person; with statuses, each status is a report of its own, all of them checked before
 * any is filed.
 */
const routes: FastifyPluginAsyncTypebox<MastodonOptions> = async (app, { services, publicUrl }) => {
  app.post(
    '/api/v1/reports',
    {
      config: { scope: 'write:reports' },
      schema: {
        tags: ['mastodon'],
        description:
          'Reports an account, or statuses of it, to the moderators; `category` spam, legal, violation or other.',
        body: ReportBodySchema,
        response: { 200: ReportSchema, ...ERROR_REPLIES },
      },
    },
    async (request) => {
      const meId = request.user._id
      const body = request.body
      const { user } = await orNotFound(services.users.get(body.account_id, meId))
      const statusIds = [...new Set([body.status_ids ?? [], body['status_ids[]'] ?? []].flat())]
      const postIds = await Promise.all(
        statusIds.map(async (id) => {
          const key = statusKeyOf(id)
          if (!key || key.by !== undefined) throw recordNotFound()
          const { post } = await orNotFound(services.posts.get(key.postId, meId))
          if (post.username !== user.username) {
            throw new AppError(422, 'Validation failed: Statuses must be by the reported account')
          }
          return key.postId
        }),
      )
      const category = CATEGORIES[body.category ?? 'other']
      const comment = body.comment ?? ''
      const targets: Pick<ReportBody, 'targetType' | 'targetId'>[] =
        postIds.length === 0
          ? [{ targetType: 'user', targetId: user._id }]
          : postIds.map((postId) => ({ targetType: 'post', targetId: postId }))
      const filed = []
      for (const target of targets) {
        filed.push((await services.reports.create(meId, { ...target, category, comment })).report)
      }
      const [first] = filed
      if (!first) throw new Error('a report filed')
      return {
        id: first._id,
        action_taken: false,
        action_taken_at: null,
        category: CATEGORY_NAMES[first.category],
        comment: first.comment,
        forwarded: false,
        created_at: first.createdAt,
        status_ids: statusIds,
        rule_ids: null,
        target_account: accountOf(user, publicUrl),
      }
    },
  )
}

export default routes
