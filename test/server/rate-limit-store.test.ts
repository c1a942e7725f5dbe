import t from 'tap'
import { counterStore } from '../../server/plugins/counter-store.js'

const WINDOW = 60_000

function makeStore(capacity: number) {
  let clock = 1_000
  const Store = counterStore(capacity, () => clock)
  const store = new Store({})
  const call = (method: 'incr' | 'read', key: string) => {
    let result: { current: number; ttl: number } | undefined
    const callback = (_error: Error | null, res?: { current: number; ttl: number }) => void (result = res)
    if (method === 'incr') store.incr(key, callback, WINDOW)
    else store.read(key, callback)
    if (!result) throw new Error(`${method} answered nothing`)
    return result
  }
  return {
    incr: (key: string) => call('incr', key),
    read: (key: string) => call('read', key),
    tick: (ms: number) => void (clock += ms),
  }
}

await t.test('counts per key within the window, reads without counting, starts over after it', async (t) => {
  const store = makeStore(10)
  t.strictSame(store.incr('a'), { current: 1, ttl: WINDOW })
  store.tick(1_000)
  t.strictSame(store.incr('a'), { current: 2, ttl: WINDOW - 1_000 })
  t.strictSame(store.read('a'), { current: 2, ttl: WINDOW - 1_000 }, 'a read does not count')
  t.strictSame(store.read('b'), { current: 0, ttl: 0 }, 'an unknown key reads as nothing')
  store.tick(WINDOW)
  t.strictSame(store.read('a'), { current: 0, ttl: 0 }, 'expired')
  t.strictSame(store.incr('a'), { current: 1, ttl: WINDOW }, 'a new window')
})

await t.test('a flood of fresh keys cannot push out a counter that has counted more than once', async (t) => {
  const store = makeStore(100)
  for (let i = 0; i < 9; i++) store.incr('victim')
  store.incr('once')
  for (let i = 0; i < 10_000; i++) store.incr(`junk-${i}`)
  t.equal(store.read('victim').current, 9, 'the guessed-at counter is still there')
  t.equal(store.read('once').current, 0, 'a key seen once is what gives way, oldest first')
  t.equal(store.read('junk-9999').current, 1, 'the newest junk is kept')
})

await t.test('when full of counters seen more than once, the oldest of them gives way', async (t) => {
  const store = makeStore(3)
  for (const key of ['a', 'b', 'c']) {
    store.incr(key)
    store.incr(key)
  }
  store.incr('d')
  t.equal(store.read('a').current, 0)
  t.equal(store.read('b').current, 2)
  t.equal(store.read('d').current, 1)
})

await t.test('expired counters are dropped before any live one', async (t) => {
  const store = makeStore(2)
  store.incr('old')
  store.tick(WINDOW)
  store.incr('live')
  store.incr('live')
  store.incr('new')
  t.equal(store.read('live').current, 2)
  t.equal(store.read('new').current, 1)
})

await t.test('each limiter gets a store of its own', async (t) => {
  const Store = counterStore(10, () => 0)
  const parent = new Store({})
  const a = parent.child()
  const b = parent.child()
  a.incr('same-key', () => {}, WINDOW)
  let seen: number | undefined
  b.incr('same-key', (_error, res) => void (seen = res?.current), WINDOW)
  t.equal(seen, 1, 'a count in one is not a count in the other')
})
