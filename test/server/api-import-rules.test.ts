import t from 'tap'
import { ImportReplySchema } from '../../server/schemas/account.js'
import { FeedReplySchema } from '../../server/schemas/posts.js'
import { buildApiApp, expectError, expectOk, multipart, signup } from '../helpers/api.js'
import { call } from '../helpers/moderation.js'
import { makeZip } from '../helpers/zip.js'

/**
 * An archive's posts obey the rules a post written through the API obeys, on both stores alike: text
 * that no post may hold refuses the import as any invalid entry does, a post that shows nothing is
 * skipped as an empty one is, and a date is kept within what every store holds and never after the
 * import. Before, a NUL was stored by the embedded store and a 500 on PostgreSQL, a lone surrogate came
 * back as U+FFFD from PostgreSQL only, and a post dated 2999 topped Explore and its followers' feeds.
 */
const api = await buildApiApp(t)
const importPosts = async (token: string, posts: readonly object[]) =>
  api.as(token, {
    method: 'POST',
    url: '/api/account/import',
    ...multipart('file', 'archive.zip', 'application/zip', await makeZip([['posts.json', JSON.stringify(posts)]])),
  })
type Post = { _id: string; content: string; createdAt: string; importedAt?: string }
const postsOf = async (token: string, username: string) =>
  ((await call(api, token, 'GET', `/api/posts/user/${username}`)).json() as { posts: Post[] }).posts
const at = '2020-05-01T00:00:00.000Z'

await t.test('text no post may hold refuses the whole import with a 400 saying what and where', async (t) => {
  const me = await signup(api)
  const cases: [string, object, string][] = [
    [
      'a NUL',
      { content: 'a\u0000b', createdAt: at },
      'posts.json: post 2: content must not contain control characters',
    ],
    [
      'a lone surrogate',
      { content: 'half \ud83d', createdAt: at },
      'posts.json: post 2: content must be well-formed Unicode text',
    ],
    [
      'a control character',
      { content: 'bell\u0007', createdAt: at },
      'posts.json: post 2: content must not contain control characters',
    ],
    [
      'in the description',
      { content: 'x', mediaUrl: 'https://img.example/a.png', mediaAlt: 'a\u0000', createdAt: at },
      'posts.json: post 2: mediaAlt must not contain control characters',
    ],
    [
      'past 500 characters',
      { content: 'x'.repeat(501), createdAt: at },
      'posts.json: post 2: content must NOT have more than 500 characters',
    ],
  ]
  for (const [what, bad, message] of cases) {
    expectError(t, await importPosts(me.token, [{ content: 'fine', createdAt: at }, bad]), 400, message, what)
  }
  t.strictSame(await postsOf(me.token, me.username), [], 'nothing was imported')
})

await t.test('500 characters are counted as the API counts them: an emoji is one', async (t) => {
  const me = await signup(api)
  const res = await importPosts(me.token, [{ content: '🐦'.repeat(500), createdAt: at }])
  t.match(expectOk(t, res, 200, ImportReplySchema).imported, { posts: 1 })
  const api500 = await call(api, me.token, 'POST', '/api/posts', { content: '🐦'.repeat(500) })
  t.equal(api500.statusCode, 201, 'as the API takes it')
})

await t.test('a post that shows nothing is skipped, as an empty one is', async (t) => {
  const me = await signup(api)
  const res = await importPosts(me.token, [
    { content: '\u200b\u2800 ', createdAt: at },
    { content: 'seen', createdAt: at },
  ])
  t.strictSame(expectOk(t, res, 200, ImportReplySchema).skipped.posts, 1)
  t.strictSame(
    (await postsOf(me.token, me.username)).map((post) => post.content),
    ['seen'],
  )
})

await t.test('dates are kept between 1970 and the moment of the import', async (t) => {
  const me = await signup(api)
  const fan = await signup(api)
  await call(api, fan.token, 'POST', `/api/users/follow/${me.user._id}`)
  const dates = [
    '2999-01-01T00:00:00.000Z',
    '+275000-01-01T00:00:00.000Z',
    '-271000-01-01T00:00:00.000Z',
    '0000-01-01T00:00:00.000Z',
    '1969-12-31T23:59:59.000Z',
    at,
  ]
  const res = await importPosts(
    me.token,
    dates.map((createdAt, i) => ({ content: `dated ${i}`, createdAt })),
  )
  t.match(expectOk(t, res, 200, ImportReplySchema).imported, { posts: dates.length }, 'every store takes every one')
  const posts = await postsOf(me.token, me.username)
  const dateOf = (i: number) => posts.find((post) => post.content === `dated ${i}`)
  for (const i of [0, 1]) {
    const post = dateOf(i)
    t.ok(post && post.createdAt <= (post.importedAt ?? ''), `${dates[i]} is no later than the import`)
  }
  for (const i of [2, 3, 4]) t.equal(dateOf(i)?.createdAt, '1970-01-01T00:00:00.000Z', `${dates[i]} is 1970`)
  t.equal(dateOf(5)?.createdAt, at, 'a date between is kept')

  const fresh = await call(api, me.token, 'POST', '/api/posts', { content: 'written after the import' })
  t.equal(fresh.statusCode, 201)
  const explore = expectOk(
    t,
    await api.as(undefined, { method: 'GET', url: '/api/posts?limit=1' }),
    200,
    FeedReplySchema,
  )
  t.equal(explore.posts[0]?.content, 'written after the import', 'a later post tops Explore')
  const feed = expectOk(t, await api.as(fan.token, { method: 'GET', url: '/api/feed?limit=1' }), 200, FeedReplySchema)
  t.equal(feed.posts[0]?.content, 'written after the import', "and the followers' feed")
})
