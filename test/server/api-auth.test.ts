import t, { type Test } from 'tap'
import { defaultAvatarOf } from '../../common/avatars.js'
import { PRESET_AVATARS } from '../../server/schemas/media.js'
import { AuthLoginReplySchema, AuthSignupReplySchema } from '../../server/schemas/users.js'
import { TEST_SECRET } from '../helpers/app.js'
import { testStoreKind } from '../helpers/store-under-test.js'
import {
  buildApiApp,
  checkSchema,
  expectError,
  expectNoSecrets,
  expectOk,
  freshUsername,
  signJwt,
  signup,
  storedText,
} from '../helpers/api.js'

const INVALID_TOKEN = 'The token is invalid. Unauthorized access error.'
const NOT_REGISTERED = 'The username you entered is not Registered. Not Found error'

// One app for the tests below that only add users; those that end sessions or delete users build their own.
const api = await buildApiApp(t)
const { app } = api

const signupBody = (fields: Record<string, unknown> = {}) => ({
  username: freshUsername(),
  password: 'pw-1234-secret',
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada@example.com',
  ...fields,
})
/** The distinct password hashes in a text. */
const hashes = (text: string) => new Set(text.match(/scrypt\$[A-Za-z0-9$_-]+/g))
const postSignup = (payload: Record<string, unknown>) =>
  app.inject({ method: 'POST', url: '/api/auth/signup', payload })
const postLogin = (payload: Record<string, unknown>) => app.inject({ method: 'POST', url: '/api/auth/login', payload })

/** Every message of a 400 names the field, and there is one message for the one problem. */
function expectFieldError(t: Test, res: Awaited<ReturnType<typeof postSignup>>, field: string, what: string) {
  t.equal(res.statusCode, 400, `${what}: 400`)
  const { errors } = res.json() as { errors: string[] }
  t.equal(errors.length, 1, `${what}: one message (${JSON.stringify(errors)})`)
  t.match(errors[0], new RegExp(`^${field.replace('.', '\\.')}\\b`), `${what}: the message names ${field}`)
}

await t.test('POST /api/auth/signup answers 201 { createdUser, encodedToken } and stores only a hash', async (t) => {
  const hashesBefore = hashes(await storedText(api))
  const body = signupBody({ email: 'grace@example.com' })
  const res = await postSignup(body)
  const { createdUser, encodedToken } = expectOk(t, res, 201, AuthSignupReplySchema, 'signup')
  expectNoSecrets(t, res, 'signup')
  t.match(createdUser, {
    username: body.username,
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: 'grace@example.com',
    avatarURL: defaultAvatarOf(body.username as string, PRESET_AVATARS),
    bio: '',
    website: '',
    bookmarks: [],
    following: [],
    followers: [],
  })
  t.match(createdUser._id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/, 'the id is a uuid')
  const feed = await api.as(encodedToken, { method: 'GET', url: '/api/feed' })
  t.equal(feed.statusCode, 200, 'the new token opens a protected call')

  const stored = await storedText(api)
  t.ok(stored.includes(createdUser._id), 'the user is stored')
  t.notOk(stored.includes(body.password as string), 'the password itself is nowhere on disk')
  t.equal(hashes(stored).size, hashesBefore.size + 1, 'one new scrypt hash is stored')
  const fresh = [...hashes(stored)].filter((hash) => !hashesBefore.has(hash))
  t.match(fresh, [/^scrypt\$16\$8\$1\$/], "with the app's configured cost (the tests' N = 16)")
})

await t.test('signup accepts a preset avatar and refuses a hostile one', async (t) => {
  const ok = await postSignup(signupBody({ avatarURL: '/avatars/avatar-2.svg' }))
  t.equal(expectOk(t, ok, 201, AuthSignupReplySchema).createdUser.avatarURL, '/avatars/avatar-2.svg')
  for (const avatarURL of [
    'javascript:alert(1)',
    'data:image/png;base64,AAAA',
    'http://example.com/a.png',
    '/etc/passwd',
  ]) {
    expectError(
      t,
      await postSignup(signupBody({ avatarURL })),
      400,
      'avatarURL must be a preset avatar, an uploaded /media/ file or an https URL',
      avatarURL,
    )
  }
})

