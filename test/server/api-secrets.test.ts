import { readdir, readFile, stat } from 'node:fs/promises'
import path from 'node:path'
import t from 'tap'
import { buildApiApp, expectNoSecrets, signJwt, signup, storedText } from '../helpers/api.js'
import { embeddedOnly, postgresOnly, withSql } from '../helpers/store-under-test.js'

/** A password no seeded text contains, so finding it anywhere in a body would be a leak. */
const PASSWORD = 'Zebra-Quartz-9981'

await t.test('no response that carries a user carries a password, a hash or the plaintext', async (t) => {
  const api = await buildApiApp(t)
  const maya = await api.login('maya.lin')
  const get = (url: string, token?: string) => api.as(token, { method: 'GET', url })
  const post = (url: string, token?: string, payload?: object) =>
    api.as(token, { method: 'POST', url, ...(payload ? { payload } : {}) })

  const signupRes = await api.app.inject({
    method: 'POST',
    url: '/api/auth/signup',
    payload: {
      username: 'leak_check',
      password: PASSWORD,
      firstName: 'Leak',
      lastName: 'Check',
      email: 'leak@example.com',
    },
  })
  const { encodedToken: token, createdUser: me } = signupRes.json() as {
    encodedToken: string
    createdUser: { _id: string }
  }
  const mayaId = ((await get('/api/users/maya.lin')).json() as { user: { _id: string } }).user._id
  const postId = ((await post('/api/posts', token, { content: 'leak test' })).json() as { post: { _id: string } }).post
    ._id
  const comment = (await post(`/api/comments/add/${postId}`, maya, { text: 'a reply' })).json() as {
    post: { comments: { _id: string }[] }
  }
  const commentId = comment.post.comments[0]?._id as string

  // In this order, one after another: unfollow must follow the follow, whatever the store.
  const responses: [string, () => Promise<Awaited<ReturnType<typeof get>>>][] = [
    ['signup', () => Promise.resolve(signupRes)],
    [
      'login',
      () =>
        api.app.inject({
          method: 'POST',
          url: '/api/auth/login',
          payload: { username: 'leak_check', password: PASSWORD },
        }),
    ],
    ['users list, anonymous', () => get('/api/users')],
    ['users list, signed in', () => get('/api/users', token)],
    ['users list, paged', () => get('/api/users?limit=3', token)],
    ['own user', () => get('/api/users/leak_check', token)],
    ['another user', () => get('/api/users/maya.lin', token)],
    ['edit', () => post('/api/users/edit', token, { bio: 'checking' })],
    ['follow', () => post(`/api/users/follow/${mayaId}`, token)],
    ['unfollow', () => post(`/api/users/unfollow/${mayaId}`, token)],
    ['followed back', () => post(`/api/users/follow/${me._id}`, maya)],
    ['suggestions', () => get('/api/users/suggestions?limit=100', token)],
    ['posts', () => get('/api/posts')],
    ['one post', () => get(`/api/posts/${postId}`)],
    ["a user's posts", () => get('/api/posts/user/leak_check')],
    ['feed', () => get('/api/feed', token)],
    ['like', () => post(`/api/posts/like/${postId}`, maya)],
    ['comments', () => get(`/api/comments/${postId}`)],
    ['vote', () => post(`/api/comments/upvote/${postId}/${commentId}`, token)],
    ['bookmark', () => post(`/api/users/bookmark/${postId}`, token)],
    ['bookmarks', () => get('/api/users/bookmark', token)],
    ['remove bookmark', () => post(`/api/users/remove-bookmark/${postId}`, token)],
  ]
  for (const [what, send] of responses) {
    const res = await send()
    t.ok(res.statusCode < 300, `${what}: succeeded (${res.statusCode})`)
    expectNoSecrets(t, res, what)
    t.notOk(res.body.includes(PASSWORD), `${what}: not the password itself`)
    t.notOk(res.body.includes('passwordHash') || res.body.includes('tokenVersion'), `${what}: no stored-only fields`)
  }
})

