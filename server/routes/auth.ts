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
          'Ends every session of the caller: tokens issued before now stop working, and open event streams close and unused stream tickets are void.',
        body: EmptyObjectSchema,
        response: { 200: EmptyObjectSchema, ...ERRORS },
      },
    },
    async (request) => {
      await services.auth.logout(me(request))
      // Only once the old tokens are void: from here no new ticket can be had with them, and older ones go now.
      await app.events.endUser(me(request))
      return {}
    },
  )
}

export default routes
