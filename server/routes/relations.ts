import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { EmptyObjectSchema, PageQuerySchema } from '../schemas/common.js'
import { BlocksReplySchema, MuteBodySchema, MutesReplySchema, RelationReplySchema } from '../schemas/relations.js'
import { UserIdParamsSchema } from '../schemas/users.js'
import { ERRORS, emptyBody, me, type RouteOptions } from './shared.js'

/** Blocks and mutes (docs/api-contract.md §11): the caller's own, so every call is protected. */
const routes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { services }) => {
  const { relations } = services
  const tags = ['users']
  const protectedCall = { onRequest: [app.authenticate], preValidation: emptyBody }
  const change = { tags, params: UserIdParamsSchema, response: { 200: RelationReplySchema, ...ERRORS } }
  const bare = { ...protectedCall, schema: { ...change, body: EmptyObjectSchema } }

  app.post('/users/block/:id', bare, async (request) => relations.block(me(request), request.params.id))
  app.post('/users/unblock/:id', bare, async (request) => relations.unblock(me(request), request.params.id))
  app.post('/users/mute/:id', { ...protectedCall, schema: { ...change, body: MuteBodySchema } }, async (request) =>
    relations.mute(me(request), request.params.id, request.body),
  )
  app.post('/users/unmute/:id', bare, async (request) => relations.unmute(me(request), request.params.id))

  const list = { onRequest: [app.authenticate] }
  app.get(
    '/users/blocks',
    { ...list, schema: { tags, querystring: PageQuerySchema, response: { 200: BlocksReplySchema, ...ERRORS } } },
    async (request) => relations.blocks(me(request), request.query),
  )
  app.get(
    '/users/mutes',
    { ...list, schema: { tags, querystring: PageQuerySchema, response: { 200: MutesReplySchema, ...ERRORS } } },
    async (request) => relations.mutes(me(request), request.query),
  )
}

export default routes