await t.test('signup usernames: 3 to 30 of A-Z a-z 0-9 _ .', async (t) => {
  const suffix = Date.now().toString(36).slice(-4)
  for (const username of [`a${suffix.slice(0, 2)}`, `A.b_9${suffix}`, `${'z'.repeat(26)}${suffix}`]) {
    const res = await postSignup(signupBody({ username }))
    t.equal(res.statusCode, 201, `"${username}" (${username.length} characters) is accepted`)
  }
  const refused = ['ab', 'x'.repeat(31), 'has space', 'dash-name', 'émile', 'semi;colon', 'at@sign', '']
  for (const username of refused)
    expectFieldError(t, await postSignup(signupBody({ username })), 'username', `"${username}"`)
})

await t.test('signup usernames are unique without regard to case: 422', async (t) => {
  const taken = 'Unprocessable Entity. Username Already Exists.'
  for (const username of ['guest', 'GUEST', 'Maya.Lin', 'THEO_PARK']) {
    expectError(t, await postSignup(signupBody({ username })), 422, taken, username)
  }
  const mine = freshUsername('Case')
  t.equal((await postSignup(signupBody({ username: mine }))).statusCode, 201)
  expectError(t, await postSignup(signupBody({ username: mine.toLowerCase() })), 422, taken, 'lower-cased again')
  expectError(t, await postSignup(signupBody({ username: mine.toUpperCase() })), 422, taken, 'upper-cased again')
})

await t.test('names that GET /api/users/<name> answers as other calls count as taken', async (t) => {
  for (const username of ['bookmark', 'suggestions', 'Bookmark', 'SUGGESTIONS']) {
    expectError(
      t,
      await postSignup(signupBody({ username })),
      422,
      'Unprocessable Entity. Username Already Exists.',
      username,
    )
  }
  const edit = await postSignup(signupBody({ username: 'edit' }))
  t.equal(edit.statusCode, 201, '"edit" is only a POST path, so it stays free')
  const profile = await app.inject({ method: 'GET', url: '/api/users/edit' })
  t.equal(
    (profile.json() as { user?: { username: string } }).user?.username,
    'edit',
    'and its profile can be looked up',
  )
})

await t.test('signup passwords: 8 to 128 characters', async (t) => {
  t.equal((await postSignup(signupBody({ password: '12345678' }))).statusCode, 201, '8 characters')
  t.equal((await postSignup(signupBody({ password: 'p'.repeat(128) }))).statusCode, 201, '128 characters')
  expectFieldError(t, await postSignup(signupBody({ password: '1234567' })), 'password', '7 characters')
  expectFieldError(t, await postSignup(signupBody({ password: 'p'.repeat(129) })), 'password', '129 characters')
})

await t.test('signup email must be a valid address; names 1 to 50 characters', async (t) => {
  for (const email of ['nope', 'a@', '@b.co', 'a b@c.de', '']) {
    expectFieldError(t, await postSignup(signupBody({ email })), 'email', `email "${email}"`)
  }
  for (const field of ['firstName', 'lastName']) {
    expectFieldError(t, await postSignup(signupBody({ [field]: '' })), field, `empty ${field}`)
    expectFieldError(t, await postSignup(signupBody({ [field]: 'n'.repeat(51) })), field, `51-character ${field}`)
    t.equal((await postSignup(signupBody({ [field]: 'n'.repeat(50) }))).statusCode, 201, `50-character ${field}`)
  }
})

await t.test('signup bodies are not coerced, and missing fields are refused', async (t) => {
  expectFieldError(t, await postSignup(signupBody({ username: 12345 })), 'username', 'a number as username')
  expectFieldError(t, await postSignup(signupBody({ password: 12345678 })), 'password', 'a number as password')
  expectFieldError(t, await postSignup(signupBody({ avatar: 7 })), 'avatar', 'a number as the avatar alias')
  const { email: _email, ...withoutEmail } = signupBody()
  expectError(t, await postSignup(withoutEmail), 400, 'email is required')
  const array = await app.inject({
    method: 'POST',
    url: '/api/auth/signup',
    payload: '[]',
    headers: { 'content-type': 'application/json' },
  })
  t.equal(array.statusCode, 400, 'an array body is a 400')
  const json = { 'content-type': 'application/json' }
  const broken = await app.inject({ method: 'POST', url: '/api/auth/signup', payload: '{"username":', headers: json })
  expectError(t, broken, 400, 'Body is not valid JSON', 'broken JSON')
})

