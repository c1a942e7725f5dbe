import t from 'tap'
import { BoundedCache } from '../../server/services/bounded-cache.js'

await t.test('never holds more than its capacity', async (t) => {
  const cache = new BoundedCache<number, number>(10)
  for (let i = 0; i < 100; i++) {
    cache.set(i, i)
    t.ok(cache.size <= 10, `after ${i + 1} sets`)
  }
  t.equal(cache.peek(99), 99, 'the newest is kept')
  t.equal(cache.peek(0), undefined, 'the oldest is gone')
})

await t.test('an entry in use outlives entries set after it that nobody reads', async (t) => {
  const cache = new BoundedCache<string, number>(4)
  cache.set('used', 1)
  for (let i = 0; i < 20; i++) {
    cache.set(`filler ${i}`, i)
    t.equal(cache.get('used'), 1, `still there after ${i + 1} other sets`)
  }
  t.equal(cache.peek('filler 0'), undefined)
})

await t.test('peek does not count as a use', async (t) => {
  const cache = new BoundedCache<string, number>(4)
  cache.set('a', 1)
  for (let i = 0; i < 4; i++) {
    cache.set(`filler ${i}`, i)
    cache.peek('a')
  }
  t.equal(cache.peek('a'), undefined)
})

await t.test('setting a key again replaces its value', async (t) => {
  const cache = new BoundedCache<string, number>(4)
  cache.set('a', 1)
  cache.set('b', 2)
  cache.set('c', 3)
  cache.set('a', 10)
  t.equal(cache.get('a'), 10)
  t.equal(cache.size, 3)
})
