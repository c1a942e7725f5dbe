import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { ERROR_REPLIES } from './errors.js'
import type { MastodonOptions } from './options.js'
import { PageQuerySchema, pageWindow } from './paging.js'
import { ScheduledStatusSchema, scheduledStatusOf } from './scheduled-status.js'
import { recordOr404 } from './status-page.js'

const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) })
const MoveBody = Type.Object({ scheduled_at: Type.Optional(Type.String({ maxLength: 100 })) })

/**
 * Scheduled statuses (DECISIONS §15, §17), over the scheduled posts service: the person's own alone,
 * the soonest first, paged by `max_id` (those after it) and `min_id` (those before it) with a Link header.
 * Chirp's own client reads and changes its scheduled posts here.
 */
const routes: FastifyPluginAsyncTypebox<MastodonOptions> = async (app, { services, publicUrl }) => {
  const { scheduledPosts } = services
  const tags = ['mastodon']
  const one = { 200: ScheduledStatusSchema, ...ERROR_REPLIES }
  const entity = (scheduled: Parameters<typeof scheduledStatusOf>[2]) =>
    scheduledStatusOf(services, publicUrl, scheduled)

  app.get(
    '/api/v1/scheduled_statuses',
    {
      config: { scope: 'read:statuses' },
      schema: {
        tags,
        description: "The person's scheduled statuses, the soonest first, 20 a page (at most 40).",
        querystring: PageQuerySchema,
        response: { 200: Type.Array(ScheduledStatusSchema), ...ERROR_REPLIES },
      },
    },
    async (request, reply) => {
      const window = pageWindow(request.query)
      const page = await scheduledPosts.list(request.user._id, {
        limit: window.limit,
        maxId: window.maxId,
        minId: window.minId ?? window.sinceId,
      })
      const first = page[0]
      const last = page.at(-1)
      if (first && last) {
        const to = (name: string, id: string) => {
          const target = new URL(request.url, `${publicUrl}/`)
          for (const each of ['max_id', 'since_id', 'min_id']) target.searchParams.delete(each)
          target.searchParams.set(name, id)
          return target.href
        }
        void reply.header('link', `<${to('max_id', last._id)}>; rel="next", <${to('min_id', first._id)}>; rel="prev"`)
      }
      return page.map(entity)
    },
  )

  app.get(
    '/api/v1/scheduled_statuses/:id',
    {
      config: { scope: 'read:statuses' },
      schema: { tags, description: "One of the person's scheduled statuses.", params: IdParams, response: one },
    },
    async (request) =>
      entity((await recordOr404(scheduledPosts.get(request.user._id, request.params.id))).scheduledPost),
  )

  app.put(
    '/api/v1/scheduled_statuses/:id',
    {
      config: { scope: 'write:statuses' },
      schema: {
        tags,
        description: 'Moves a scheduled status to another time, at least 5 minutes ahead.',
        params: IdParams,
        body: MoveBody,
        response: one,
      },
    },
    async (request) => {
      const at = request.body.scheduled_at
      const { scheduledPost } = await recordOr404(
        at === undefined
          ? scheduledPosts.get(request.user._id, request.params.id)
          : scheduledPosts.reschedule(request.user._id, request.params.id, at),
      )
      return entity(scheduledPost)
    },
  )

  app.delete(
    '/api/v1/scheduled_statuses/:id',
    {
      config: { scope: 'write:statuses' },
      schema: {
        tags,
        description: 'Cancels a scheduled status: it is never published.',
        params: IdParams,
        response: { 200: Type.Object({}), ...ERROR_REPLIES },
      },
    },
    async (request) => {
      await recordOr404(scheduledPosts.cancel(request.user._id, request.params.id))
      return {}
    },
  )
}

export default routes