await t.test(
  'without JWT_SECRET a 256-bit secret is made once, mode 0600, and kept across restarts',
  { skip: embeddedOnly },
  async (t) => {
    const first = await buildApiApp(t, { config: { jwtSecret: undefined } })
    const file = path.join(first.dataDir, 'jwt-secret')
    const info = await stat(file)
    t.equal(info.mode & 0o777, 0o600, 'readable by its owner only')
    const secret = (await readFile(file, 'utf8')).trim()
    t.ok(Buffer.from(secret, 'base64url').length >= 32, 'at least 256 bits')
    const token = await first.login('guest')
    await first.app.close()

    const second = await buildApiApp(t, { dataDir: first.dataDir, config: { jwtSecret: undefined } })
    t.equal((await readFile(file, 'utf8')).trim(), secret, 'the same secret is reused')
    t.equal(
      (await second.as(token, { method: 'GET', url: '/api/feed' })).statusCode,
      200,
      'a token from before the restart works',
    )
    const [, payload] = token.split('.') as [string, string]
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as object
    const byHand = signJwt({ alg: 'HS256', typ: 'JWT' }, claims, secret)
    t.equal(
      (await second.as(byHand, { method: 'GET', url: '/api/feed' })).statusCode,
      200,
      'the file holds the signing secret',
    )
    const served = await second.app.inject({ method: 'GET', url: '/media/../jwt-secret' })
    t.not(served.statusCode, 200, 'the secret file is never served')
    t.notOk(served.body.includes(secret))

    const other = await buildApiApp(t, { config: { jwtSecret: undefined } })
    const otherSecret = (await readFile(path.join(other.dataDir, 'jwt-secret'), 'utf8')).trim()
    t.not(otherSecret, secret, 'each data directory gets its own secret')
    t.equal(
      (await other.as(token, { method: 'GET', url: '/api/feed' })).statusCode,
      401,
      "another directory's token is refused",
    )
  },
)

await t.test(
  'on PostgreSQL, without JWT_SECRET, every instance signs with one secret kept in the database',
  { skip: postgresOnly },
  async (t) => {
    const first = await buildApiApp(t, { config: { jwtSecret: undefined } })
    const second = await buildApiApp(t, { config: { jwtSecret: undefined }, sharedSchema: first.schema as string })
    const token = await first.login('guest')
    t.equal(
      (await second.as(token, { method: 'GET', url: '/api/feed' })).statusCode,
      200,
      'a token from one instance works on the other',
    )
    const [row] = await withSql(
      first.schema as string,
      (sql) => sql<{ value: string }[]>`select value from app_settings where key = 'jwt_secret'`,
    )
    t.ok(Buffer.from(row?.value ?? '', 'base64url').length >= 32, 'a 256-bit secret')
    t.notOk((await readdir(first.dataDir)).includes('jwt-secret'), 'no secret file')
    const other = await buildApiApp(t, { config: { jwtSecret: undefined } })
    t.equal(
      (await other.as(token, { method: 'GET', url: '/api/feed' })).statusCode,
      401,
      "another database's token is refused",
    )
  },
)

await t.test('with JWT_SECRET set, no secret file is written', async (t) => {
  const api = await buildApiApp(t)
  t.notOk((await readdir(api.dataDir)).includes('jwt-secret'))
})

await t.test('a signup is stored as a salted scrypt hash, different for equal passwords', async (t) => {
  const api = await buildApiApp(t)
  const [a, b] = [await signup(api, { password: PASSWORD }), await signup(api, { password: PASSWORD })]
  const stored = await storedText(api)
  const hashes = new Set(stored.match(/scrypt\$[A-Za-z0-9$_-]+/g))
  t.equal(hashes.size, 6 + 2, 'eight users, eight different hashes: equal passwords are salted apart')
  t.ok(stored.includes(a.user._id) && stored.includes(b.user._id), 'both users are stored')
  t.notOk(stored.includes(PASSWORD), 'the plaintext is not stored')
})
