import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { statusKeyOf } from '../services/status-ids.js'
import { accountOf } from './account-entity.js'
import { ERROR_REPLIES, recordNotFound } from './errors.js'
import type { MastodonOptions } from './options.js'
import { PageQuerySchema, cursorLinkHeader } from './paging.js'
import { AccountSchema } from './schemas.js'
import { readerIdOf, statusesOf } from './status-page.js'
import { StatusSchema } from './status-schemas.js'

const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) })

/**
 * The person's bookmarks and favourites, and who favourited a status: lists in the order Chirp keeps them
 * (the newest mark first), paged by Chirp's own cursors, which their `Link` headers carry as `max_id`.
 */
const routes: FastifyPluginAsyncTypebox<MastodonOptions> = async (app, { services, publicUrl }) => {
  const limitOf = (limit: number | undefined) => Math.min(Math.max(limit ?? 20, 1), 40)
  const here = (url: string) => new URL(url, `${publicUrl}/`)

  app.get(
    '/api/v1/bookmarks',
    {
      config: { scope: 'read:bookmarks' },
      schema: {
        tags: ['mastodon'],
        description: "The person's bookmarks, the newest bookmark first.",
        querystring: PageQuerySchema,
        response: { 200: Type.Array(StatusSchema), ...ERROR_REPLIES },
      },
    },
    async (request, reply) => {
      const userId = request.user._id
      const page = { limit: limitOf(request.query.limit), cursor: request.query.max_id }
      const { bookmarks, nextCursor } = await services.users.bookmarks(userId, page, { userId, compact: false })
      const link = cursorLinkHeader(here(request.url), nextCursor)
      if (link !== undefined) void reply.header('link', link)
      return statusesOf(services, publicUrl, bookmarks, userId)
    },
  )

  app.get(
    '/api/v1/favourites',
    {
      config: { scope: 'read:favourites' },
      schema: {
        tags: ['mastodon'],
        description: 'The posts the person likes, the newest like first.',
        querystring: PageQuerySchema,
        response: { 200: Type.Array(StatusSchema), ...ERROR_REPLIES },
      },
    },
    async (request, reply) => {
      const userId = request.user._id
      const { user } = await services.users.own(userId)
      const page = { limit: limitOf(request.query.limit), cursor: request.query.max_id }
      const { posts, nextCursor } = await services.posts.likedBy(user.username, page, { userId, compact: false })
      const link = cursorLinkHeader(here(request.url), nextCursor)
      if (link !== undefined) void reply.header('link', link)
      return statusesOf(services, publicUrl, posts, userId)
    },
  )

  app.get(
    '/api/v1/statuses/:id/favourited_by',
    {
      onRequest: [app.identify],
      schema: {
        tags: ['mastodon'],
        description: 'Who favourited the status, the newest first, as the reader may see them.',
        params: IdParams,
        querystring: PageQuerySchema,
        response: { 200: Type.Array(AccountSchema), ...ERROR_REPLIES },
      },
    },
    async (request, reply) => {
      const key = statusKeyOf(request.params.id)
      if (!key) throw recordNotFound()
      const readerId = readerIdOf(request)
      const page = { limit: limitOf(request.query.limit), cursor: request.query.max_id }
      const { users, nextCursor } = await services.posts.likers(key.postId, page, readerId)
      const link = cursorLinkHeader(here(request.url), nextCursor)
      if (link !== undefined) void reply.header('link', link)
      const people = await Promise.all(users.map((user) => services.users.get(user._id, readerId)))
      return people.map(({ user }) => accountOf(user, publicUrl))
    },
  )
}

export default routes
