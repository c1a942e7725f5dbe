import './dom.js'
import { cleanup, screen } from '@testing-library/react'
import t from 'tap'
import { apiGetHealth } from '../../client/api/auth.js'
import { App } from '../../client/app.js'
import { startLive } from '../../client/live/index.js'
import type { RawMessage } from '../../client/live/messages.js'
import { shareConnection } from '../../client/live/shared.js'
import { streamStateMessage, streamStateOf } from '../../client/live/stream-state.js'
import { network, offlineReason, watchNetwork } from '../../client/state/network.js'
import { session } from '../../client/state/session.js'
import { makeUser, ok, renderAt, resetAll, signInAs, stubApi, until, type ApiReply } from './helpers.js'
import { fakeChannels, fakeEnvironment, fakeLocks, fakeNetwork } from './live-fakes.js'

t.beforeEach(() => resetAll())
t.afterEach(() => {
  cleanup()
  resetAll()
})

/** A route that gets no answer at all while `server.down` is set, as when the server cannot be reached. */
function unreachableWhileDown(reply: ApiReply) {
  const server = { down: false }
  const route = () => {
    if (server.down) throw new TypeError('Failed to fetch')
    return reply
  }
  return { server, route }
}

const OFFLINE = "You're offline. Chirp will catch up when you're back."
const UNREACHABLE = "Chirp can't be reached right now. Trying again…"

await t.test('offline is the browser saying so, or the server answering neither the stream nor calls', async (t) => {
  const cases = [
    [{ browserOnline: false, apiReachable: true, stream: 'open' }, 'offline'],
    [{ browserOnline: true, apiReachable: false, stream: 'down' }, 'unreachable'],
    [{ browserOnline: true, apiReachable: false, stream: 'unknown' }, 'unreachable'],
    [{ browserOnline: true, apiReachable: false, stream: 'open' }, null],
    [{ browserOnline: true, apiReachable: true, stream: 'down' }, null],
    [{ browserOnline: true, apiReachable: true, stream: 'unknown' }, null],
  ] as const
  for (const [state, reason] of cases) t.equal(offlineReason(state), reason, JSON.stringify(state))
})

await t.test("the browser's online and offline events, and each call's outcome, are followed", async (t) => {
  const health = unreachableWhileDown(ok({ status: 'ok' }))
  const api = stubApi({ 'GET /api/health': health.route })
  t.teardown(api.restore)
  const browser = fakeNetwork(false)
  t.teardown(watchNetwork(browser, () => browser.onLine))
  t.equal(network.browserOnline, false, 'read at the start')
  browser.go('online')
  t.equal(network.browserOnline, true)

  health.server.down = true
  await apiGetHealth().catch(() => undefined)
  t.equal(network.apiReachable, false, 'a call with no answer')
  health.server.down = false
  await apiGetHealth()
  t.equal(network.apiReachable, true, 'any answer of the server')

  browser.go('offline')
  health.server.down = true
  await apiGetHealth().catch(() => undefined)
  browser.go('online')
  t.equal(network.apiReachable, true, 'back online, the server is presumed reachable until a call says not')
})

await t.test("a proxy's 502 or 504 means the server was not reached; its own errors mean it was", async (t) => {
  let status = 502
  const api = stubApi({ 'GET /api/health': () => ({ status, body: { errors: ['x'] } }) })
  t.teardown(api.restore)
  t.teardown(watchNetwork(fakeNetwork(), () => true))
  await apiGetHealth().catch(() => undefined)
  t.equal(network.apiReachable, false, '502')
  status = 500
  await apiGetHealth().catch(() => undefined)
  t.equal(network.apiReachable, true, '500 is the server answering')
  status = 504
  await apiGetHealth().catch(() => undefined)
  t.equal(network.apiReachable, false, '504')
})

await t.test(
  "the stream's state: down while no ticket can be had, open, down on an error, unknown once signed out",
  async (t) => {
    const ticket = unreachableWhileDown(ok({ ticket: 'tk' }))
    ticket.server.down = true
    const api = stubApi({ 'POST /api/events/ticket': ticket.route })
    t.teardown(api.restore)
    const { env, streams, timers } = fakeEnvironment()
    t.teardown(startLive(env))
    t.equal(network.stream, 'unknown', 'signed out: no stream to judge by')
    signInAs(makeUser({ username: 'guest' }))
    await until(() => network.stream === 'down')
    t.equal(streams.opened.length, 0, 'down for want of a ticket')
    ticket.server.down = false
    timers.fire()
    await until(() => streams.opened.length === 1)
    t.equal(network.stream, 'down', 'still down until it opens')
    streams.last.open()
    t.equal(network.stream, 'open')
    streams.last.fail()
    t.equal(network.stream, 'down', 'an error')
    session.token = null
    await until(() => network.stream === 'unknown')
    t.pass('signed out')
  },
)

await t.test("a tab that follows another's stream learns its state with the events", async (t) => {
  const locks = fakeLocks()
  const channels = fakeChannels()
  const emitters: ((message: RawMessage) => void)[] = []
  const follower: RawMessage[] = []
  const tab = (apply: (message: RawMessage) => void) =>
    shareConnection({
      user: 'guest',
      locks,
      openChannel: channels.open,
      connect: ({ onMessage }) => {
        emitters.push(onMessage)
        return { lastEventId: undefined, online() {}, offline() {}, close() {} }
      },
      apply,
    })
  const one = tab(() => {})
  await until(() => emitters.length === 1)
  const two = tab((message) => follower.push(message))
  t.teardown(() => [one.stop(), two.stop()])
  await new Promise((resolve) => setTimeout(resolve, 0))
  emitters[0]?.(streamStateMessage('down'))
  t.same(follower.map(streamStateOf), ['down'])
})

await t.test('the layout shows the banner while offline, and says which kind', async (t) => {
  const health = unreachableWhileDown(ok({ status: 'ok' }))
  const api = stubApi({
    'GET /api/health': health.route,
    'GET /api/posts': () => ok({ posts: [], nextCursor: null }),
    'GET /api/users/suggestions': () => ok({ users: [] }),
  })
  t.teardown(api.restore)
  const browser = fakeNetwork()
  t.teardown(watchNetwork(browser, () => browser.onLine))
  signInAs(makeUser({ username: 'guest' }))
  renderAt('/explore', <App />)
  await screen.findByRole('heading', { name: 'Explore' })
  t.equal(screen.queryByText(OFFLINE), null, 'online: no banner')

  browser.go('offline')
  t.ok(await screen.findByText(OFFLINE))
  browser.go('online')
  await until(() => screen.queryByText(OFFLINE) === null)

  network.stream = 'down'
  health.server.down = true
  await apiGetHealth().catch(() => undefined)
  t.ok(await screen.findByText(UNREACHABLE), 'the stream is down and a call got no answer')
  health.server.down = false
  await apiGetHealth()
  await until(() => screen.queryByText(UNREACHABLE) === null)
  t.pass('gone once the server answers')
})
