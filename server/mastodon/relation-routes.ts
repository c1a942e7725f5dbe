import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { accountOf, accountsOf } from './account-entity.js'
import { ERROR_REPLIES, orNotFound } from './errors.js'
import type { MastodonOptions } from './options.js'
import { PageQuerySchema, cursorLinkHeader } from './paging.js'
import { relationshipOf, RelationshipSchema } from './relationships.js'
import { AccountSchema } from './schemas.js'

/** A page of Chirp's lists: how many, and the cursor past the last page's end. */
interface Page {
  limit: number
  cursor: string | undefined
}

const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) })
const Accounts = { 200: Type.Array(AccountSchema), ...ERROR_REPLIES }
/** A muted account, with when its mute ends (null: until unmuted), as Mastodon's list of mutes gives it. */
const MutedAccountSchema = Type.Composite([
  AccountSchema,
  Type.Object({ mute_expires_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]) }),
])

/**
 * Whom the person blocks and mutes, and who asks to follow them: lists in the order Chirp keeps them (the
 * newest first; requests the oldest first), paged by Chirp's own cursors, which their `Link` headers carry
 * as `max_id`. Answering a request goes through Chirp's follow requests, as its own client does.
 */
const routes: FastifyPluginAsyncTypebox<MastodonOptions> = async (app, { services, publicUrl }) => {
  const limitOf = (limit: number | undefined) => Math.min(Math.max(limit ?? 40, 1), 80)

  const lists = [
    {
      path: '/api/v1/blocks',
      scope: 'read:blocks',
      description: 'The accounts the person blocks, the newest block first.',
      page: (userId: string, page: Page) => services.relations.blocks(userId, page),
      response: Accounts,
    },
    {
      path: '/api/v1/mutes',
      scope: 'read:mutes',
      description:
        'The accounts the person mutes now, the newest mute first, each with when its mute ends (`mute_expires_at`, null for ever); ended mutes are not listed.',
      page: (userId: string, page: Page) => services.relations.mutes(userId, page),
      response: { 200: Type.Array(MutedAccountSchema), ...ERROR_REPLIES },
    },
  ] as const
  for (const { path, scope, description, page, response } of lists) {
    app.get(
      path,
      {
        config: { scope },
        schema: { tags: ['mastodon'], description, querystring: PageQuerySchema, response },
      },
      async (request, reply) => {
        const userId = request.user._id
        const { users, nextCursor } = await page(userId, {
          limit: limitOf(request.query.limit),
          cursor: request.query.max_id,
        })
        const link = cursorLinkHeader(new URL(request.url, `${publicUrl}/`), nextCursor)
        if (link !== undefined) void reply.header('link', link)
        const accounts = await accountsOf(
          services,
          publicUrl,
          users.map((user) => user._id),
          userId,
        )
        const ends = new Map(users.flatMap((user) => ('mutedUntil' in user ? [[user._id, user.mutedUntil]] : [])))
        return accounts.map((account) =>
          ends.has(account.id) ? { ...account, mute_expires_at: ends.get(account.id) ?? null } : account,
        )
      },
    )
  }

  app.get(
    '/api/v1/follow_requests',
    {
      config: { scope: 'read:follows' },
      schema: {
        tags: ['mastodon'],
        description: 'The accounts asking to follow the person (a locked account), the oldest request first.',
        querystring: PageQuerySchema,
        response: Accounts,
      },
    },
    async (request, reply) => {
      const page = { limit: limitOf(request.query.limit), cursor: request.query.max_id }
      const { users, nextCursor } = await services.followRequests.list(request.user._id, page)
      const link = cursorLinkHeader(new URL(request.url, `${publicUrl}/`), nextCursor)
      if (link !== undefined) void reply.header('link', link)
      return users.map((user) => accountOf(user, publicUrl))
    },
  )

  for (const answer of ['authorize', 'reject'] as const) {
    app.post(
      `/api/v1/follow_requests/:id/${answer}`,
      {
        config: { scope: 'write:follows' },
        schema: {
          tags: ['mastodon'],
          description: `${answer === 'authorize' ? 'Accepts' : 'Refuses'} the request of the account; answers where the person then stands with it.`,
          params: IdParams,
          response: { 200: RelationshipSchema, ...ERROR_REPLIES },
        },
      },
      async (request) => {
        const meId = request.user._id
        await orNotFound(services.followRequests[answer](meId, request.params.id))
        return relationshipOf(services, meId, request.params.id)
      },
    )
  }
}

export default routes
