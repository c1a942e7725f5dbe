import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { accountsOf } from './account-entity.js'
import { ERROR_REPLIES, orNotFound } from './errors.js'
import type { MastodonOptions } from './options.js'
import { AccountSchema } from './schemas.js'
import { readerIdOf, statusesOf } from './status-page.js'
import { StatusSchema } from './status-schemas.js'

const TagSchema = Type.Object(
  {
    name: Type.String(),
    url: Type.String(),
    /** Chirp counts a tag's use over the week, not day by day: no days to list. */
    history: Type.Array(Type.Object({ day: Type.String(), uses: Type.String(), accounts: Type.String() })),
  },
  { title: 'MastodonTag' },
)
const SuggestionSchema = Type.Object(
  {
    source: Type.String(),
    sources: Type.Array(Type.String()),
    account: AccountSchema,
  },
  { title: 'MastodonSuggestion' },
)
const OffsetQuerySchema = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1 })),
  offset: Type.Optional(Type.Integer({ minimum: 0 })),
})
/** How far into a trend a client may page: its items are read from the top each time. */
const MAX_OFFSET = 200

/**
 * What Chirp already ranks, as Mastodon's trends and suggestions: the tags of the week's public posts, the
 * most used first; the public posts most liked; and Who to follow (the most followed people the person
 * does not follow yet). Trends page by `offset`, as Mastodon's do.
 */
const routes: FastifyPluginAsyncTypebox<MastodonOptions> = async (app, { services, publicUrl }) => {
  /** The items from `offset`, at most `limit` (clamped to `max`); none past MAX_OFFSET. */
  const windowOf = (
    query: { limit?: number | undefined; offset?: number | undefined },
    fallback: number,
    max: number,
  ) => {
    const limit = Math.min(Math.max(query.limit ?? fallback, 1), max)
    const offset = query.offset ?? 0
    return { limit, offset, end: offset > MAX_OFFSET ? 0 : offset + limit }
  }

  app.get(
    '/api/v1/trends/tags',
    {
      onRequest: [app.identify],
      schema: {
        tags: ['mastodon'],
        description: "The tags of the week's public posts, the most used first.",
        querystring: OffsetQuerySchema,
        response: { 200: Type.Array(TagSchema), ...ERROR_REPLIES },
      },
    },
    async (request) => {
      const { offset, end } = windowOf(request.query, 10, 20)
      if (end === 0) return []
      const { tags } = await services.search.trending(end, readerIdOf(request))
      return tags.slice(offset).map(({ tag }) => ({
        name: tag,
        url: `${publicUrl}/tag/${encodeURIComponent(tag)}`,
        history: [],
      }))
    },
  )

  app.get(
    '/api/v1/trends/statuses',
    {
      onRequest: [app.identify],
      schema: {
        tags: ['mastodon'],
        description: 'Public posts, the most liked first.',
        querystring: OffsetQuerySchema,
        response: { 200: Type.Array(StatusSchema), ...ERROR_REPLIES },
      },
    },
    async (request) => {
      const { offset, end } = windowOf(request.query, 20, 40)
      if (end === 0) return []
      const readerId = readerIdOf(request)
      const { posts } = await services.posts.trending(end, { userId: readerId, compact: false })
      return statusesOf(services, publicUrl, posts.slice(offset), readerId)
    },
  )

  /** Who to follow, as Account entities: the most followed people the person does not follow yet. */
  async function suggested(userId: string, limit: number | undefined) {
    const { users } = await services.users.suggestions(userId, Math.min(Math.max(limit ?? 40, 1), 80))
    return accountsOf(
      services,
      publicUrl,
      users.map((user) => user._id),
      userId,
    )
  }
  const LimitQuerySchema = Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 1 })) })

  app.get(
    '/api/v2/suggestions',
    {
      config: { scope: 'read:accounts' },
      schema: {
        tags: ['mastodon'],
        description: 'Who to follow: the most followed people the person does not follow yet.',
        querystring: LimitQuerySchema,
        response: { 200: Type.Array(SuggestionSchema), ...ERROR_REPLIES },
      },
    },
    async (request) =>
      (await suggested(request.user._id, request.query.limit)).map((account) => ({
        source: 'global',
        sources: ['most_followed'],
        account,
      })),
  )

  app.get(
    '/api/v1/suggestions',
    {
      config: { scope: 'read:accounts' },
      schema: {
        tags: ['mastodon'],
        description: 'Who to follow, as accounts alone (version 1).',
        querystring: LimitQuerySchema,
        response: { 200: Type.Array(AccountSchema), ...ERROR_REPLIES },
      },
    },
    async (request) => suggested(request.user._id, request.query.limit),
  )

  app.delete(
    '/api/v1/suggestions/:id',
    {
      config: { scope: 'write:accounts' },
      schema: {
        tags: ['mastodon'],
        description: 'Stops suggesting this account to the person (for a year).',
        params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) }),
        response: { 200: Type.Object({}), ...ERROR_REPLIES },
      },
    },
    async (request) => {
      await orNotFound(services.users.dismissSuggestion(request.user._id, request.params.id))
      return {}
    },
  )
}

export default routes
