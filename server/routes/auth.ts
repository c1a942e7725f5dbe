import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { EmptyObjectSchema } from '../schemas/common.js'
import { AuthLoginReplySchema, AuthSignupReplySchema, LoginBodySchema, SignupBodySchema } from '../schemas/users.js'
import { ERRORS, emptyBody, me, type RouteOptions } from './shared.js'

const routes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { services }) => {
  app.post(
    '/auth/signup',
    { schema: { tags: ['auth'], body: SignupBodySchema, response: { 201: AuthSignupReplySchema, ...ERRORS } } },
    async (request, reply) => reply.code(201).send(await services.auth.signup(request.body)),
  )

  app.post(
    '/auth/login',
    { schema: { tags: ['auth'], body: LoginBodySchema, response: { 200: AuthLoginReplySchema, ...ERRORS } } },
    async (request) => services.auth.login(request.body),
  )

  app.post(
    '/auth/logout',
    {
      onRequest: [app.authenticate],
      preValidation: emptyBody,
      schema: {
        tags: ['auth'],
        description:
          'Ends the token it is sent with: it stops working, the event streams it opened close and its unused stream tickets are void. Other tokens of the user, on other devices or of other guests, go on.',
        body: EmptyObjectSchema,
        response: { 200: EmptyObjectSchema, ...ERRORS },
      },
    },
    async (request) => {
      const { _id: userId, token } = request.user
      await services.auth.logout({ _id: token.id, userId, expiresAt: token.expiresAt })
      // Only once the token is void: from here no new ticket can be had with it, and older ones go now.
      await app.events.endToken({ userId, tokenId: token.id })
      return {}
    },
  )

  app.post(
    '/auth/logout-all',
    {
      onRequest: [app.authenticate],
      preValidation: emptyBody,
      schema: {
        tags: ['auth'],
        description:
          'Ends every token of the caller: tokens issued before now stop working, every open event stream closes and unused stream tickets are void. Refused for the shared guest account.',
        body: EmptyObjectSchema,
        response: { 200: EmptyObjectSchema, ...ERRORS },
      },
    },
    async (request) => {
      await services.auth.logoutAll(me(request))
      await app.events.endUser(me(request))
      return {}
    },
  )
}

export default routes
