import t, { type Test } from 'tap'
import { EmptyObjectSchema } from '../../server/schemas/common.js'
import { TEST_SECRET } from '../helpers/app.js'
import { buildApiApp, expectError, expectOk, signJwt, signup } from '../helpers/api.js'

/** Logout ends one token; logout-all ends them all (docs/api-contract.md §1). */
const INVALID_TOKEN = 'The token is invalid. Unauthorized access error.'
const GUEST_UNCHANGEABLE = 'The guest account cannot be changed.'

const api = await buildApiApp(t)
const post = (token: string | undefined, url: string) => api.as(token, { method: 'POST', url })
const feedStatus = async (token: string) => (await api.as(token, { method: 'GET', url: '/api/feed' })).statusCode

async function expectEnded(t: Test, token: string, what: string) {
  const calls = [
    ['GET', '/api/feed'],
    ['POST', '/api/posts'],
    ['POST', '/api/events/ticket'],
    ['POST', '/api/auth/logout'],
    ['POST', '/api/auth/logout-all'],
  ] as const
  for (const [method, url] of calls) {
    const payload = url === '/api/posts' ? { content: 'after logout' } : undefined
    const res = await api.as(token, { method, url, ...(payload ? { payload } : {}) })
    expectError(t, res, 401, INVALID_TOKEN, `${what}: ${method} ${url}`)
  }
}

/** A new user, signed in twice, as on two devices. */
async function onTwoDevices() {
  const me = await signup(api)
  return { me, desktop: await api.login(me.username, me.password) }
}

/** 200 `{}`, as both logouts answer. */
function expectEmpty(t: Test, res: Awaited<ReturnType<typeof post>>, what: string) {
  expectOk(t, res, 200, EmptyObjectSchema, what)
  t.strictSame(res.json(), {}, `${what}: {}`)
}

await t.test('POST /api/auth/logout answers 200 {} and ends only the token it is sent with', async (t) => {
  const { me, desktop } = await onTwoDevices()
  expectEmpty(t, await post(me.token, '/api/auth/logout'), 'logout')
  await expectEnded(t, me.token, 'the token logged out')
  t.equal(await feedStatus(desktop), 200, 'the same user’s other token still works')
  const write = await api.as(desktop, { method: 'POST', url: '/api/posts', payload: { content: 'still here' } })
  t.equal(write.statusCode, 201, 'and still writes')
  expectError(t, await post(undefined, '/api/auth/logout'), 401, INVALID_TOKEN, 'logout without a token')
})

await t.test('two guests survive each other’s logout', async (t) => {
  const [first, second] = [await api.login('guest'), await api.login('guest')]
  t.not(first, second, 'two guest logins in the same second are two tokens')
  t.equal((await post(first, '/api/auth/logout')).statusCode, 200)
  t.equal(await feedStatus(first), 401, 'the guest who logged out is out')
  t.equal(await feedStatus(second), 200, 'the other guest is still in')
  t.equal(await feedStatus(await api.login('guest')), 200, 'Login as a Guest still works')
  t.equal((await post(second, '/api/auth/logout')).statusCode, 200, 'the other guest logs out in turn')
  t.equal(await feedStatus(second), 401)
})

await t.test("POST /api/auth/logout-all ends every token of the user, and no one else's", async (t) => {
  const { me, desktop } = await onTwoDevices()
  const other = await signup(api)
  expectEmpty(t, await post(me.token, '/api/auth/logout-all'), 'logout-all')
  await expectEnded(t, me.token, 'the token sent')
  await expectEnded(t, desktop, 'another token of the user')
  t.equal(await feedStatus(other.token), 200, "another user's token still works")
  t.equal(await feedStatus(await api.login(me.username, me.password)), 200, 'a new login works')
})

await t.test('logout-all is refused for the shared guest account, and ends nothing', async (t) => {
  const [first, second] = [await api.login('guest'), await api.login('guest')]
  expectError(t, await post(first, '/api/auth/logout-all'), 403, GUEST_UNCHANGEABLE, 'guest logout-all')
  t.equal(await feedStatus(first), 200, 'the guest who asked is still in')
  t.equal(await feedStatus(second), 200, 'and so is every other guest')
})

await t.test('a token signed before tokens carried an id is still logged out alone', async (t) => {
  const me = await signup(api)
  const [, payload] = me.token.split('.') as [string, string]
  const { jti, ...claims } = JSON.parse(Buffer.from(payload, 'base64url').toString()) as { jti: string; iat: number }
  t.type(jti, 'string', 'tokens carry an id now')
  const older = (iat: number) => signJwt({ alg: 'HS256', typ: 'JWT' }, { ...claims, iat }, TEST_SECRET)
  const [a, b] = [older(claims.iat - 1), older(claims.iat - 2)]
  t.equal(await feedStatus(a), 200, 'a token without an id works')
  t.equal((await post(a, '/api/auth/logout')).statusCode, 200)
  t.equal(await feedStatus(a), 401, 'it is logged out')
  t.equal(await feedStatus(b), 200, 'another such token is not')
  t.equal(await feedStatus(me.token), 200, 'nor is a token with an id')
})

await t.test('a logout holds across a restart', async (t) => {
  const first = await buildApiApp(t)
  const me = await signup(first)
  const desktop = await first.login(me.username, me.password)
  t.equal((await first.as(me.token, { method: 'POST', url: '/api/auth/logout' })).statusCode, 200)
  await first.app.close()
  const restarted = await buildApiApp(t, { dataDir: first.dataDir })
  const status = async (token: string) => (await restarted.as(token, { method: 'GET', url: '/api/feed' })).statusCode
  t.equal(await status(me.token), 401, 'the token logged out is still refused')
  t.equal(await status(desktop), 200, 'the other one still works')
})
