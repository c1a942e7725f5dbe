import type http from 'node:http'
import t from 'tap'
import type { ChirpEvent } from '../../server/schemas/events.js'
import { liked, serveHub } from '../helpers/events-hub.js'
import { openStalledSocket, waitFor, within } from '../helpers/sse.js'

await t.test('a reader that stops reading is dropped before its queue passes the bound', async (t) => {
  const maxUnsentBytes = 256 * 1024
  const { hub, port, open, responses, warnings } = await serveHub(t, { maxUnsentBytes, bufferSize: 5 })
  const healthy = await open('ann')
  const stalled = await openStalledSocket(port, '/')
  t.teardown(() => stalled.destroy())
  await waitFor(() => hub.size === 2, 2000, 'both streams')
  const stalledRes = responses[1]
  t.ok(stalledRes)
  const blob = 'x'.repeat(60 * 1024)
  let peak = 0
  let published = 0
  // Loopback kernel buffers take some megabytes first; 2000 × 60 KiB is far past them, and the loop stops early.
  while (hub.size === 2 && published < 2000) {
    hub.publish({ name: 'post.liked', data: { post: { blob } } } as unknown as ChirpEvent)
    published++
    peak = Math.max(peak, stalledRes?.writableLength ?? 0)
    await new Promise((resolve) => setImmediate(resolve))
  }
  t.equal(hub.size, 1, `dropped after ${published} events`)
  t.ok(stalledRes?.destroyed, 'its response was destroyed, freeing the queue')
  t.ok(peak <= maxUnsentBytes, `queued at most ${peak} bytes`)
  t.match(warnings, ['dropping an event stream that stopped reading'])
  hub.publish(liked(-1))
  await healthy.until((m) => m.data === '{"post":{"n":-1}}', 5000)
  t.pass('the healthy reader still receives events')
})

await t.test('a client whose writes throw is dropped without disturbing the others', async (t) => {
  const { hub, open } = await serveHub(t)
  const healthy = await open('ann')
  await healthy.until((m) => m.id === '0')
  let writes = 0
  const broken = {
    writableLength: 0,
    destroyed: false,
    writeHead: () => broken,
    write: () => {
      if (++writes > 2) throw new Error('socket gone')
      return true
    },
    destroy: () => (broken.destroyed = true),
    on: () => broken,
  }
  hub.stream(broken as unknown as http.ServerResponse, { userId: 'bob' })
  t.equal(hub.size, 2)
  hub.publish(liked(1))
  t.equal(hub.size, 1, 'the broken one is gone')
  t.ok(broken.destroyed)
  t.match(await healthy.next(), { id: '1', event: 'post.liked' })
})

await t.test('streams per user are capped, and closing one frees a place', async (t) => {
  const { hub, open } = await serveHub(t, { maxStreamsPerUser: 2 })
  const first = await open('ann')
  await open('ann')
  await waitFor(() => hub.size === 2, 2000, 'two streams')
  t.equal(await hub.reserveStream('ann'), undefined, 'no place for a third')
  const bobs = await hub.reserveStream('bob')
  t.ok(bobs, 'the cap is per user')
  first.close()
  await waitFor(() => hub.size === 1, 2000, 'the closed stream to be forgotten')
  const place = await hub.reserveStream('ann')
  t.ok(place, 'a place again')
  t.equal(await hub.reserveStream('ann'), undefined, 'a place reserved and not yet open counts')
  place?.release()
  t.ok(await hub.reserveStream('ann'), 'and one given back is free again')
})

await t.test('close() ends every stream, even a stalled one, and refuses new ones', async (t) => {
  const { hub, port, open } = await serveHub(t, { closeGraceMs: 100 })
  const a = await open('ann')
  const b = await open('bob')
  const stalled = await openStalledSocket(port, '/')
  t.teardown(() => stalled.destroy())
  await waitFor(() => hub.size === 3, 2000, 'three streams')
  const started = Date.now()
  await hub.close()
  t.ok(Date.now() - started < 1000, 'a reader that never drains does not hold shutdown up')
  await within(Promise.all([a.ended, b.ended]), 2000, 'both streams to end')
  t.equal(hub.size, 0)
  hub.publish(liked(1))
  t.equal(hub.lastId, 0, 'publishing after close does nothing')
  const late = await open('cy')
  await within(late.ended, 2000, 'the late stream to end')
  t.equal(late.text, ': connected\nretry: 3000\n\n', 'a late stream is ended at once')
  await hub.close()
  t.pass('closing twice is harmless')
})

await t.test('the replay buffer is bounded in bytes as well as in count; past it a resume gets reset', async (t) => {
  const { hub, open } = await serveHub(t, { bufferSize: 1000, bufferBytes: 4096 })
  const blob = 'x'.repeat(1000)
  for (let i = 0; i < 10; i++) hub.publish({ name: 'post.liked', data: { post: { blob, i } } } as unknown as ChirpEvent)
  const fromStart = await open('ann', { 'last-event-id': '0' })
  t.match(
    await fromStart.until((m) => m.event !== undefined),
    { event: 'reset', id: '10' },
    'the oldest frames were let go',
  )
  const recent = await open('ann', { 'last-event-id': '8' })
  const replayed = await recent.until((m) => m.event !== undefined)
  t.match(replayed, { event: 'post.liked', id: '9' }, 'what still fits is replayed')
})
