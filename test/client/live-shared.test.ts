import t from 'tap'
import type { RawMessage } from '../../client/live/messages.js'
import { shareConnection, type ChannelLike, type LocksLike } from '../../client/live/shared.js'
import { fakeChannels, fakeLocks } from './live-fakes.js'

const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

type Opened = { lastEventId: string | undefined; resumes: boolean; closed: boolean; emit: (m: RawMessage) => void }

/** One browser: its locks and channels, and the tabs opened in it, each recording what it applied. */
function browser(apis: { locks?: LocksLike | undefined; channels?: boolean } = {}) {
  const locks = 'locks' in apis ? apis.locks : fakeLocks()
  const channels = fakeChannels()
  const connections: (Opened & { tab: string })[] = []
  const open = (tab: string, user = 'guest') => {
    const applied: RawMessage[] = []
    const share = shareConnection({
      user,
      locks,
      openChannel: apis.channels === false ? undefined : (name): ChannelLike => channels.open(name),
      connect: ({ lastEventId, resumes, onMessage }) => {
        const opened = { tab, lastEventId, resumes, closed: false, emit: onMessage }
        connections.push(opened)
        return { lastEventId, online() {}, offline() {}, close: () => void (opened.closed = true) }
      },
      apply: (message) => applied.push(message),
    })
    return { applied, stop: share.stop }
  }
  const live = () => connections.filter((c) => !c.closed)
  return { open, connections, live, channels }
}

const liked = (id: string): RawMessage => ({ name: 'post.liked', data: { postId: 'p1' }, id })

await t.test('the first tab leads and streams; the second follows and is relayed every event', async (t) => {
  const b = browser()
  const one = b.open('one')
  await settle()
  const two = b.open('two')
  await settle()
  t.same(
    b.live().map((c) => c.tab),
    ['one'],
    'one stream for the browser, held by the first tab',
  )
  t.match(b.connections[0], { lastEventId: undefined, resumes: false })

  b.live()[0]?.emit(liked('10'))
  t.same(one.applied, [liked('10')], 'the leader applies it')
  t.same(two.applied, [liked('10')], 'the follower gets the same event over the channel')
})

await t.test(
  'when the leading tab goes, a waiting tab takes the lock and resumes after the last relayed id',
  async (t) => {
    const b = browser()
    const one = b.open('one')
    await settle()
    const two = b.open('two')
    const three = b.open('three')
    await settle()
    b.live()[0]?.emit(liked('10'))
    b.live()[0]?.emit(liked('11'))
    one.stop()
    await settle()
    t.same(
      b.live().map((c) => c.tab),
      ['two'],
      'the next tab in line leads, and only it',
    )
    t.match(b.live()[0], { lastEventId: '11', resumes: true })

    b.live()[0]?.emit(liked('12'))
    t.same(
      two.applied.map((m) => m.id),
      ['10', '11', '12'],
    )
    t.same(
      three.applied.map((m) => m.id),
      ['10', '11', '12'],
      'the third tab now hears from the second',
    )
    t.same(
      one.applied.map((m) => m.id),
      ['10', '11'],
      'the closed tab hears nothing more',
    )
  },
)

await t.test('a follower that was relayed nothing takes over as a resume with no id (a reset on open)', async (t) => {
  const b = browser()
  const one = b.open('one')
  await settle()
  b.open('two')
  await settle()
  one.stop()
  await settle()
  t.match(b.live()[0], { tab: 'two', lastEventId: undefined, resumes: true })
})

await t.test("a tab still showing another user ignores that user's relayed events", async (t) => {
  const b = browser()
  b.open('one', 'guest')
  await settle()
  const stale = b.open('two', 'maya.lin')
  await settle()
  b.live()[0]?.emit({ name: 'bookmark.added', data: { postId: 'p1' }, id: '5' })
  t.same(stale.applied, [], "another user's private events never apply")
})

await t.test('a tab that logs out while waiting for the lock never streams', async (t) => {
  const b = browser()
  const one = b.open('one')
  await settle()
  const two = b.open('two')
  await settle()
  two.stop()
  one.stop()
  await settle()
  t.same(b.live(), [], 'no stream left')
  t.equal(b.channels.count(), 0, 'both channels closed')
  const three = b.open('three')
  await settle()
  t.same(
    b.live().map((c) => c.tab),
    ['three'],
    'the lock was free for the next tab',
  )
  three.stop()
})

await t.test('without Web Locks or BroadcastChannel each tab streams for itself', async (t) => {
  for (const apis of [{ locks: undefined }, { channels: false }]) {
    const b = browser(apis)
    const one = b.open('one')
    const two = b.open('two')
    await settle()
    t.same(
      b.live().map((c) => c.tab),
      ['one', 'two'],
      JSON.stringify(apis),
    )
    t.match(b.connections[1], { resumes: false })
    b.connections[1]?.emit(liked('3'))
    t.same(two.applied, [liked('3')])
    t.same(one.applied, [], 'nothing is relayed')
    one.stop()
    two.stop()
    t.same(b.live(), [])
  }
})
