import { randomUUID } from 'node:crypto'
import t from 'tap'
import type { PostQuery, Store, StoreTx } from '../../server/store/types.js'
import type { PgStore } from '../../server/store/pg/pg-store.js'
import { followLog, openBothStores, withReadCache } from '../helpers/both-stores.js'
import { skipWithoutPostgres } from '../helpers/pg.js'
import { contractFixture } from '../helpers/store-contract.js'

/**
 * The one read cache over either store (server/kept-reads.ts): a kept read is read from the store once,
 * and read again only after a write whose events name what it was drawn from. Both stores name their
 * writes the same way, so the same reads are kept, and voided, on each.
 */
const skip = await skipWithoutPostgres()

/** `store`, counting the calls of each of its reads that reach it. */
function counted(store: Store): { store: Store; calls: Map<string, number> } {
  const calls = new Map<string, number>()
  const proxy = new Proxy(store, {
    get(target, name) {
      const value: unknown = Reflect.get(target, name, target)
      if (typeof value !== 'function') return value
      return (...args: unknown[]) => {
        if (typeof name === 'string') calls.set(name, (calls.get(name) ?? 0) + 1)
        return (value as (...args: unknown[]) => unknown).apply(target, args)
      }
    },
  })
  return { store: proxy, calls }
}

await t.test(
  'each store names what a write changed, and only the reads drawn from it are read again',
  { skip },
  async (t) => {
    const f = contractFixture()
    const opened = await openBothStores(t, f.database)
    const [, postgres] = opened
    if (postgres) await followLog(t, postgres.store as PgStore)
    const at = new Date().toISOString()
    const [reader, ...others] = f.u as [string, ...string[]]
    const follows = new Set(f.database.users.find((user) => user._id === reader)?.following)
    const [other, stranger] = others.filter((id) => !follows.has(id)) as [string, string]

    for (const { name, store: raw } of opened) {
      const { store: counting, calls } = counted(raw)
      const store = withReadCache(counting)
      const feed: PostQuery = { feedOf: reader, sort: 'latest', limit: 5 }
      const pageReads = () => calls.get('listPosts') ?? 0
      const write = (work: (tx: StoreTx) => Promise<unknown>) => store.transaction(work)

      const first = await store.listPosts(feed)
      t.strictSame(await store.listPosts(feed), first, `${name}: the page read again is the same`)
      t.equal(pageReads(), 1, `${name}: and is kept`)

      // Someone's logout names that token alone.
      const tokenId = randomUUID()
      await write(async (tx) => {
        await tx.revokeToken({ _id: tokenId, userId: stranger, expiresAt: '2099-01-01T00:00:00.000Z' }, at)
        tx.emit({ name: 'session.ended', data: { tokenId }, to: stranger })
      })
      await store.listPosts(feed)
      t.equal(pageReads(), 1, `${name}: a write that changed nothing on the page leaves it kept`)
      t.equal(await store.isTokenRevoked(tokenId), true, `${name}: while what it did change reads anew`)

      // A follow by the reader names the reader's follows: the feed's authors change.
      t.equal(await write((tx) => tx.follow(reader, other, at)), true, `${name}: the reader follows someone new`)
      await store.listPosts(feed)
      t.equal(pageReads(), 2, `${name}: a write without events says nothing of what it changed, and voids everything`)

      await write(async (tx) => {
        await tx.unfollow(reader, other, at)
        const [user, followUser] = await tx.getUserSummaries([reader, other])
        if (user && followUser) tx.emit({ name: 'user.unfollowed', data: { user, followUser }, by: reader, to: other })
      })
      await store.listPosts(feed)
      t.equal(pageReads(), 3, `${name}: an unfollow by the reader voids the reader's feed`)
      t.strictSame(await store.feedAuthors(reader), await raw.feedAuthors(reader), `${name}: whose posts it holds anew`)
    }
  },
)
