import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import type { Conversation as ChirpConversation } from '../schemas/conversations.js'
import { accountsOf } from './account-entity.js'
import { ERROR_REPLIES, orNotFound } from './errors.js'
import type { MastodonOptions } from './options.js'
import { PageQuerySchema, cursorLinkHeader } from './paging.js'
import { AccountSchema, Nullable } from './schemas.js'
import { statusesOf } from './status-page.js'
import { StatusSchema } from './status-schemas.js'

const ConversationSchema = Type.Object(
  {
    id: Type.String(),
    unread: Type.Boolean(),
    accounts: Type.Array(AccountSchema),
    last_status: Nullable(StatusSchema),
  },
  { title: 'MastodonConversation' },
)
const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) })

/**
 * Direct messages as Mastodon's conversations, read from Chirp's conversations service: the people in it
 * but the reader (`accounts`), its last post the reader may read, and whether any of it is unread. Ids are
 * Chirp's; the list is the most recently active first, paged by Chirp's cursors carried as `max_id`.
 */
const routes: FastifyPluginAsyncTypebox<MastodonOptions> = async (app, { services, publicUrl }) => {
  async function conversationsOf(conversations: readonly ChirpConversation[], userId: string) {
    const ids = [...new Set(conversations.flatMap((each) => each.participants.map((person) => person._id)))]
    const [people, statuses] = await Promise.all([
      accountsOf(services, publicUrl, ids, userId),
      statusesOf(
        services,
        publicUrl,
        conversations.map((each) => each.lastPost),
        userId,
      ),
    ])
    const accounts = new Map(people.map((account) => [account.id, account]))
    return conversations.map((each, i) => ({
      id: each._id,
      unread: each.unread > 0,
      accounts: each.participants.flatMap((person) => accounts.get(person._id) ?? []),
      last_status: statuses[i] ?? null,
    }))
  }
  const oneOf = async (conversation: ChirpConversation, userId: string) => {
    const [entity] = await conversationsOf([conversation], userId)
    if (!entity) throw new Error('a conversation of one')
    return entity
  }

  app.get(
    '/api/v1/conversations',
    {
      config: { scope: 'read:statuses' },
      schema: {
        tags: ['mastodon'],
        description: "The person's conversations of direct posts that they have not hidden, the most recent first.",
        querystring: PageQuerySchema,
        response: { 200: Type.Array(ConversationSchema), ...ERROR_REPLIES },
      },
    },
    async (request, reply) => {
      const userId = request.user._id
      const limit = Math.min(Math.max(request.query.limit ?? 20, 1), 40)
      const { conversations, nextCursor } = await services.conversations.list(userId, {
        limit,
        cursor: request.query.max_id,
      })
      const link = cursorLinkHeader(new URL(request.url, `${publicUrl}/`), nextCursor)
      if (link !== undefined) void reply.header('link', link)
      return conversationsOf(conversations, userId)
    },
  )

  app.post(
    '/api/v1/conversations/:id/read',
    {
      config: { scope: 'write:conversations' },
      schema: {
        tags: ['mastodon'],
        description: 'Marks the conversation read for the person.',
        params: IdParams,
        response: { 200: ConversationSchema, ...ERROR_REPLIES },
      },
    },
    async (request) => {
      const userId = request.user._id
      const { conversation } = await orNotFound(services.conversations.read(userId, request.params.id))
      return oneOf(conversation, userId)
    },
  )

  app.delete(
    '/api/v1/conversations/:id',
    {
      config: { scope: 'write:conversations' },
      schema: {
        tags: ['mastodon'],
        description: 'Hides the conversation for the person alone, until a post reaches them in it.',
        params: IdParams,
        response: { 200: Type.Object({}), ...ERROR_REPLIES },
      },
    },
    async (request) => orNotFound(services.conversations.hide(request.user._id, request.params.id)),
  )
}

export default routes
