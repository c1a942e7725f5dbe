import t from 'tap'
import { MAX_DELAY_MS, openConnection, retryDelay, type ConnectionOptions } from '../../client/live/connection.js'
import type { RawMessage } from '../../client/live/messages.js'
import { fakeTimers, sources } from './live-fakes.js'

const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

/**
 * A connection over fakes: tickets T1, T2, … from a counter (the first `ticketFailures` requests fail), and
 * every EventSource and timer in the test's hands.
 */
function setup(options: Partial<ConnectionOptions> = {}, ticketFailures = 0) {
  const streams = sources()
  const timers = fakeTimers()
  const received: RawMessage[] = []
  let tickets = 0
  const connection = openConnection({
    names: ['post.liked', 'reset'],
    getTicket: async () => {
      if (ticketFailures > 0) {
        ticketFailures -= 1
        throw new Error('network down')
      }
      return `T${++tickets}`
    },
    streamUrl: (ticket, lastEventId) =>
      `/api/events?ticket=${ticket}${lastEventId ? `&lastEventId=${lastEventId}` : ''}`,
    openSource: streams.open,
    onMessage: (message) => received.push(message),
    random: () => 0.5,
    setTimer: timers.set,
    clearTimer: timers.clear,
    ...options,
  })
  return { connection, streams, timers, received }
}

await t.test('retryDelay doubles from 0.5–1 s up to 15–30 s, with half of it random', async (t) => {
  t.same(
    [0, 1, 2].map((n) => retryDelay(n, () => 0)),
    [500, 1000, 2000],
    'the low end',
  )
  t.same(
    [0, 1, 2].map((n) => retryDelay(n, () => 1)),
    [1000, 2000, 4000],
    'the high end',
  )
  t.equal(
    retryDelay(10, () => 1),
    MAX_DELAY_MS,
    'bounded',
  )
  t.equal(
    retryDelay(1000, () => 0),
    MAX_DELAY_MS / 2,
    'no overflow after many failures',
  )
})

await t.test('opens with a ticket, hands on each event with its id and parsed data', async (t) => {
  const { streams, received } = setup()
  await settle()
  t.equal(streams.last.url, '/api/events?ticket=T1', 'no lastEventId on the first connection')
  streams.last.open()
  streams.last.emit('post.liked', { postId: 'p1', liked: true, likeCount: 1 }, '101')
  t.same(received, [{ name: 'post.liked', data: { postId: 'p1', liked: true, likeCount: 1 }, id: '101' }])
})

await t.test('on error: the spent EventSource is closed, and a fresh ticket resumes after the last id', async (t) => {
  const { connection, streams, timers } = setup()
  await settle()
  const first = streams.last
  first.open()
  first.emit('post.liked', { postId: 'p1' }, '101')
  first.emit('post.liked', { postId: 'p1' }, '102')
  first.fail()
  t.ok(first.closed, 'closed, so the browser cannot retry with the spent ticket')
  t.same(timers.pending(), [750], 'one retry after 0.5–1 s')
  timers.fire()
  await settle()
  t.equal(streams.opened.length, 2)
  t.equal(streams.last.url, '/api/events?ticket=T2&lastEventId=102', 'a new ticket and the last id seen')
  t.equal(connection.lastEventId, '102')
})

await t.test('repeated failures back off further each time; an open starts over', async (t) => {
  const { streams, timers } = setup()
  await settle()
  const delays: number[] = []
  for (let i = 0; i < 7; i++) {
    streams.last.fail()
    delays.push(...timers.pending())
    timers.fire()
    await settle()
  }
  t.same(delays, [750, 1500, 3000, 6000, 12000, 22500, 22500], 'doubling, then bounded')
  streams.last.open()
  streams.last.fail()
  t.same(timers.pending(), [750], 'a stream that opened resets the back-off')
})

await t.test('a ticket that cannot be had is retried with the same back-off', async (t) => {
  const { streams, timers } = setup({}, 2)
  await settle()
  t.equal(streams.opened.length, 0)
  t.same(timers.pending(), [750])
  timers.fire()
  await settle()
  t.same(timers.pending(), [1500], 'second failure waits longer')
  timers.fire()
  await settle()
  t.equal(streams.last.url, '/api/events?ticket=T1')
})

await t.test("the server's reset passes through and moves the last id", async (t) => {
  const { connection, streams, received } = setup()
  await settle()
  streams.last.open()
  streams.last.emit('reset', {}, '900')
  t.same(received, [{ name: 'reset', data: {}, id: '900' }])
  t.equal(connection.lastEventId, '900')
})

await t.test('a reconnect that knows no id cannot ask for a replay, so it counts as a reset', async (t) => {
  const { streams, timers, received } = setup()
  await settle()
  streams.last.open()
  t.same(received, [], 'the first open is no reset')
  streams.last.fail()
  timers.fire()
  await settle()
  t.equal(streams.last.url, '/api/events?ticket=T2')
  streams.last.open()
  t.same(received, [{ name: 'reset', data: {}, id: undefined }])
})

await t.test('taking over with a known id resumes; without one it resets on open', async (t) => {
  const known = setup({ lastEventId: '55', resumes: true })
  await settle()
  t.equal(known.streams.last.url, '/api/events?ticket=T1&lastEventId=55')
  known.streams.last.open()
  t.same(known.received, [])
  const unknown = setup({ resumes: true })
  await settle()
  unknown.streams.last.open()
  t.same(unknown.received, [{ name: 'reset', data: {}, id: undefined }])
})

await t.test('offline drops the stream and waits; online reconnects at once with a fresh ticket', async (t) => {
  const { connection, streams, timers } = setup()
  await settle()
  streams.last.open()
  streams.last.emit('post.liked', { postId: 'p1' }, '7')
  connection.offline()
  t.ok(streams.last.closed)
  streams.last.fail()
  t.same(timers.pending(), [], 'no retries while offline')
  connection.online()
  await settle()
  t.equal(streams.last.url, '/api/events?ticket=T2&lastEventId=7')
  t.same(timers.pending(), [])
})

await t.test('online during a back-off skips the wait', async (t) => {
  const { connection, streams, timers } = setup()
  await settle()
  streams.last.fail()
  t.same(timers.pending(), [750])
  connection.online()
  await settle()
  t.same(timers.pending(), [], 'the waiting retry is cancelled')
  t.equal(streams.opened.length, 2)
})

await t.test('close stops everything, even a ticket already on its way', async (t) => {
  const { connection, streams, timers } = setup()
  connection.close()
  await settle()
  t.equal(streams.opened.length, 0, 'the ticket that came back after close opened nothing')
  const second = setup()
  await settle()
  second.streams.last.fail()
  second.connection.close()
  t.same(second.timers.pending(), [], 'a pending retry is cancelled')
  t.same(timers.pending(), [])
})

await t.test('bad JSON is skipped, and a handler that throws does not stop the events after it', async (t) => {
  let calls = 0
  const errors: unknown[] = []
  const original = console.error
  console.error = (...args: unknown[]) => void errors.push(args)
  t.teardown(() => void (console.error = original))
  const { streams } = setup({
    onMessage: () => {
      calls += 1
      if (calls === 1) throw new Error('boom')
    },
  })
  await settle()
  const source = streams.last
  for (const listener of source.listeners.get('post.liked') ?? []) {
    listener(new MessageEvent('post.liked', { data: '{not json', lastEventId: '1' }))
  }
  source.emit('post.liked', {}, '2')
  source.emit('post.liked', {}, '3')
  t.equal(calls, 2, 'both good events reached the handler')
  t.equal(errors.length, 1, 'the failure was reported')
})
