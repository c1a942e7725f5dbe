import t from 'tap'
import { buildApiApp, expectError, signup } from '../helpers/api.js'
import { call, commentBy, imageBy, postBy } from '../helpers/moderation.js'
import { expect429, loose } from '../helpers/rate-limits.js'
import { readZip } from '../helpers/zip.js'

/**
 * GET /api/account/export (DECISIONS §9): a zip, streamed, of everything the account made, with
 * Mastodon's CSVs of accounts; once an hour per user.
 */
const HOUR = 60 * 60 * 1000
const api = await buildApiApp(t, {
  config: { rateLimit: true },
  options: { rateLimits: loose({ exportsPerUser: { max: 1, windowMs: HOUR } }) },
})
const exportOf = (token: string | undefined) => call(api, token, 'GET', '/api/account/export')
const text = (files: Map<string, Buffer>, name: string) => files.get(name)?.toString('utf8') ?? ''
const json = <T>(files: Map<string, Buffer>, name: string) => JSON.parse(text(files, name)) as T

await t.test('the archive holds every file, each with what the account made', async (t) => {
  const [me, ann, ben] = await Promise.all([signup(api), signup(api), signup(api)])
  const url = await imageBy(api, me.token)
  await call(api, me.token, 'POST', '/api/posts', { content: 'with a picture', mediaUrl: url, mediaAlt: 'a gradient' })
  await postBy(api, me.token, 'just words')
  const annsPost = await postBy(api, ann.token, 'ann writes')
  await commentBy(api, me.token, annsPost, 'nice one')
  await call(api, me.token, 'POST', `/api/posts/like/${annsPost}`)
  await call(api, me.token, 'POST', `/api/users/bookmark/${annsPost}`)
  await call(api, me.token, 'POST', `/api/users/follow/${ann.user._id}`)
  await call(api, ann.token, 'POST', `/api/users/follow/${me.user._id}`)
  await call(api, me.token, 'POST', `/api/users/block/${ben.user._id}`)
  const cal = await signup(api)
  await call(api, me.token, 'POST', `/api/users/mute/${cal.user._id}`)

  const res = await exportOf(me.token)
  t.equal(res.statusCode, 200, res.statusCode === 200 ? '200' : res.body)
  t.equal(res.headers['content-type'], 'application/zip')
  t.match(res.headers['content-disposition'], `attachment; filename="chirp-${me.username}.zip"`)
  const files = await readZip(res.rawPayload)
  const media = [...files.keys()].filter((name) => name.startsWith('media/'))
  t.strictSame([...files.keys()].filter((name) => !name.startsWith('media/')).sort(), [
    'account.json',
    'blocks.csv',
    'bookmarks.json',
    'comments.json',
    'followers.csv',
    'following.csv',
    'likes.json',
    'mutes.csv',
    'posts.json',
  ])
  const account = json<Record<string, unknown>>(files, 'account.json')
  t.match(account, { _id: me.user._id, username: me.username, role: 'user', settings: { twoFactor: false } })
  t.notOk('passwordHash' in account, 'no password hash leaves the server')
  const posts = json<{ content: string; media?: string; mediaAlt?: string }[]>(files, 'posts.json')
  t.strictSame(
    posts.map((post) => post.content),
    ['with a picture', 'just words'],
    'posts.json: their posts, oldest first',
  )
  t.equal(posts[0]?.media, `media/${url.split('/').pop()}`, 'a post names its file in the archive')
  t.equal(posts[0]?.mediaAlt, 'a gradient')
  t.strictSame(media, [posts[0]?.media], 'media/ holds the upload')
  t.ok(files.get(media[0] ?? '')?.length, 'with its bytes')
  t.match(json(files, 'comments.json'), [{ postId: annsPost, text: 'nice one' }])
  t.match(json(files, 'likes.json'), [{ postId: annsPost, username: ann.username, content: 'ann writes' }])
  t.match(json(files, 'bookmarks.json'), [{ postId: annsPost, username: ann.username }])
  t.equal(text(files, 'following.csv'), `Account address\n${ann.username}\n`, "Mastodon's CSV")
  t.equal(text(files, 'followers.csv'), `Account address\n${ann.username}\n`)
  t.equal(text(files, 'blocks.csv'), `Account address\n${ben.username}\n`)
  t.equal(text(files, 'mutes.csv'), `Account address\n${cal.username}\n`)

  expect429(t, await exportOf(me.token), 'a second export within the hour')
  t.equal((await exportOf(ann.token)).statusCode, 200, "someone else's export is not held back")
})

await t.test('an account with nothing yet still gets every file', async (t) => {
  const me = await signup(api)
  const files = await readZip((await exportOf(me.token)).rawPayload)
  t.strictSame(json(files, 'posts.json'), [])
  t.strictSame(json(files, 'likes.json'), [])
  t.equal(text(files, 'following.csv'), 'Account address\n')
})

await t.test('without a token, a 401', async (t) => {
  expectError(t, await exportOf(undefined), 401, 'The token is invalid. Unauthorized access error.')
})

await t.test('RATE_LIMIT=false lifts the hourly limit', async (t) => {
  const open = await buildApiApp(t)
  const me = await signup(open)
  for (const attempt of [1, 2]) {
    t.equal((await call(open, me.token, 'GET', '/api/account/export')).statusCode, 200, `export ${attempt}`)
  }
})

await t.test('likes.json and bookmarks.json leave out the posts of whoever blocks the account', async (t) => {
  const [me, ann, ben] = await Promise.all([signup(api), signup(api), signup(api)])
  const annsPost = await postBy(api, ann.token, 'only for those ann lets read it')
  const bensPost = await postBy(api, ben.token, 'ben writes for anyone')
  for (const postId of [annsPost, bensPost]) {
    await call(api, me.token, 'POST', `/api/posts/like/${postId}`)
    await call(api, me.token, 'POST', `/api/users/bookmark/${postId}`)
  }
  await call(api, ann.token, 'POST', `/api/users/block/${me.user._id}`)
  const files = await readZip((await exportOf(me.token)).rawPayload)
  for (const name of ['likes.json', 'bookmarks.json']) {
    t.notMatch(text(files, name), /only for those ann lets read it/, `${name}: nothing of the blocker's post`)
    t.match(text(files, name), /ben writes for anyone/, `${name}: the others stay`)
  }
})