await t.test('POST /api/auth/login answers 200 { foundUser, encodedToken } with the own email', async (t) => {
  const res = await postLogin({ username: 'maya.lin', password: 'mayapassword' })
  const { foundUser, encodedToken } = expectOk(t, res, 200, AuthLoginReplySchema, 'login')
  expectNoSecrets(t, res, 'login')
  t.match(foundUser, { username: 'maya.lin', firstName: 'Maya', lastName: 'Lin', email: 'maya@chirp.local' })
  t.equal(foundUser.following.length, 3, 'following holds user summaries')
  t.equal((await api.as(encodedToken, { method: 'GET', url: '/api/feed' })).statusCode, 200)
})

await t.test('login errors: unknown user 404, wrong password 401, bad bodies 400', async (t) => {
  expectError(
    t,
    await postLogin({ username: 'nobody_here', password: 'whatever1' }),
    404,
    NOT_REGISTERED,
    'unknown user',
  )
  expectError(
    t,
    await postLogin({ username: 'guest', password: 'wrongpassword' }),
    401,
    'The credentials you entered are invalid. Unauthorized access error.',
    'wrong password',
  )
  expectError(t, await postLogin({ username: 'guest' }), 400, 'password is required')
  expectError(t, await postLogin({ username: 'guest', password: 12345678 }), 400, 'password must be string')
})

await t.test('signup ignores fields it does not know and never stores them; avatar is read as avatarURL', async (t) => {
  const guestId = expectOk(
    t,
    await postLogin({ username: 'guest', password: 'guestpassword' }),
    200,
    AuthLoginReplySchema,
  ).foundUser._id
  const body = signupBody({
    confirmPassword: 'pw-1234-secret',
    avatar: '/avatars/avatar-3.svg',
    _id: guestId,
    passwordHash: 'scrypt$1$1$1$planted$hash',
    tokenVersion: -424242,
    followers: [guestId],
    createdAt: '2000-01-01T00:00:00.000Z',
    isAdmin: 'planted-admin',
  })
  const { createdUser, encodedToken } = expectOk(
    t,
    await postSignup(body),
    201,
    AuthSignupReplySchema,
    'signup with extras',
  )
  t.not(createdUser._id, guestId, "the id is the server's own")
  t.equal(createdUser.avatarURL, '/avatars/avatar-3.svg', 'avatar is read as avatarURL')
  t.strictSame(createdUser.followers, [], 'no followers were planted')
  t.not(createdUser.createdAt, '2000-01-01T00:00:00.000Z', "the date is the server's")
  t.equal((await api.as(encodedToken, { method: 'GET', url: '/api/feed' })).statusCode, 200, 'the token works')
  t.equal(
    (await api.login(body.username, 'pw-1234-secret')).length > 0,
    true,
    'the password sent is the one that works',
  )
  const stored = await storedText(api)
  for (const planted of [
    'confirmPassword',
    'pw-1234-secret',
    'planted$hash',
    'planted-admin',
    '424242',
    '2000-01-01',
  ]) {
    t.notOk(stored.includes(planted), `${planted} is not stored`)
  }
  const both = signupBody({ avatarURL: '/avatars/avatar-2.svg', avatar: '/avatars/avatar-3.svg' })
  t.equal(
    expectOk(t, await postSignup(both), 201, AuthSignupReplySchema).createdUser.avatarURL,
    '/avatars/avatar-2.svg',
    'avatarURL wins over avatar',
  )
})

await t.test('login ignores fields it does not know', async (t) => {
  const res = await postLogin({ username: 'guest', password: 'guestpassword', remember: true, confirmPassword: 'x' })
  t.equal(expectOk(t, res, 200, AuthLoginReplySchema).foundUser.username, 'guest')
})

await t.test('a protected call takes the raw token or "Bearer <token>"', async (t) => {
  const token = await api.login('guest')
  for (const header of [token, `Bearer ${token}`, `bearer ${token}`]) {
    const res = await app.inject({ method: 'GET', url: '/api/feed', headers: { authorization: header } })
    t.equal(res.statusCode, 200, header === token ? 'raw' : header.slice(0, 7))
  }
})

