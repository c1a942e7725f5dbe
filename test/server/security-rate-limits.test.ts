import { setTimeout as sleep } from 'node:timers/promises'
import type { InjectOptions, LightMyRequestResponse } from 'fastify'
import t, { type Test } from 'tap'
import { MSG } from '../../server/errors.js'
import { parseConfig } from '../../server/config.js'
import { DEFAULT_RATE_LIMITS, type RateLimitPolicy } from '../../server/plugins/rate-limits.js'
import { buildSeededApp as buildTestApp } from '../helpers/seeded.js'
import { fileUpload, PNG } from '../helpers/images.js'

const TOO_MANY = { errors: [MSG.tooManyRequests] }
/** Loose enough that only the limit under test is ever met. */
const LOOSE = { max: 10_000, windowMs: 60_000 }
const loose = (policy: Partial<RateLimitPolicy>) => ({
  general: LOOSE,
  authPerAddress: LOOSE,
  authPerAccount: LOOSE,
  writesPerUser: LOOSE,
  uploadsPerUser: LOOSE,
  ...policy,
})

function expect429(t: Test, res: LightMyRequestResponse, what: string) {
  t.equal(res.statusCode, 429, `${what}: 429`)
  t.strictSame(res.json(), TOO_MANY, `${what}: { errors } body`)
  const retryAfter = Number(res.headers['retry-after'])
  t.ok(Number.isInteger(retryAfter) && retryAfter >= 1, `${what}: Retry-After in whole seconds (${res.headers['retry-after']})`)
}

const badLogin = (username: string, headers: Record<string, string> = {}, remoteAddress?: string): InjectOptions => ({
  method: 'POST',
  url: '/api/auth/login',
  payload: { username, password: 'wrong-password' },
  headers,
  ...(remoteAddress ? { remoteAddress } : {}),
})

t.test('rate limits are on unless RATE_LIMIT=false', async (t) => {
  t.equal(parseConfig({}).rateLimit, true)
  t.equal(parseConfig({ RATE_LIMIT: 'false' }).rateLimit, false)
  t.equal(parseConfig({}).trustProxy, false, 'X-Forwarded-For is not believed by default')
  t.strictSame(DEFAULT_RATE_LIMITS.authPerAddress, { max: 5, windowMs: 60_000 })
  t.strictSame(DEFAULT_RATE_LIMITS.authPerAccount, { max: 10, windowMs: 15 * 60_000 })
})

t.test('login, with the default limits: 5 a minute per address, the 6th is 429', async (t) => {
  const { app } = await buildTestApp(t, { config: { rateLimit: true } })
  for (let i = 1; i <= 5; i++) {
    const res = await app.inject(badLogin('guest'))
    t.equal(res.statusCode, 401, `attempt ${i} is judged on its password`)
  }
  expect429(t, await app.inject(badLogin('guest')), 'attempt 6')
  expect429(t, await app.inject(badLogin('maya.lin')), 'another username from the same address')
  const right = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { username: 'guest', password: 'guestpassword' } })
  t.equal(right.statusCode, 429, 'even the right password waits')
  t.ok(Number(right.headers['retry-after']) <= 60)
  const other = await app.inject(badLogin('guest', {}, '10.0.0.7'))
  t.equal(other.statusCode, 401, 'another address has its own budget')
  t.equal((await app.inject({ method: 'GET', url: '/api/posts' })).statusCode, 200, 'reads are not blocked by the login limit')
})

t.test('signup: 5 a minute per address, apart from login', async (t) => {
  const { app } = await buildTestApp(t, { config: { rateLimit: true } })
  const signup = (i: number) =>
    app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      payload: { username: `new_${i}`, password: 'password123', firstName: 'N', lastName: 'U', email: `n${i}@example.com` },
    })
  for (let i = 1; i <= 5; i++) t.equal((await signup(i)).statusCode, 201, `signup ${i}`)
  expect429(t, await signup(6), 'signup 6')
  t.equal((await app.inject(badLogin('guest'))).statusCode, 401, 'login keeps its own budget')
})

t.test('per account: 10 attempts in 15 minutes for one username, from any number of addresses', async (t) => {
  const { app } = await buildTestApp(t, { config: { rateLimit: true } })
  for (let i = 1; i <= 10; i++) {
    const res = await app.inject(badLogin('Maya.Lin', {}, `10.1.0.${i}`))
    t.equal(res.statusCode, 401, `attempt ${i} from 10.1.0.${i}`)
  }
  const res = await app.inject(badLogin('maya.lin', {}, '10.1.0.99'))
  expect429(t, res, 'attempt 11, same account in another case, from a fresh address')
  t.ok(Number(res.headers['retry-after']) > 60 && Number(res.headers['retry-after']) <= 900, 'Retry-After counts down the 15 minutes')
  t.equal((await app.inject(badLogin('guest', {}, '10.1.0.99'))).statusCode, 401, 'other accounts are not affected')
})

t.test('the limit, the limit plus one, and the reset once the window has passed', async (t) => {
  const windowMs = 1500
  const { app } = await buildTestApp(t, { config: { rateLimit: true }, options: { rateLimits: loose({ authPerAddress: { max: 3, windowMs } }) } })
  // Bodies that fail validation are cheap (no password hashing), so all four fit in the short window; they count all the same.
  const attempt = () => app.inject({ method: 'POST', url: '/api/auth/login', payload: {} })
  for (let i = 1; i <= 3; i++) t.equal((await attempt()).statusCode, 400, `attempt ${i} of 3 is judged`)
  const over = await attempt()
  expect429(t, over, 'attempt 4')
  t.equal(over.headers['x-ratelimit-limit'], '3')
  t.equal(over.headers['x-ratelimit-remaining'], '0')
  await sleep(windowMs + 50)
  t.equal((await attempt()).statusCode, 400, 'after the window a new attempt is judged again')
})

