import type { Static } from '@sinclair/typebox'
import t from 'tap'
import { FeedReplySchema, PostsReplySchema, type Post } from '../../server/schemas/posts.js'
import { buildApiApp, expectError, expectNoSecrets, expectOk, signup } from '../helpers/api.js'

const INVALID_TOKEN = 'The token is invalid. Unauthorized access error.'

const api = await buildApiApp(t)
const guest = await api.login('guest')

const feed = (token: string | undefined, query = '') => api.as(token, { method: 'GET', url: `/api/feed${query}` })
const ids = (posts: readonly Post[]) => posts.map((post) => post._id)
const time = (post: Post) => Date.parse(post.createdAt)

/** Every page of one sort, following nextCursor (at most 20 pages). */
async function allPages(token: string, sort: string, limit: number) {
  const seen: Post[] = []
  let cursor: string | null = null
  for (let page = 0; page < 20; page++) {
    const query = `?sort=${sort}&limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`
    const body: Static<typeof FeedReplySchema> = expectOk(t, await feed(token, query), 200, FeedReplySchema)
    if (body.posts.length > limit) throw new Error(`page of ${body.posts.length} > ${limit}`)
    seen.push(...body.posts)
    cursor = body.nextCursor
    if (cursor === null) return seen
  }
  throw new Error('more than 20 pages')
}

await t.test(
  'GET /api/feed answers 200 { posts, nextCursor }: my posts and those of whom I follow, newest first',
  async (t) => {
    const res = await feed(guest)
    const body = expectOk(t, res, 200, FeedReplySchema, 'feed')
    expectNoSecrets(t, res, 'GET /api/feed')
    t.equal(body.nextCursor, null, 'nextCursor is always there, null at the end')
    const everyone = expectOk(
      t,
      await api.as(undefined, { method: 'GET', url: '/api/posts' }),
      200,
      PostsReplySchema,
    ).posts
    const expected = everyone.filter((post) => ['guest', 'maya.lin', 'theo_park'].includes(post.username))
    t.equal(body.posts.length, 7)
    t.strictSame(ids(body.posts), ids(expected), "guest's own, maya's and theo's posts, newest first")
  },
)

await t.test('sort=latest|oldest|trending, each paginated with limit and cursor', async (t) => {
  const latest = expectOk(t, await feed(guest, '?sort=latest'), 200, FeedReplySchema).posts
  t.strictSame(ids(latest), ids(expectOk(t, await feed(guest), 200, FeedReplySchema).posts), 'latest is the default')
  t.ok(
    latest.every((post, i) => i === 0 || time(post) <= time(latest[i - 1] as Post)),
    'latest: newest first',
  )

  const oldest = expectOk(t, await feed(guest, '?sort=oldest'), 200, FeedReplySchema).posts
  t.strictSame(ids(oldest), ids(latest).reverse(), 'oldest: the reverse')

  const trending = expectOk(t, await feed(guest, '?sort=trending'), 200, FeedReplySchema).posts
  t.strictSame(ids(trending).sort(), ids(latest).sort(), 'trending: the same posts')
  const inOrder = trending.every((post, i) => {
    const before = trending[i - 1]
    if (!before) return true
    const [a, b] = [before.likes.likeCount, post.likes.likeCount]
    return a > b || (a === b && time(before) >= time(post))
  })
  t.ok(inOrder, 'trending: most liked first, newer first among equals')
  t.strictSame(
    trending.map((post) => post.likes.likeCount),
    [3, 3, 3, 2, 2, 2, 1],
  )

  for (const [sort, whole] of [
    ['latest', latest],
    ['oldest', oldest],
    ['trending', trending],
  ] as const) {
    for (const limit of [1, 2, 3]) {
      t.strictSame(
        ids(await allPages(guest, sort, limit)),
        ids(whole),
        `${sort}, pages of ${limit}, add up to the whole`,
      )
    }
  }
  const first = expectOk(t, await feed(guest, '?limit=7'), 200, FeedReplySchema)
  t.equal(first.nextCursor, null, 'a page that reaches the end says null')
})

await t.test('the feed follows my follows', async (t) => {
  const me = await signup(api)
  t.strictSame(
    expectOk(t, await feed(me.token), 200, FeedReplySchema),
    { posts: [], nextCursor: null },
    'empty at first',
  )
  const minimal = { prefer: 'return=minimal' }
  const created = await api.as(me.token, {
    method: 'POST',
    url: '/api/posts',
    payload: { content: 'mine' },
    headers: minimal,
  })
  const mine = (created.json() as { post: Post }).post
  t.strictSame(ids(expectOk(t, await feed(me.token), 200, FeedReplySchema).posts), [mine._id], 'my own post')

  const noah = (await api.as(undefined, { method: 'GET', url: '/api/users/noah_kim' })).json() as {
    user: { _id: string }
  }
  t.equal((await api.as(me.token, { method: 'POST', url: `/api/users/follow/${noah.user._id}` })).statusCode, 200)
  const following = expectOk(t, await feed(me.token), 200, FeedReplySchema).posts
  t.strictSame(
    following.map((post) => post.username),
    [me.username, 'noah_kim', 'noah_kim'],
    "noah's posts join",
  )

  t.equal((await api.as(me.token, { method: 'POST', url: `/api/users/unfollow/${noah.user._id}` })).statusCode, 200)
  t.strictSame(ids(expectOk(t, await feed(me.token), 200, FeedReplySchema).posts), [mine._id], 'and leave on unfollow')
})

await t.test('feed errors: no token 401, bad sort, limit or cursor 400; an unknown parameter is ignored', async (t) => {
  expectError(t, await feed(undefined), 401, INVALID_TOKEN, 'no token')
  expectError(t, await feed(guest, '?sort=popular'), 400, 'sort must be one of "latest", "oldest", "trending"')
  expectError(
    t,
    await feed(guest, '?sort=LATEST'),
    400,
    'sort must be one of "latest", "oldest", "trending"',
    'case matters',
  )
  for (const query of ['?limit=0', '?limit=101', '?limit=ten']) {
    const res = await feed(guest, query)
    t.equal(res.statusCode, 400, query)
    t.match(res.json(), { errors: [/^limit /] }, `${query}: names limit`)
  }
  expectError(t, await feed(guest, '?limit=2&cursor=AAAA'), 400, 'cursor is invalid')
  const plain = expectOk(t, await feed(guest, '?limit=3'), 200, FeedReplySchema)
  const paged = expectOk(
    t,
    await feed(guest, '?limit=3&page=2&_=1700000000'),
    200,
    FeedReplySchema,
    'unknown parameters',
  )
  t.strictSame(
    paged.posts.map((post) => post._id),
    plain.posts.map((post) => post._id),
    'answer as if they were absent',
  )
})
