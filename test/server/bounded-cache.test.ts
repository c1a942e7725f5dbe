import t from 'tap'
import { BoundedCache } from '../../server/services/bounded-cache.js'

t.test('keeps at most its capacity, forgetting the least recently used first', async (t) => {
  const cache = new BoundedCache<string, number>(2)
  cache.set('a', 1)
  cache.set('b', 2)
  t.equal(cache.get('a'), 1, 'reading a makes b the oldest')
  cache.set('c', 3)
  t.equal(cache.size, 2)
  t.equal(cache.peek('b'), undefined, 'b is forgotten')
  t.equal(cache.peek('a'), 1)
  t.equal(cache.peek('c'), 3)
  cache.peek('a')
  cache.set('d', 4)
  t.equal(cache.peek('a'), undefined, 'peek does not count as a use')
})

t.test('setting a key again replaces its value and makes it the newest', async (t) => {
  const cache = new BoundedCache<string, number>(2)
  cache.set('a', 1)
  cache.set('b', 2)
  cache.set('a', 10)
  cache.set('c', 3)
  t.equal(cache.peek('a'), 10)
  t.equal(cache.peek('b'), undefined)
})
