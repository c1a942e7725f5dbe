import t from 'tap'
import { mastodonClient } from '../helpers/mastodon.js'
import { openSocket, socketOf } from '../helpers/mastodon-streaming.js'
import { openSse } from '../helpers/sse.js'

/**
 * Mastodon's streaming connections count against the cap on one person's streams, as Chirp's own event
 * streams do (EVENTS_MAX_STREAMS_PER_USER): past it a socket is told so and closed, an event stream is a 429.
 * On whichever store runs.
 */
const { api, person } = await mastodonClient(t, { config: { eventsMaxStreamsPerUser: 2 } })
await api.app.listen({ host: '127.0.0.1', port: 0 })
const port = (api.app.server.address() as { port: number }).port

await t.test('a socket past the cap is told so and closed; an event stream past it is a 429', async (t) => {
  const alice = await person()
  const query = `access_token=${alice.bearer}&stream=public`
  await socketOf(t, api.app, { query })
  await socketOf(t, api.app, { query })
  const third = await openSocket(api.app, { query })
  t.notOk('status' in third, 'the upgrade itself goes through')
  if (!('status' in third)) {
    t.strictSame(await third.next(), { error: 'Too many requests', status: 429 }, 'then the refusal')
    await third.closed
    t.pass('and the socket closes')
  }
  const sse = await openSse(port, '/api/v1/streaming/public', { authorization: `Bearer ${alice.bearer}` })
  t.equal(sse.status, 429, 'an event stream: 429')
  await sse.ended
  t.strictSame(JSON.parse(sse.text), { error: 'Too many requests' })
  t.equal(api.app.events.size, 2, 'the two within the cap stay open')

  const bob = await person()
  await socketOf(t, api.app, { query: `access_token=${bob.bearer}` })
  t.pass('the cap is per person')
})
