import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { errorBody, MSG } from '../errors.js'
import { ErrorsSchema } from '../schemas/common.js'

const HealthReplySchema = Type.Object({
  status: Type.Literal('ok'),
  /** Which store holds the data: the embedded one or PostgreSQL. */
  store: Type.Union([Type.Literal('lowdb'), Type.Literal('postgres')]),
  /** Whether the shared guest account may log in, so the client can show or hide its button. */
  guestLogin: Type.Boolean(),
})

/** What the check asks of the store: which one it is, and whether it answers. */
interface Pingable {
  kind: 'lowdb' | 'postgres'
  ping(): Promise<void>
}

const routes: FastifyPluginAsyncTypebox<{ guestLogin: boolean; store: Pingable }> = async (
  app,
  { guestLogin, store },
) => {
  app.get(
    '/health',
    { schema: { tags: ['health'], response: { 200: HealthReplySchema, 503: ErrorsSchema } } },
    async (_request, reply) => {
      try {
        await store.ping()
      } catch (err) {
        // A load balancer takes this instance out of rotation until the database answers again.
        app.log.warn({ err }, 'health check: the database cannot be reached')
        return reply.code(503).send(errorBody(503, MSG.databaseUnreachable))
      }
      return { status: 'ok' as const, store: store.kind, guestLogin }
    },
  )
}

export default routes
