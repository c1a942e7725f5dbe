import { Temporal } from '@js-temporal/polyfill'
import t from 'tap'
import { ChirpKvStore } from '../../server/federation/kv-store.js'
import { openBothStores } from '../helpers/both-stores.js'
import { uuidDatabase } from '../helpers/uuid-database.js'

/**
 * Fedify's KvStore over each store's FederationKv (DECISIONS §14: no second database): values come back
 * as they went in, expire on Chirp's clock, and a compare-and-set wins only against what is there.
 */
const stores = await openBothStores(t, uuidDatabase({ users: 2, posts: 1 }))
let clock = new Date('2026-06-01T00:00:00Z')
const minutes = (n: number) => Temporal.Duration.from({ minutes: n })

for (const { name, store } of stores) {
  await t.test(name, async (t) => {
    const kv = new ChirpKvStore(store.federationKv, () => clock)
    const document = { '@id': 'https://remote.example/users/a', n: [1, 2], nested: { ok: true } }

    await kv.set(['_fedify', 'remoteDocument', 'https://remote.example/users/a'], document)
    t.strictSame(await kv.get(['_fedify', 'remoteDocument', 'https://remote.example/users/a']), document)
    t.equal(await kv.get(['_fedify', 'remoteDocument']), undefined, 'a prefix is another key')
    t.equal(await kv.get(['_fedify', 'remoteDocument', 'https://remote.example/users/b']), undefined)
    t.equal(await kv.get(['a/b']), undefined)
    await kv.set(['a', 'b'], 'parts')
    t.equal(await kv.get(['a/b']), undefined, 'keys of parts never meet a key with a slash')

    await kv.set(['guard'], 'seen', { ttl: minutes(10) })
    clock = new Date(clock.getTime() + 9 * 60_000)
    t.equal(await kv.get(['guard']), 'seen', 'kept until its time to live runs out')
    clock = new Date(clock.getTime() + 60_000)
    t.equal(await kv.get(['guard']), undefined, 'and gone once it has')

    t.equal(await kv.cas(['count'], undefined, 1), true, 'set where nothing was')
    t.equal(await kv.cas(['count'], undefined, 2), false, 'not where something is')
    t.equal(await kv.cas(['count'], 2, 3), false, 'not over another value')
    t.equal(await kv.cas(['count'], 1, 2), true, 'over the value there')
    t.equal(await kv.get(['count']), 2)
    await kv.set(['short'], 'old', { ttl: minutes(1) })
    clock = new Date(clock.getTime() + 2 * 60_000)
    t.equal(await kv.cas(['short'], undefined, 'new'), true, 'an expired value counts as none')
    t.equal(await kv.get(['short']), 'new')

    await kv.delete(['count'])
    t.equal(await kv.get(['count']), undefined, 'deleted')
    await kv.delete(['never-there'])
  })
}
