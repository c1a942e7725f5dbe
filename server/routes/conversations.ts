import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { EmptyObjectSchema } from '../schemas/common.js'
import {
  ConversationParamsSchema,
  ConversationPostsReplySchema,
  ConversationReplySchema,
  ConversationsQuerySchema,
  ConversationsReplySchema,
  UnreadConversationsReplySchema,
} from '../schemas/conversations.js'
import { ERRORS, me, type RouteOptions } from './shared.js'

/** Direct messages (DECISIONS §12): the caller's conversations of direct posts; one they are not in is a 404. */
const routes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { services }) => {
  const { conversations } = services
  const tags = ['conversations']
  const onRequest = [app.authenticate]

  app.get(
    '/conversations',
    {
      onRequest,
      schema: {
        tags,
        description:
          "The caller's conversations of direct posts that they have not hidden, the most recently active first " +
          '(20 a page unless `limit` says otherwise): the other participants, the last post the caller may read, ' +
          'and how many posts reached them unread.',
        querystring: ConversationsQuerySchema,
        response: { 200: ConversationsReplySchema, ...ERRORS },
      },
    },
    async (request) => conversations.list(me(request), request.query),
  )

  app.get(
    '/conversations/unread',
    {
      onRequest,
      schema: {
        tags,
        description: "How many of the caller's conversations hold unread posts.",
        response: { 200: UnreadConversationsReplySchema, ...ERRORS },
      },
    },
    async (request) => conversations.unread(me(request)),
  )

  app.get(
    '/conversations/:id',
    {
      onRequest,
      schema: {
        tags,
        description:
          'One conversation, hidden or not, with its posts the caller may read, newest first; the cursor goes to older ones.',
        params: ConversationParamsSchema,
        querystring: ConversationsQuerySchema,
        response: { 200: ConversationPostsReplySchema, ...ERRORS },
      },
    },
    async (request) => conversations.get(me(request), request.params.id, request.query),
  )

  app.post(
    '/conversations/:id/read',
    {
      onRequest,
      schema: {
        tags,
        description: "Marks the conversation's posts read for the caller; answers it with `unread` 0.",
        params: ConversationParamsSchema,
        response: { 200: ConversationReplySchema, ...ERRORS },
      },
    },
    async (request) => conversations.read(me(request), request.params.id),
  )

  app.delete(
    '/conversations/:id',
    {
      onRequest,
      schema: {
        tags,
        description:
          "Hides the conversation from the caller's list, for them alone, until a new post reaches them in it.",
        params: ConversationParamsSchema,
        response: { 200: EmptyObjectSchema, ...ERRORS },
      },
    },
    async (request) => conversations.hide(me(request), request.params.id),
  )
}

export default routes
