import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { ERROR_REPLIES } from './errors.js'
import type { MastodonOptions } from './options.js'
import { PageQuerySchema, pageWindow } from './paging.js'
import { readerIdOf, sendTimeline } from './status-page.js'
import { StatusSchema } from './status-schemas.js'

const Statuses = { 200: Type.Array(StatusSchema), ...ERROR_REPLIES }
const Flag = Type.Optional(Type.Union([Type.Boolean(), Type.String({ maxLength: 8 })]))
const on = (flag: boolean | string | undefined) => flag === true || flag === 'true' || flag === '1'

/** The timelines (DECISIONS §13): home, public and a tag's, paged by status ids with Link headers. */
const routes: FastifyPluginAsyncTypebox<MastodonOptions> = async (app, { services, publicUrl }) => {
  app.get(
    '/api/v1/timelines/home',
    {
      config: { scope: 'read:statuses' },
      schema: {
        tags: ['mastodon'],
        description: "The person's home timeline, as Chirp's own home feed: reposts are statuses of their own.",
        querystring: PageQuerySchema,
        response: Statuses,
      },
    },
    async (request, reply) => {
      const userId = request.user._id
      const entries = await services.timelines.home(userId, pageWindow(request.query))
      return sendTimeline(reply, request, services, publicUrl, entries, userId)
    },
  )

  app.get(
    '/api/v1/timelines/public',
    {
      onRequest: [app.identify],
      schema: {
        tags: ['mastodon'],
        description:
          "Everyone's public posts; `local` changes nothing, as every post is this server's, and `remote` finds none.",
        querystring: Type.Composite([PageQuerySchema, Type.Object({ local: Flag, remote: Flag })]),
        response: Statuses,
      },
    },
    async (request, reply) => {
      const readerId = readerIdOf(request)
      const window = pageWindow(request.query)
      const entries = on(request.query.remote) ? [] : await services.timelines.public(readerId, window)
      return sendTimeline(reply, request, services, publicUrl, entries, readerId)
    },
  )

  app.get(
    '/api/v1/timelines/tag/:hashtag',
    {
      onRequest: [app.identify],
      schema: {
        tags: ['mastodon'],
        description: "A hashtag's public posts, the tag matched without regard to case.",
        params: Type.Object({ hashtag: Type.String({ minLength: 1, maxLength: 200 }) }),
        querystring: Type.Composite([PageQuerySchema, Type.Object({ local: Flag })]),
        response: Statuses,
      },
    },
    async (request, reply) => {
      const readerId = readerIdOf(request)
      const entries = await services.timelines.tag(request.params.hashtag, readerId, pageWindow(request.query))
      return sendTimeline(reply, request, services, publicUrl, entries, readerId)
    },
  )
}

export default routes
