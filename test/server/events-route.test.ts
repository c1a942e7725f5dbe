import { Value } from '@sinclair/typebox/value'
import Fastify, { type FastifyRequest } from 'fastify'
import type { AddressInfo } from 'node:net'
import t from 'tap'
import { unauthorized } from '../../server/errors.js'
import { installErrorHandler } from '../../server/plugins/errors.js'
import eventsHub, { type EventsHubOptions } from '../../server/plugins/events.js'
import eventsRoutes from '../../server/routes/events.js'
import { ErrorsSchema, TicketReplySchema } from '../../server/schemas/index.js'
import { checkSseHead, openSse, waitFor, within } from '../helpers/sse.js'

const UNAUTHORIZED = { errors: ['The token is invalid. Unauthorized access error.'], code: 'invalid_token' }

/**
 * The events routes on their own, with the app's error handler and a stand-in for the auth plugin:
 * `authorization: <user id>` authenticates as that user. Logs are kept so tests can look for tickets in them.
 */
async function build(t: { teardown(fn: () => unknown): void }, options: EventsHubOptions = {}) {
  const logs: string[] = []
  const clock = { now: 0 }
  const app = Fastify({ logger: { level: 'info', stream: { write: (line: string) => logs.push(line) } } })
  await app.register(eventsHub, { startId: 0, now: () => clock.now, ...options })
  const hub = app.events
  installErrorHandler(app)
  app.decorate('authenticate', async (request: FastifyRequest) => {
    const userId = request.headers.authorization
    if (userId === undefined) throw unauthorized()
    request.user = {
      _id: userId,
      username: userId,
      token: { id: `token of ${userId}`, expiresAt: '2100-01-01T00:00:00.000Z' },
    }
  })
  await app.register(eventsRoutes, { prefix: '/api' })
  await app.listen({ host: '127.0.0.1', port: 0 })
  // Connections are cut first, so a broken shutdown path fails its own test instead of hanging the teardown.
  t.teardown(async () => {
    await hub.close()
    app.server.closeAllConnections()
    await app.close()
  })
  const port = (app.server.address() as AddressInfo).port

  async function ticket(userId: string): Promise<string> {
    const res = await app.inject({ method: 'POST', url: '/api/events/ticket', headers: { authorization: userId } })
    const body: unknown = res.json()
    if (res.statusCode !== 200 || !Value.Check(TicketReplySchema, body)) throw new Error(`no ticket: ${res.body}`)
    return body.ticket
  }
  const open = async (userId: string, headers: Record<string, string> = {}) =>
    openSse(port, `/api/events?ticket=${await ticket(userId)}`, headers)
  return { app, hub, logs, clock, port, ticket, open }
}

await t.test('POST /api/events/ticket needs a token and answers { ticket }', async (t) => {
  const { app } = await build(t)
  const anonymous = await app.inject({ method: 'POST', url: '/api/events/ticket' })
  t.equal(anonymous.statusCode, 401)
  t.same(anonymous.json(), UNAUTHORIZED)
  const res = await app.inject({ method: 'POST', url: '/api/events/ticket', headers: { authorization: 'ann' } })
  t.equal(res.statusCode, 200)
  t.ok(Value.Check(TicketReplySchema, res.json()))
  t.match(res.json(), { ticket: /^[A-Za-z0-9_-]{43}$/ })
})

await t.test('GET /api/events refuses a missing, unknown, reused or expired ticket with 401', async (t) => {
  const { app, hub, clock, port, ticket } = await build(t)
  // inject() never settles on a stream, so a ticket wrongly accepted must fail here rather than hang.
  const get = (query: string) => within(app.inject({ method: 'GET', url: `/api/events${query}` }), 2000, query)
  const used = await ticket('ann')
  const first = await openSse(port, `/api/events?ticket=${used}`)
  t.equal(first.status, 200, 'the first use opens a stream')
  first.close()
  const expiring = await ticket('ann')
  clock.now = 60_000
  const cases = {
    missing: '',
    empty: '?ticket=',
    unknown: '?ticket=nope',
    reused: `?ticket=${used}`,
    expired: `?ticket=${expiring}`,
  }
  for (const [why, query] of Object.entries(cases)) {
    const res = await get(query)
    t.equal(res.statusCode, 401, why)
    t.same(res.json(), UNAUTHORIZED, why)
    t.ok(Value.Check(ErrorsSchema, res.json()))
  }
  await waitFor(() => hub.size === 0, 2000, 'the first stream to close')
  const headUrl = `/api/events?ticket=${await ticket('ann')}`
  const head = await within(app.inject({ method: 'HEAD', url: headUrl }), 2000, 'HEAD')
  t.equal(head.statusCode, 404, 'no HEAD twin to spend a ticket on a bodiless stream')
})

