import { randomUUID } from 'node:crypto'
import t, { type Test } from 'tap'
import { createConnection, type Outlet } from '../../server/mastodon/streaming.js'
import { createEventsHub } from '../../server/plugins/events.js'
import type { Services } from '../../server/services/index.js'
import { statusIdOf } from '../../server/services/status-ids.js'

/**
 * One Mastodon streaming connection over an events hub, without a server: a reader too slow to take what
 * it is sent, or too far behind, is dropped, and the hub's end of a token ends it. Deletions are drawn
 * from the event alone, so no services are called here.
 */
const NO_SERVICES = {} as Services
const createdAt = '2026-01-02T03:04:05.000Z'

function setUp(t: Test, backlog: () => number) {
  const hub = createEventsHub({ startId: 0 })
  t.teardown(() => hub.close())
  const sent: string[] = []
  let closed = 0
  const outlet: Outlet = {
    send: (stream, event, payload) => sent.push(`${stream.join(' ')} ${event} ${payload}`),
    backlog,
    close: () => closed++,
  }
  const warnings: string[] = []
  const connection = createConnection({
    services: NO_SERVICES,
    publicUrl: 'https://chirp.example',
    events: hub,
    userId: 'reader',
    tokenId: 'token-1',
    scopes: undefined,
    outlet,
    maxBacklog: 1000,
    log: { warn: (_obj, msg) => warnings.push(msg) },
  })
  connection.subscribe({ name: 'public' })
  connection.open(undefined)
  const deleted = () => {
    const postId = randomUUID()
    hub.publish({ name: 'post.deleted', data: { postId, createdAt }, by: 'author' })
    return statusIdOf({ at: createdAt, postId })
  }
  return { hub, sent, connection, warnings, deleted, closed: () => closed }
}
const settle = () => new Promise((resolve) => setTimeout(resolve, 20))

await t.test('a reader within the bound hears every event, in order', async (t) => {
  const { sent, deleted, closed } = setUp(t, () => 0)
  const ids = [deleted(), deleted(), deleted()]
  await settle()
  t.strictSame(
    sent,
    ids.map((id) => `public delete ${id}`),
  )
  t.equal(closed(), 0)
})

await t.test('a reader that leaves more than the bound unsent is dropped, and leaves the hub', async (t) => {
  let unsent = 0
  const { hub, sent, deleted, closed, connection, warnings } = setUp(t, () => unsent)
  t.equal(hub.size, 1)
  deleted()
  await settle()
  unsent = 1001
  deleted()
  await settle()
  t.equal(sent.length, 2, 'what was drawn was sent')
  t.equal(closed(), 1, 'then the outlet is closed')
  t.ok(connection.ended)
  t.equal(hub.size, 0, 'and the hub no longer holds it')
  t.match(warnings, ['dropping a streaming connection'])
  deleted()
  await settle()
  t.equal(sent.length, 2, 'nothing more')
})

await t.test('a reader 500 events behind is dropped', async (t) => {
  const { hub, deleted, closed, sent } = setUp(t, () => 0)
  for (let i = 0; i < 501; i++) deleted()
  t.equal(closed(), 1, 'dropped as the 501st arrives')
  t.equal(hub.size, 0)
  await settle()
  t.equal(sent.length, 0, 'and nothing of the queue is sent after')
})

await t.test("the hub's end of the token ends the connection", async (t) => {
  const { hub, closed, connection } = setUp(t, () => 0)
  await hub.endToken({ userId: 'reader', tokenId: 'token-2' })
  t.equal(closed(), 0, 'not another token')
  await hub.endToken({ userId: 'reader', tokenId: 'token-1' })
  t.equal(closed(), 1, 'its own')
  t.ok(connection.ended)
  t.equal(hub.size, 0)
})

await t.test('a connection closed before it opens takes no place in the hub', async (t) => {
  const hub = createEventsHub({ startId: 0 })
  t.teardown(() => hub.close())
  const outlet: Outlet = { send: () => undefined, backlog: () => 0, close: () => undefined }
  const connection = createConnection({
    services: NO_SERVICES,
    publicUrl: 'https://chirp.example',
    events: hub,
    userId: 'reader',
    scopes: undefined,
    outlet,
    maxBacklog: 1000,
  })
  const place = await hub.reserveStream('reader')
  connection.close()
  connection.open(place)
  t.equal(hub.size, 0)
  const places = await Promise.all(Array.from({ length: 10 }, () => hub.reserveStream('reader')))
  t.ok(
    places.every((each) => each !== undefined),
    'its place was given back: all ten are free',
  )
})
