import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import type { FastifyRequest } from 'fastify'
import { redactUrl } from '../plugins/events.js'
import { tooManyRequests, unauthorized } from '../errors.js'
import { ErrorsSchema, EventsQuerySchema, TicketReplySchema } from '../schemas/index.js'

/**
 * The app's request serialiser redacts tickets too; this one keeps the route safe in any app that mounts it,
 * since request logs carry the whole URL. Same fields as the app's, so the log lines look alike.
 */
function requestWithoutTicket(request: FastifyRequest) {
  return { method: request.method, url: redactUrl(request.url), remoteAddress: request.ip }
}

/** Live updates (docs/api-contract.md §7): trade a token for a ticket, then open a text/event-stream with it. */
const eventsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { events } = app

  app.post(
    '/events/ticket',
    {
      onRequest: [app.authenticate],
      schema: {
        summary: 'A single-use ticket, valid for 60 seconds, that opens one event stream',
        tags: ['events'],
        response: { 200: TicketReplySchema, 401: ErrorsSchema },
      },
    },
    async (request) => ({
      ticket: await events.issueTicket({ userId: request.user._id, tokenId: request.user.token.id }),
    }),
  )

  app.get(
    '/events',
    {
      // Fastify would otherwise add a HEAD twin, which would spend a ticket on a stream with no body.
      exposeHeadRoute: false,
      // A missing or malformed ticket is an authentication failure like an unknown one, not a 400.
      attachValidation: true,
      logSerializers: { req: requestWithoutTicket },
      schema: {
        summary: 'The live event stream (text/event-stream); send Last-Event-ID (or ?lastEventId=) to resume',
        tags: ['events'],
        querystring: EventsQuerySchema,
        response: {
          200: Type.String({ description: 'text/event-stream: comments, then `id`, `event` and JSON `data` each' }),
          401: ErrorsSchema,
          429: ErrorsSchema,
        },
      },
    },
    async (request, reply) => {
      const owner = request.validationError ? undefined : await events.redeemTicket(request.query.ticket)
      if (owner === undefined) throw unauthorized()
      const place = await events.reserveStream(owner.userId)
      if (!place) throw tooManyRequests()
      try {
        await events.watchReader(owner.userId)
      } catch (error) {
        place.release()
        throw error
      }
      // The header wins: it is what a browser's own reconnect sends, and it is newer than the URL it reuses.
      const header = request.headers['last-event-id']
      const lastEventId = typeof header === 'string' ? header : request.query.lastEventId
      // From here the hub owns the raw response for as long as the stream lives.
      reply.hijack()
      events.stream(reply.raw, { ...owner, lastEventId, place })
    },
  )
}

export default eventsRoutes