await t.test('a stream over HTTP: headers, framing and published events', async (t) => {
  const { hub, open } = await build(t)
  const c = await open('ann')
  t.same(await c.next(), { comments: ['connected'], retry: '3000' })
  checkSseHead(t, c)
  t.same(await c.next(), { comments: [], id: '0' })
  hub.publish({ name: 'post.deleted', data: { postId: 'p1' } })
  t.same(await c.next(), { comments: [], id: '1', event: 'post.deleted', data: '{"postId":"p1"}' })
  t.match(c.text, /\n\nid: 1\nevent: post.deleted\ndata: \{"postId":"p1"\}\n\n$/)
})

await t.test('the ticket decides whose bookmark events a stream gets', async (t) => {
  const { hub, open } = await build(t)
  const ann = await open('ann')
  const bob = await open('bob')
  await waitFor(() => hub.size === 2, 2000, 'two streams')
  hub.publish({ name: 'bookmark.removed', data: { postId: 'p1' }, to: 'ann' })
  hub.publish({ name: 'post.deleted', data: { postId: 'p1' } })
  t.match(await ann.until((m) => m.event !== undefined), { id: '1', event: 'bookmark.removed' })
  t.match(await bob.until((m) => m.event !== undefined), { id: '2', event: 'post.deleted' })
})

await t.test('Last-Event-ID replays missed events, and a reset past the buffer', async (t) => {
  const { hub, open } = await build(t, { bufferSize: 2 })
  for (const postId of ['a', 'b', 'c']) hub.publish({ name: 'post.deleted', data: { postId } })
  const resumed = await open('ann', { 'Last-Event-ID': '1' })
  t.match(await resumed.until((m) => m.event !== undefined), { id: '2', data: '{"postId":"b"}' })
  t.match(await resumed.next(), { id: '3', data: '{"postId":"c"}' })
  const tooOld = await open('ann', { 'Last-Event-ID': '0' })
  t.same(await tooOld.until((m) => m.event !== undefined), { comments: [], id: '3', event: 'reset', data: '{}' })
})

await t.test('a user past the stream cap gets 429', async (t) => {
  const { hub, app, open, ticket } = await build(t, { maxStreamsPerUser: 2 })
  await open('ann')
  await open('ann')
  await waitFor(() => hub.size === 2, 2000, 'two streams')
  const url = `/api/events?ticket=${await ticket('ann')}`
  const res = await within(app.inject({ method: 'GET', url }), 2000, 'the refusal')
  t.equal(res.statusCode, 429)
  t.strictSame(res.json(), { errors: ['Too many requests, please try again later.'], code: 'too_many_requests' })
  const bob = await open('bob')
  t.equal(bob.status, 200, 'other users are unaffected')
})

await t.test('tickets never reach the logs', async (t) => {
  const { app, logs, port, ticket } = await build(t)
  const good = await ticket('ann')
  const c = await openSse(port, `/api/events?ticket=${good}`)
  await c.next()
  for (const url of ['/api/events?ticket=unknown-ticket-value', '/api/events?%74icket=another-ticket-value']) {
    t.equal((await within(app.inject({ method: 'GET', url }), 2000, url)).statusCode, 401)
  }
  const text = logs.join('')
  t.match(text, /"url":"\/api\/events\?ticket=\[redacted\]"/, 'the request is still logged')
  for (const secret of [good, 'unknown-ticket-value', 'another-ticket-value']) {
    t.notOk(text.includes(secret), `no ${secret} in the log`)
  }
})

await t.test('app.close() ends open streams instead of waiting on them forever', async (t) => {
  const { app, hub, open } = await build(t)
  const a = await open('ann')
  const b = await open('bob')
  await waitFor(() => hub.size === 2, 2000, 'two streams')
  await within(app.close(), 3000, 'app.close()')
  await within(Promise.all([a.ended, b.ended]), 2000, 'both streams to end')
  t.equal(hub.size, 0)
  t.match(a.text, /^: connected\n/, 'the stream was live before')
})
