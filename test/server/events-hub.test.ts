import t from 'tap'
import { createEventsHub } from '../../server/plugins/events.js'
import type { ChirpEvent } from '../../server/schemas/events.js'
import { bookmark, liked, serveHub } from '../helpers/events-hub.js'
import { checkSseHead } from '../helpers/sse.js'

await t.test('a stream opens with its headers, a comment, retry advice and the current id', async (t) => {
  const { open } = await serveHub(t)
  const c = await open('ann')
  t.same(await c.next(), { comments: ['connected'], retry: '3000' })
  checkSseHead(t, c)
  t.same(await c.next(), { comments: [], id: '0' })
  t.ok(c.text.startsWith(': connected\nretry: 3000\n\n'), 'the comment is the very first line')
})

await t.test('published events arrive framed with rising ids, serialised once for all streams', async (t) => {
  const { hub, open } = await serveHub(t)
  const clients = [await open('ann'), await open('bob'), await open('cy')]
  for (const c of clients) await c.until((m) => m.id === '0')
  let serialised = 0
  const post = { _id: 'p1', toJSON: () => (serialised++, { _id: 'p1', content: 'hi' }) }
  hub.publish({ name: 'post.created', data: { post } } as unknown as ChirpEvent)
  hub.publish(liked(2))
  t.equal(serialised, 1, 'one JSON.stringify for three streams')
  for (const c of clients) {
    const data = '{"post":{"_id":"p1","content":"hi"}}'
    t.same(await c.next(), { comments: [], id: '1', event: 'post.created', data })
    t.same(await c.next(), { comments: [], id: '2', event: 'post.liked', data: '{"post":{"n":2}}' })
  }
  t.match(clients[0]?.text, /\n\nid: 1\nevent: post.created\ndata: \{.*\}\n\n/)
  t.equal(hub.lastId, 2)
})

await t.test('a heartbeat comment keeps an idle stream alive', async (t) => {
  const { open } = await serveHub(t, { heartbeatMs: 30 })
  const c = await open('ann')
  const beat = await c.until((m) => m.comments.includes('heartbeat'), 1000)
  t.same(beat, { comments: ['heartbeat'] })
})

await t.test('bookmark events reach only the streams of the user in `to`', async (t) => {
  const { hub, open } = await serveHub(t)
  const [ann1, ann2, bob] = [await open('ann'), await open('ann'), await open('bob')]
  for (const c of [ann1, ann2, bob]) await c.until((m) => m.id === '0')
  hub.publish(bookmark('ann'))
  hub.publish(liked(2))
  for (const c of [ann1, ann2]) {
    t.match(await c.next(), { id: '1', event: 'bookmark.added' })
    t.match(await c.next(), { id: '2', event: 'post.liked' })
  }
  t.match(await bob.next(), { id: '2', event: 'post.liked' }, 'bob never sees the bookmark')
  t.notMatch(bob.text, /bookmark/)
})

await t.test("Last-Event-ID replays what the user missed, and nobody else's private events", async (t) => {
  const { hub, open } = await serveHub(t)
  hub.publish(liked(1))
  hub.publish(bookmark('bob'))
  hub.publish(bookmark('ann'))
  hub.publish(liked(4))
  const c = await open('ann', { 'last-event-id': '1' })
  await c.next()
  t.match(await c.next(), { id: '3', event: 'bookmark.added' })
  t.match(await c.next(), { id: '4', event: 'post.liked', data: '{"post":{"n":4}}' })
  t.same(await c.next(), { comments: [], id: '4' }, 'ends by confirming the newest id')
  hub.publish(liked(5))
  t.match(await c.next(), { id: '5', event: 'post.liked' }, 'then goes live')
  const upToDate = await open('ann', { 'last-event-id': '5' })
  await upToDate.next()
  t.same(await upToDate.next(), { comments: [], id: '5' }, 'nothing to replay')
})

await t.test('a gap older than the buffer, a future or a garbled id gets one reset event', async (t) => {
  const { hub, open } = await serveHub(t, { bufferSize: 3 })
  for (let n = 1; n <= 5; n++) hub.publish(liked(n))
  const edge = await open('ann', { 'last-event-id': '2' })
  await edge.next()
  const replayed = [(await edge.next()).id, (await edge.next()).id, (await edge.next()).id]
  t.same(replayed, ['3', '4', '5'], 'the oldest kept event still replays')
  for (const last of ['1', '0', '99', 'abc', '']) {
    const c = await open('ann', { 'last-event-id': last })
    await c.next()
    const reset = { comments: [], id: String(hub.lastId), event: 'reset', data: '{}' }
    t.same(await c.next(), reset, `Last-Event-ID ${JSON.stringify(last)}`)
    hub.publish(liked(0))
    t.match(await c.next(), { event: 'post.liked' }, 'and the stream carries on live')
  }
})

await t.test('a replay larger than the send bound becomes a reset', async (t) => {
  const { hub, open } = await serveHub(t, { maxUnsentBytes: 1000 })
  for (let n = 1; n <= 30; n++) hub.publish(liked(n))
  const c = await open('ann', { 'last-event-id': '0' })
  await c.next()
  t.match(await c.next(), { event: 'reset', id: '30' })
})

await t.test('ids keep rising across restarts by default', async (t) => {
  const before = createEventsHub({ now: () => 1_000 })
  const after = createEventsHub({ now: () => 1_001 })
  t.teardown(() => Promise.all([before.close(), after.close()]))
  for (let n = 0; n < 999; n++) before.publish(liked(n))
  t.ok(after.lastId > before.lastId, `${after.lastId} > ${before.lastId}`)
})
