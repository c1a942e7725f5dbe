import t from 'tap'
import { ReadCache } from '../../server/plugins/read-cache.js'
import { PostsReplySchema, type Post } from '../../server/schemas/posts.js'
import { buildApiApp, expectOk, signup } from '../helpers/api.js'

/** The read cache is the app's own, and what it keeps is found only at the store's write version it was kept at. */

await t.test('what is kept is found at its version only, by reads that began before the next write', async (t) => {
  let version = 1
  const cache = new ReadCache(() => version)
  const before = cache.at()
  const kept = { a: 1 }
  before.set('k', kept)
  t.equal(cache.at().get('k'), kept, 'a read at the same version finds it')
  version++
  t.equal(cache.at().get('k'), undefined, 'a read that starts after a write does not')
  t.equal(before.get('k'), kept, 'a read that began before the write still does')
})

await t.test('a frozen view is encoded once, any other each time', async (t) => {
  const cache = new ReadCache(() => 0)
  let encoded = 0
  const encode = (view: object) => Buffer.from(`${JSON.stringify(view)}${encoded++}`)
  const frozen = Object.freeze({ a: 1 })
  t.equal(cache.json(frozen, encode), cache.json(frozen, encode))
  const open = { a: 1 }
  t.not(cache.json(open, encode).toString(), cache.json(open, encode).toString())
})

const a = await buildApiApp(t)
const b = await buildApiApp(t)
const author = await signup(a, { firstName: 'Ada', lastName: 'Author' })
const fan = await signup(a, { firstName: 'Fan', lastName: 'One' })

const list = async (app = a) =>
  expectOk(t, await app.as(undefined, { method: 'GET', url: '/api/posts?limit=20' }), 200, PostsReplySchema).posts

await t.test('two apps in one process keep apart', async (t) => {
  t.not(a.app.readCache, b.app.readCache, 'each app has its own')
  const fromB = b.app.readCache.size
  await list(a)
  await list(a)
  t.ok(a.app.readCache.size > 0, 'reads through one app fill its cache')
  t.equal(b.app.readCache.size, fromB, 'and leave the other one as it was')
})

await t.test('a write through an app shows on its next read, after reads that filled its cache', async (t) => {
  const res = await a.as(author.token, { method: 'POST', url: '/api/posts', payload: { content: 'kept, then liked' } })
  const { post } = res.json() as { post: Post }
  const likes = async () => (await list()).find((p) => p._id === post._id)?.likes.likeCount
  t.equal(await likes(), 0)
  t.equal(await likes(), 0, 'read again, from the cache')
  t.equal((await a.as(fan.token, { method: 'POST', url: `/api/posts/like/${post._id}` })).statusCode, 201)
  t.equal(await likes(), 1, 'the next read sees the like')
})
