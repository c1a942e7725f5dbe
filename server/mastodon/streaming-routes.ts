import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import websocket, { type WebSocket } from '@fastify/websocket'
import { Type } from '@sinclair/typebox'
import type { FastifyRequest } from 'fastify'
import { AppError, tooManyRequests } from '../errors.js'
import { SSE_HEADERS } from '../plugins/events.js'
import { ERROR_REPLIES } from './errors.js'
import type { MastodonOptions } from './options.js'
import { OUT_OF_SCOPE } from './scopes-guard.js'
import {
  STREAMING_ERRORS,
  STREAMING_SCOPES,
  createConnection,
  grants,
  subscriptionOf,
  type Outlet,
  type StreamName,
} from './streaming.js'

const StreamingQuery = Type.Object({
  access_token: Type.Optional(Type.String({ maxLength: 4096 })),
  stream: Type.Optional(Type.String({ maxLength: 64 })),
  tag: Type.Optional(Type.String({ maxLength: 200 })),
  list: Type.Optional(Type.String({ maxLength: 100 })),
})

/** The streams served as server-sent events, by their path under /api/v1/streaming. */
const SSE_STREAMS: Record<string, StreamName> = {
  user: 'user',
  'user/notification': 'user:notification',
  public: 'public',
  'public/local': 'public:local',
  hashtag: 'hashtag',
  'hashtag/local': 'hashtag:local',
  direct: 'direct',
  list: 'list',
}

/**
 * An event's data on an event stream. Mastodon's are all JSON, its ids being numbers, and its clients
 * (Mastodon.py) parse every one as JSON; Chirp's status ids are hex, so a deletion's id goes as a JSON string.
 */
const sseData = (event: string, payload: string) => (event === 'delete' ? JSON.stringify(payload) : payload)

/** The largest message a client sends: a subscription is a few dozen bytes. */
const MAX_MESSAGE_BYTES = 4096
/** Bytes a connection may leave unsent before it is dropped, as Chirp's own event streams. */
const MAX_BACKLOG = 1024 * 1024
const HEARTBEAT_MS = 15_000

/**
 * The token of a streaming request, wherever Mastodon's clients put it: the `Authorization` header (a Mastodon
 * token or Chirp's own session), `access_token` in the URL (browsers cannot set headers on a WebSocket),
 * or `Sec-WebSocket-Protocol`, which the socket's answer echoes. It is then checked as on every route.
 */
function tokenOfStreaming(request: FastifyRequest): string | undefined {
  if (request.headers.authorization) return undefined
  const protocol = request.headers['sec-websocket-protocol']
  const offered = typeof protocol === 'string' ? protocol.split(',')[0]?.trim() : undefined
  const { access_token: inUrl } = request.query as { access_token?: unknown }
  return (typeof inUrl === 'string' && inUrl) || offered || undefined
}

/**
 * Mastodon's streaming API (DECISIONS §13): one WebSocket at /api/v1/streaming carrying any streams the
 * client subscribes to, and each stream alone as server-sent events. `@fastify/websocket` does the
 * WebSocket protocol and hands the upgrade through Fastify's hooks, so a token is checked as anywhere.
 */
