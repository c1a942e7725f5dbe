import t from 'tap'
import { ReadCache } from '../../server/plugins/read-cache.js'
import { PostsReplySchema, type Post } from '../../server/schemas/posts.js'
import { buildApiApp, expectOk, signup } from '../helpers/api.js'

/** The read cache is the app's own, and what it keeps lapses with a change to what it was drawn from. */

await t.test('what is kept lapses by its tags, and a read under way when they change keeps nothing', async (t) => {
  const cache = new ReadCache()
  const kept = { a: 1 }
  cache.at().set('k', kept, ['post:p'])
  t.equal(cache.at().get('k'), kept, 'a later read finds it')
  cache.changed(['post:q'])
  t.equal(cache.at().get('k'), kept, 'a change to something else leaves it')
  const during = cache.at()
  cache.changed(['post:p'])
  t.equal(cache.at().get('k'), undefined, 'a change to what it was drawn from voids it')
  during.set('k', { a: 2 }, ['post:p'])
  t.equal(cache.at().get('k'), undefined, 'and what a read begun before that change keeps is not found')
  cache.at().set('k', kept, ['post:p'])
  cache.changed('all')
  t.equal(cache.at().get('k'), undefined, 'a change to everything voids everything')
})

await t.test('a frozen view is encoded once, any other each time', async (t) => {
  const cache = new ReadCache()
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

await t.test(
  'a view as one reader sees it (reposted, liked, reposted by someone followed) keeps its bytes too',
  async (t) => {
    const reader = await signup(a, { firstName: 'Rita', lastName: 'Reader' })
    const friend = await signup(a, { firstName: 'Fred', lastName: 'Friend' })
    const as = (token: string, method: 'GET' | 'POST', url: string, payload?: object) =>
      a.as(token, { method, url, ...(payload ? { payload } : {}) })
    const written = await as(author.token, 'POST', '/api/posts', { content: 'shared by a friend' })
    const { post } = written.json() as { post: Post }
    t.equal((await as(reader.token, 'POST', `/api/users/follow/${friend.user._id}`)).statusCode, 200)
    t.equal((await as(friend.token, 'POST', `/api/posts/repost/${post._id}`)).statusCode, 201)
    t.equal((await as(reader.token, 'POST', `/api/posts/like/${post._id}`)).statusCode, 201)
    t.equal((await as(reader.token, 'POST', `/api/posts/repost/${post._id}`)).statusCode, 201)

    // Counts what each reply serialises afresh, for this post.
    const cache = a.app.readCache
    const json = cache.json.bind(cache)
    let encoded = 0
    cache.json = (view, encode) =>
      json(view, (v) => {
        if ((v as Post)._id === post._id) encoded++
        return encode(v)
      })
    t.teardown(() => {
      cache.json = json
    })
    const feed = async (compact: boolean) => {
      const url = `/api/feed?limit=20${compact ? '&compact=1' : ''}`
      const { posts } = expectOk(t, await as(reader.token, 'GET', url), 200, PostsReplySchema)
      return posts.find((p) => p._id === post._id)
    }
    for (const compact of [true, false]) {
      const first = await feed(compact)
      t.match(
        first,
        { repostedBy: { _id: friend.user._id }, reposted: true },
        `reposted by the friend (compact: ${compact})`,
      )
      t.ok(
        first?.likes.likedBy.some((user) => user._id === reader.user._id),
        'the reader among its likers',
      )
      encoded = 0
      t.same(await feed(compact), first, 'read again, the same')
      t.equal(encoded, 0, `and not serialised again (compact: ${compact})`)
    }
  },
)