t.test('a spoofed X-Forwarded-For is ignored while proxy trust is off', async (t) => {
  const { app } = await buildTestApp(t, { config: { rateLimit: true, trustProxy: false } })
  for (let i = 1; i <= 5; i++) {
    const res = await app.inject(badLogin('guest', { 'x-forwarded-for': `203.0.113.${i}`, 'x-real-ip': `198.51.100.${i}` }))
    t.equal(res.statusCode, 401)
  }
  expect429(t, await app.inject(badLogin('guest', { 'x-forwarded-for': '203.0.113.200' })), 'a new forged address does not help')
})

t.test('with TRUST_PROXY set, the forwarded client address is the key', async (t) => {
  const { app } = await buildTestApp(t, { config: { rateLimit: true, trustProxy: true } })
  for (let i = 1; i <= 5; i++) t.equal((await app.inject(badLogin('guest', { 'x-forwarded-for': '203.0.113.1' }))).statusCode, 401)
  expect429(t, await app.inject(badLogin('guest', { 'x-forwarded-for': '203.0.113.1' })), 'the same client behind the proxy')
  t.equal((await app.inject(badLogin('guest', { 'x-forwarded-for': '203.0.113.2' }))).statusCode, 401, 'another client behind the proxy')
})

t.test('TRUST_PROXY=loopback keys on the address the proxy appended, not on what the client forged before it', async (t) => {
  const { app } = await buildTestApp(t, { config: { rateLimit: true, trustProxy: 'loopback' } })
  const from = (forged: string) => badLogin('guest', { 'x-forwarded-for': `${forged}, 203.0.113.7` }, '127.0.0.1')
  for (let i = 1; i <= 5; i++) t.equal((await app.inject(from(`198.51.100.${i}`))).statusCode, 401)
  expect429(t, await app.inject(from('198.51.100.99')), 'a fresh forged first hop does not help')
  t.comment('TRUST_PROXY=true would believe the first, forgeable hop: name the proxy (loopback, a CIDR) instead')
})

t.test('writes per user: the limit holds across addresses, and refused writes change nothing', async (t) => {
  const api = await buildTestApp(t, { config: { rateLimit: true }, options: { rateLimits: loose({ writesPerUser: { max: 4, windowMs: 60_000 } }) } })
  const token = await api.login('guest')
  const other = await api.login('maya.lin')
  const post = (auth: string, i: number, remoteAddress: string) =>
    api.as(auth, { method: 'POST', url: '/api/posts', payload: { content: `post ${i}` }, remoteAddress })
  for (let i = 1; i <= 4; i++) t.equal((await post(token, i, `10.2.0.${i}`)).statusCode, 201, `write ${i}`)
  expect429(t, await post(token, 5, '10.2.0.50'), 'write 5')
  const posts = (await api.app.inject({ method: 'GET', url: '/api/posts' })).json() as { posts: Array<{ content: string }> }
  t.notOk(posts.posts.some((p) => p.content === 'post 5'), 'the refused post was not written')
  t.equal((await post(other, 1, '10.2.0.50')).statusCode, 201, 'another user writes on')
  t.equal((await api.as(token, { method: 'GET', url: '/api/feed' })).statusCode, 200, 'reads are not writes')
})

t.test('uploads per user', async (t) => {
  const api = await buildTestApp(t, { config: { rateLimit: true }, options: { rateLimits: loose({ uploadsPerUser: { max: 2, windowMs: 60_000 } }) } })
  const token = await api.login('guest')
  const upload = () => api.as(token, { method: 'POST', url: '/api/media', ...fileUpload(PNG) })
  t.equal((await upload()).statusCode, 201)
  t.equal((await upload()).statusCode, 201)
  expect429(t, await upload(), 'upload 3')
  t.equal((await api.as(token, { method: 'POST', url: '/api/posts', payload: { content: 'text' } })).statusCode, 201, 'other writes go on')
})

t.test('the general limit counts every request from an address, bad tokens included', async (t) => {
  const { app } = await buildTestApp(t, { config: { rateLimit: true }, options: { rateLimits: loose({ general: { max: 5, windowMs: 60_000 } }) } })
  for (let i = 1; i <= 3; i++) t.equal((await app.inject({ method: 'GET', url: '/api/posts' })).statusCode, 200)
  const bad = { method: 'POST', url: '/api/posts/like/x', headers: { authorization: 'garbage' } } as const
  t.equal((await app.inject(bad)).statusCode, 401)
  t.equal((await app.inject(bad)).statusCode, 401)
  expect429(t, await app.inject(bad), 'request 6, with a bad token')
  expect429(t, await app.inject({ method: 'GET', url: '/no/such/page' }), 'unknown routes count too')
})

t.test('RATE_LIMIT=false turns every limit off', async (t) => {
  const { app } = await buildTestApp(t, { config: { rateLimit: false } })
  for (let i = 1; i <= 7; i++) t.equal((await app.inject(badLogin('guest'))).statusCode, 401, `attempt ${i}, past the default 5`)
})
