import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { statusKeyOf } from '../services/status-ids.js'
import { accountOf } from './account-entity.js'
import { ERROR_REPLIES, recordNotFound } from './errors.js'
import type { MastodonOptions } from './options.js'
import { PageQuerySchema, cursorLinkHeader } from './paging.js'
import { AccountSchema } from './schemas.js'
import { readerIdOf, recordOr404, statusesOf } from './status-page.js'
import { commentIn, threadOf } from './thread-page.js'
import { StatusSchema } from './status-schemas.js'

const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) })

/**
 * The person's bookmarks and favourites, and who favourited or reblogged a status: lists in the order Chirp keeps them
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

  /**
   * Who favourited or reblogged a status, the newest first, as the reader may see them. A comment's
   * favourites are its upvotes, all on one page; nobody reblogs a comment.
   */
  const people = [
    { path: 'favourited_by', verb: 'favourited', list: services.posts.likers },
    { path: 'reblogged_by', verb: 'reblogged', list: services.posts.reposters },
  ] as const
  for (const { path, verb, list } of people) {
    app.get(
      `/api/v1/statuses/:id/${path}`,
      {
        onRequest: [app.identify],
        schema: {
          tags: ['mastodon'],
          description: `Who ${verb} the status, the newest first, as the reader may see them; paged by the Link header.`,
          params: IdParams,
          querystring: PageQuerySchema,
          response: { 200: Type.Array(AccountSchema), ...ERROR_REPLIES },
        },
      },
      async (request, reply) => {
        const key = statusKeyOf(request.params.id)
        if (!key) throw recordNotFound()
        const readerId = readerIdOf(request)
        const accounts = async (ids: readonly string[]) => {
          const found = await Promise.all(ids.map((id) => services.users.get(id, readerId)))
          return found.map(({ user }) => accountOf(user, publicUrl))
        }
        if (key.commentId !== undefined) {
          const comment = commentIn(await threadOf(services, key.postId, readerId), key)
          return path === 'reblogged_by' ? [] : accounts(comment.votes.upvotedBy.map((user) => user._id).reverse())
        }
        const page = { limit: limitOf(request.query.limit), cursor: request.query.max_id }
        const { users, nextCursor } = await recordOr404(list(key.postId, page, readerId))
        const link = cursorLinkHeader(here(request.url), nextCursor)
        if (link !== undefined) void reply.header('link', link)
        return accounts(users.map((user) => user._id))
      },
    )
  }
}

export default routes
