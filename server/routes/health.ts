import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'

const HealthReplySchema = Type.Object({
  status: Type.Literal('ok'),
  /** Whether the shared guest account may log in, so the client can show or hide its button. */
  guestLogin: Type.Boolean(),
})

const routes: FastifyPluginAsyncTypebox<{ guestLogin: boolean }> = async (app, { guestLogin }) => {
  app.get('/health', { schema: { tags: ['health'], response: { 200: HealthReplySchema } } }, async () => ({
    status: 'ok' as const,
    guestLogin,
  }))
}

export default routes