const routes: FastifyPluginAsyncTypebox<MastodonOptions> = async (app, { services, publicUrl }) => {
  const { events } = app
  await app.register(websocket, { options: { maxPayload: MAX_MESSAGE_BYTES } })

  async function authenticate(request: FastifyRequest) {
    const token = tokenOfStreaming(request)
    if (token !== undefined) request.headers.authorization = `Bearer ${token}`
    await app.authenticate(request)
    if (!grants(request.user.token.scopes, STREAMING_SCOPES)) throw new AppError(403, OUT_OF_SCOPE)
  }

  /** A connection of the request's reader over `outlet`, hearing the hub once its place is held. */
  function connect(request: FastifyRequest, outlet: Outlet) {
    const { _id: userId, token } = request.user
    const connection = createConnection({
      services,
      publicUrl,
      events,
      userId,
      tokenId: token.id,
      scopes: token.scopes,
      outlet,
      maxBacklog: MAX_BACKLOG,
      log: request.log,
    })
    return connection
  }

  app.get(
    '/api/v1/streaming/health',
    { schema: { tags: ['mastodon'], description: 'Whether streaming is up: `OK`.', response: { 200: Type.String() } } },
    async (_request, reply) => reply.type('text/plain; charset=utf-8').send('OK'),
  )

  app.get(
    '/api/v1/streaming',
    {
      websocket: true,
      onRequest: [authenticate],
      schema: { querystring: StreamingQuery },
    },
    (socket: WebSocket, request) => {
      const scopes = request.user.token.scopes
      const connection = connect(request, {
        send: (stream, event, payload) => socket.send(JSON.stringify({ stream, event, payload })),
        backlog: () => socket.bufferedAmount,
        close: () => socket.close(),
      })
      const refuse = (error: string, status: number) => socket.send(JSON.stringify({ error, status }))
      function subscribe(type: unknown, stream: unknown, tag: unknown, list?: unknown): void {
        if (type !== 'subscribe' && type !== 'unsubscribe') return refuse(STREAMING_ERRORS.badMessage, 400)
        const subscription = subscriptionOf(stream, tag, scopes, list)
        if ('error' in subscription) return refuse(subscription.error, subscription.status)
        if (type === 'unsubscribe') return connection.unsubscribe(subscription)
        const refused = connection.subscribe(subscription)
        if (refused !== undefined) refuse(refused, 400)
      }
      socket.on('message', (data: Buffer) => {
        let message: unknown
        try {
          message = JSON.parse(data.toString())
        } catch {
          return refuse(STREAMING_ERRORS.badMessage, 400)
        }
        if (typeof message !== 'object' || message === null) return refuse(STREAMING_ERRORS.badMessage, 400)
        const { type, stream, tag, list } = message as Record<string, unknown>
        subscribe(type, stream, tag, list)
      })
      const heartbeat = setInterval(() => socket.ping(), HEARTBEAT_MS)
      heartbeat.unref()
      socket.on('close', () => {
        clearInterval(heartbeat)
        connection.close()
      })
      if (request.query.stream !== undefined)
        subscribe('subscribe', request.query.stream, request.query.tag, request.query.list)
      void (async () => {
        const place = await events.reserveStream(request.user._id)
        if (!place) {
          refuse('Too many requests', 429)
          return connection.close()
        }
        await events.watchReader(request.user._id).then(
          () => connection.open(place),
          (err: unknown) => {
            request.log.warn({ err }, 'a streaming connection could not start')
            place.release()
            connection.close()
          },
        )
      })()
    },
  )

  for (const [path, name] of Object.entries(SSE_STREAMS)) {
    app.get(
      `/api/v1/streaming/${path}`,
      {
        onRequest: [authenticate],
        exposeHeadRoute: false,
        schema: {
          tags: ['mastodon'],
          description: `The \`${name}\` stream as server-sent events: \`event\` is the event, \`data\` its payload.`,
          querystring: StreamingQuery,
          response: { 200: Type.String({ description: 'text/event-stream' }), ...ERROR_REPLIES },
        },
      },
      async (request, reply) => {
        const subscription = subscriptionOf(name, request.query.tag, request.user.token.scopes, request.query.list)
        if ('error' in subscription) throw new AppError(subscription.status, subscription.error)
        const userId = request.user._id
        const place = await events.reserveStream(userId)
        if (!place) throw tooManyRequests()
        try {
          await events.watchReader(userId)
        } catch (error) {
          place.release()
          throw error
        }
        reply.hijack()
        const res = reply.raw
        res.writeHead(200, SSE_HEADERS)
        // Comment lines alone, without the blank line that would end an (empty) event: as Mastodon sends them.
        res.write(':)\n')
        const connection = connect(request, {
          send: (_stream, event, payload) => res.write(`event: ${event}\ndata: ${sseData(event, payload)}\n\n`),
          backlog: () => res.writableLength,
          close: () => res.end(),
        })
        connection.subscribe(subscription)
        const heartbeat = setInterval(() => res.write(':thump\n'), HEARTBEAT_MS)
        heartbeat.unref()
        const closed = () => {
          clearInterval(heartbeat)
          connection.close()
        }
        res.on('close', closed)
        res.on('error', closed)
        connection.open(place)
      },
    )
  }
}

export default routes