await t.test('every missing, malformed or hostile token is a 401, never a 500', async (t) => {
  const token = await api.login('guest')
  const [head, payload, signature] = token.split('.') as [string, string, string]
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as {
    _id: string
    username: string
    tv: number
  }
  const now = Math.floor(Date.now() / 1000)
  const valid = { ...claims, iat: now - 10, exp: now + 600 }
  const hs256 = { alg: 'HS256', typ: 'JWT' }

  // The control: a token made the same way by hand, with nothing wrong, is accepted.
  const handMade = signJwt(hs256, valid, TEST_SECRET)
  t.equal(
    (await api.as(handMade, { method: 'GET', url: '/api/feed' })).statusCode,
    200,
    'a hand-made valid token works',
  )

  const forged = Buffer.from(JSON.stringify({ ...claims, username: 'maya.lin' })).toString('base64url')
  const flipped = `${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`
  const cases: Record<string, string | undefined> = {
    'no header': undefined,
    'empty header': '',
    'Bearer alone': 'Bearer ',
    garbage: 'not-a-token',
    'three dots of nothing': 'a.b.c',
    'bad base64 json': `${head}.%%%.${signature}`,
    'payload tampered': `${head}.${forged}.${signature}`,
    'signature tampered': `${head}.${payload}.${flipped}`,
    'signature removed': `${head}.${payload}.`,
    'alg none': `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${payload}.`,
    'HS512 with the right secret': signJwt({ alg: 'HS512', typ: 'JWT' }, valid, TEST_SECRET, 'sha512'),
    'HS384 with the right secret': signJwt({ alg: 'HS384', typ: 'JWT' }, valid, TEST_SECRET, 'sha384'),
    'RS256 header over an HMAC': signJwt({ alg: 'RS256', typ: 'JWT' }, valid, TEST_SECRET),
    expired: signJwt(hs256, { ...claims, iat: now - 7200, exp: now - 3600 }, TEST_SECRET),
    'not yet valid': signJwt(hs256, { ...valid, nbf: now + 3600 }, TEST_SECRET),
    'another secret': signJwt(hs256, valid, 'another-secret-that-is-long-enough-for-hs256'),
    'no user fields': signJwt(hs256, { iat: now, exp: now + 600 }, TEST_SECRET),
    'no token version': signJwt(
      hs256,
      { _id: claims._id, username: claims.username, iat: now, exp: now + 600 },
      TEST_SECRET,
    ),
    'a stale token version': signJwt(hs256, { ...valid, tv: claims.tv + 1 }, TEST_SECRET),
    'far too long': `${token}${'A'.repeat(3000)}`,
  }
  for (const [why, authorization] of Object.entries(cases)) {
    const headers = authorization === undefined ? {} : { authorization }
    expectError(
      t,
      await app.inject({ method: 'GET', url: '/api/feed', headers }),
      401,
      INVALID_TOKEN,
      `GET /api/feed, ${why}`,
    )
    const write = await app.inject({ method: 'POST', url: '/api/posts', headers, payload: { content: 'hello' } })
    expectError(t, write, 401, INVALID_TOKEN, `POST /api/posts, ${why}`)
  }
})

await t.test('a valid token whose user no longer exists is a 404', async (t) => {
  // Another data directory, same secret: the token verifies, but its user was never there.
  const elsewhere = await buildApiApp(t)
  const { token } = await signup(elsewhere)
  expectError(t, await api.as(token, { method: 'GET', url: '/api/feed' }), 404, NOT_REGISTERED, 'GET /api/feed')
  const write = await api.as(token, { method: 'POST', url: '/api/posts', payload: { content: 'ghost' } })
  expectError(t, write, 404, NOT_REGISTERED, 'POST /api/posts')
  expectError(
    t,
    await api.as(token, { method: 'POST', url: '/api/events/ticket' }),
    404,
    NOT_REGISTERED,
    'POST /api/events/ticket',
  )
  t.equal(
    (await api.as(token, { method: 'GET', url: '/api/posts' })).statusCode,
    200,
    'an open call ignores the stale token',
  )
})

await t.test('GUEST_LOGIN=false refuses the guest, and its earlier tokens, but no one else', async (t) => {
  const open = await buildApiApp(t)
  const guestToken = await open.login('guest')
  await open.app.close()

  const closed = await buildApiApp(t, { dataDir: open.dataDir, config: { guestLogin: false } })
  const login = await closed.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { username: 'guest', password: 'guestpassword' },
  })
  expectError(t, login, 403, 'Guest login is disabled on this server.', 'guest login')
  expectError(
    t,
    await closed.as(guestToken, { method: 'GET', url: '/api/feed' }),
    401,
    INVALID_TOKEN,
    'an earlier guest token',
  )
  const health = await closed.app.inject({ method: 'GET', url: '/api/health' })
  t.strictSame(
    health.json(),
    { status: 'ok', store: testStoreKind, guestLogin: false, registration: 'open' },
    'health tells the client to hide the button',
  )
  const maya = await closed.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { username: 'maya.lin', password: 'mayapassword' },
  })
  checkSchema(t, AuthLoginReplySchema, maya.json(), 'other users still log in')
})
