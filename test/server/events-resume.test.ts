import type { AddressInfo } from 'node:net'
import t, { type Test } from 'tap'
import { TicketReplySchema } from '../../server/schemas/events.js'
import { buildApiApp, expectOk, signup, type SignedUp } from '../helpers/api.js'
import { openSse, type SseClient } from '../helpers/sse.js'

/**
 * Resuming with `?lastEventId=`: the browser client opens a new EventSource with a fresh ticket on every
 * reconnect, and a new EventSource cannot send Last-Event-ID, so the id travels in the URL instead.
 */
const api = await buildApiApp(t)
await api.app.listen({ host: '127.0.0.1', port: 0 })
const port = (api.app.server.address() as AddressInfo).port
const [author, reader] = [await signup(api), await signup(api)]

async function ticket(t: Test, who: SignedUp): Promise<string> {
  const res = await api.as(who.token, { method: 'POST', url: '/api/events/ticket' })
  return expectOk(t, res, 200, TicketReplySchema, 'ticket').ticket
}

async function open(t: Test, who: SignedUp, query = '', headers: Record<string, string> = {}): Promise<SseClient> {
  const client = await openSse(port, `/api/events?ticket=${encodeURIComponent(await ticket(t, who))}${query}`, headers)
  t.teardown(() => client.close())
  return client
}

async function newPost(content: string): Promise<string> {
  const res = await api.as(author.token, {
    method: 'POST',
    url: '/api/posts',
    payload: { content },
    headers: { prefer: 'return=minimal' },
  })
  return (res.json() as { post: { _id: string } }).post._id
}

const nextEvent = (client: SseClient) => client.until((m) => m.event !== undefined, 3000)

await t.test('?lastEventId= replays what a reconnecting client missed, in order', async (t) => {
  const first = await open(t, reader)
  await newPost('seen live')
  const seen = await nextEvent(first)
  t.equal(seen.event, 'post.created')
  first.close()

  const missed = [await newPost('missed one'), await newPost('missed two')]
  const resumed = await open(t, reader, `&lastEventId=${seen.id}`)
  t.equal(resumed.status, 200)
  for (const postId of missed) {
    const event = await nextEvent(resumed)
    t.equal(event.event, 'post.created')
    t.equal((JSON.parse(event.data ?? '{}') as { post: { _id: string } }).post._id, postId, 'the missed post, in order')
  }
  const head = await resumed.until((m) => m.event === undefined && m.id !== undefined)
  t.ok(Number(head.id) >= Number(seen.id) + 2, 'then an id-only line at the newest id')
})

await t.test('an id from before the buffer (or an earlier server) gets a reset', async (t) => {
  const stream = await open(t, reader, '&lastEventId=1')
  t.match(await nextEvent(stream), { event: 'reset', data: '{}', id: /^\d+$/ })
})

await t.test('an id that is not a number gets a reset too, not a replay of everything', async (t) => {
  const stream = await open(t, reader, '&lastEventId=abc')
  t.match(await nextEvent(stream), { event: 'reset', data: '{}' })
})

await t.test('the Last-Event-ID header wins over the query parameter', async (t) => {
  const first = await open(t, reader)
  await newPost('marker')
  const marker = await nextEvent(first)
  first.close()
  const after = await newPost('after the marker')
  const stream = await open(t, reader, '&lastEventId=1', { 'Last-Event-ID': marker.id ?? '' })
  const event = await nextEvent(stream)
  t.equal(event.event, 'post.created', 'a replay from the header, not a reset from the query')
  t.equal((JSON.parse(event.data ?? '{}') as { post: { _id: string } }).post._id, after)
})

await t.test('an overlong lastEventId is refused like a bad ticket, and the ticket is not spent', async (t) => {
  const good = await ticket(t, reader)
  const res = await api.app.inject({ method: 'GET', url: `/api/events?ticket=${good}&lastEventId=${'9'.repeat(41)}` })
  t.equal(res.statusCode, 401)
  const stream = await openSse(port, `/api/events?ticket=${encodeURIComponent(good)}`)
  t.teardown(() => stream.close())
  t.equal(stream.status, 200, 'the same ticket still opens a stream')
})
