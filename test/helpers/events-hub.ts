import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { createEventsHub, type EventsHubOptions } from '../../server/plugins/events.js'
import type { ChirpEvent } from '../../server/schemas/events.js'
import { openSse } from './sse.js'

/**
 * A bare node:http server whose every request becomes a stream of a fresh hub, for the user named in
 * `x-user` and the token in `x-token`: the hub alone, without Fastify. Ids start at 0 so tests can name them.
 */
export async function serveHub(t: { teardown(fn: () => unknown): void }, options: EventsHubOptions = {}) {
  const warnings: string[] = []
  const hub = createEventsHub({ startId: 0, log: { warn: (_obj, msg) => warnings.push(msg) }, ...options })
  /** The server side of each stream, in the order they were opened. */
  const responses: http.ServerResponse[] = []
  const server = http.createServer((req, res) => {
    const last = req.headers['last-event-id']
    responses.push(res)
    const userId = String(req.headers['x-user'] ?? 'anon')
    const tokenId = String(req.headers['x-token'] ?? `${userId}-token`)
    hub.stream(res, { userId, tokenId, lastEventId: typeof last === 'string' ? last : undefined })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(async () => {
    await hub.close()
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  })
  const port = (server.address() as AddressInfo).port
  const open = (user: string, headers: Record<string, string> = {}) =>
    openSse(port, '/', { 'x-user': user, ...headers })
  return { hub, port, open, responses, warnings }
}

/** A public event; its data is a stand-in, since the hub never looks inside. */
export const liked = (n: number): ChirpEvent => ({ name: 'post.liked', data: { post: { n } } }) as unknown as ChirpEvent

/** A private event for `to`. */
export const bookmark = (to: string): ChirpEvent => ({
  name: 'bookmark.added',
  data: { postId: 'p1' },
  to,
})
