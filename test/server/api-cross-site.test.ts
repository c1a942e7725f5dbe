import type { InjectOptions } from 'fastify'
import t, { type Test } from 'tap'
import type { Config } from '../../server/config.js'
import type { RateLimitPolicy } from '../../server/plugins/rate-limits.js'
import { buildApiApp, expectError, freshUsername, signup } from '../helpers/api.js'
import type { TestApp } from '../helpers/app.js'
import { loose } from '../helpers/rate-limits.js'

/** Writes from other sites' pages are refused (docs/api-contract.md §1), before anything else happens. */
const CROSS_SITE = 'Cross-site requests are not allowed.'
const EVIL = 'https://evil.example'

/** A signup as any page can send it: a simple request, with its JSON as text/plain. */
const textSignup = (username: string, headers: Record<string, string>): InjectOptions => ({
  method: 'POST',
  url: '/api/auth/signup',
  headers: { 'content-type': 'text/plain;charset=UTF-8', ...headers },
  payload: JSON.stringify({
    username,
    password: 'pw-1234-secret',
    email: `${username}@example.com`,
    firstName: 'Cross',
    lastName: 'Site',
  }),
})
const textLogin = (password: string, headers: Record<string, string>): InjectOptions => ({
  method: 'POST',
  url: '/api/auth/login',
  headers: { 'content-type': 'text/plain;charset=UTF-8', ...headers },
  payload: JSON.stringify({ username: 'guest', password }),
})

const exists = async ({ app }: TestApp, username: string) =>
  (await app.inject({ method: 'GET', url: `/api/users/${username}` })).statusCode === 200

async function refusesSignup(t: Test, api: TestApp, headers: Record<string, string>, what: string) {
  const username = freshUsername('x')
  expectError(t, await api.app.inject(textSignup(username, headers)), 403, CROSS_SITE, what)
  t.notOk(await exists(api, username), `${what}: no account was made`)
}

async function allowsSignup(t: Test, api: TestApp, headers: Record<string, string>, what: string) {
  const username = freshUsername('x')
  const res = await api.app.inject(textSignup(username, headers))
  t.equal(res.statusCode, 201, `${what}: signed up${res.statusCode === 201 ? '' : `: ${res.body}`}`)
}

await t.test('a write from another site is refused, however the browser says so', async (t) => {
  const api = await buildApiApp(t)
  await refusesSignup(t, api, { origin: EVIL }, 'an Origin of another site')
  await refusesSignup(t, api, { origin: EVIL, 'sec-fetch-site': 'cross-site' }, 'both headers')
  await refusesSignup(t, api, { 'sec-fetch-site': 'cross-site' }, 'Sec-Fetch-Site alone')
  await refusesSignup(t, api, { origin: 'http://localhost', 'sec-fetch-site': 'same-site' }, 'a sibling site')
  await refusesSignup(t, api, { origin: 'null' }, 'an opaque origin (a sandboxed frame, a file)')
  await refusesSignup(t, api, { origin: 'http://localhost:8080' }, 'the same host on another port')
  await refusesSignup(t, api, { origin: 'http://localhost.evil.example' }, 'a host that only begins alike')
})

await t.test('same-origin writes, and writes from no page at all, go through', async (t) => {
  const api = await buildApiApp(t)
  await allowsSignup(t, api, {}, 'no Origin (curl, a native app)')
  await allowsSignup(t, api, { host: 'chirp.example', origin: 'https://chirp.example' }, 'the same host')
  await allowsSignup(
    t,
    api,
    { host: 'chirp.example:443', origin: 'https://chirp.example' },
    'its default port spelled out',
  )
  await allowsSignup(
    t,
    api,
    { host: 'Chirp.Example:8443', origin: 'https://chirp.example:8443' },
    'another port, any case',
  )
  await allowsSignup(
    t,
    api,
    { host: 'chirp:3000', origin: 'https://chirp.example', 'sec-fetch-site': 'same-origin' },
    "the browser's own word, whatever host a proxy passed on",
  )
  await allowsSignup(t, api, { 'sec-fetch-site': 'none' }, 'a request the user made themselves')
})

await t.test('behind a trusted proxy, the host it forwards is the one compared', async (t) => {
  const forwarded = { host: 'chirp:3000', 'x-forwarded-host': 'chirp.example', origin: 'https://chirp.example' }
  const trusting = await buildApiApp(t, { config: { trustProxy: 1 } })
  await allowsSignup(t, trusting, forwarded, 'X-Forwarded-Host from the trusted proxy')
  const untrusting = await buildApiApp(t)
  await refusesSignup(t, untrusting, forwarded, 'X-Forwarded-Host when no proxy is trusted')
})

await t.test('ALLOWED_ORIGINS lets the pages of the sites it lists write, and no others', async (t) => {
  const config: Partial<Config> = { allowedOrigins: ['https://mock-client.example', 'http://127.0.0.1:5173'] }
  const api = await buildApiApp(t, { config })
  const from = (origin: string) => ({ origin, 'sec-fetch-site': 'cross-site' })
  await allowsSignup(t, api, from('https://mock-client.example'), 'a listed origin')
  await allowsSignup(t, api, from('http://127.0.0.1:5173'), 'another listed origin')
  await refusesSignup(t, api, from('http://mock-client.example'), 'a listed host under another scheme')
  await refusesSignup(t, api, from(EVIL), 'an origin not listed')
})

await t.test('every method that may change something is covered, and reads are not', async (t) => {
  const api = await buildApiApp(t)
  const me = await signup(api)
  const headers = { origin: EVIL }
  const everyPost = async () =>
    (await api.app.inject({ method: 'GET', url: '/api/posts', headers })).json<{ posts: { _id: string }[] }>().posts
  const before = await everyPost()
  const postId = before[0]?._id as string
  const writes: [InjectOptions['method'], string, object?][] = [
    ['POST', '/api/posts', { content: 'from elsewhere' }],
    ['POST', `/api/posts/like/${postId}`],
    ['DELETE', `/api/posts/${postId}`],
    ['POST', '/api/events/ticket'],
    ['POST', '/api/auth/logout'],
    ['PUT', '/api/users/edit', { bio: 'x' }],
    ['PATCH', '/api/posts'],
  ]
  for (const [method, url, payload] of writes) {
    const res = await api.as(me.token, { method, url, headers, ...(payload ? { payload } : {}) })
    expectError(t, res, 403, CROSS_SITE, `${method} ${url}`)
  }
  t.equal((await api.as(me.token, { method: 'GET', url: '/api/feed' })).statusCode, 200, 'the token still works')
  t.strictSame(await everyPost(), before, 'no post was made, liked or deleted, and a cross-site read is answered')
  t.equal((await api.app.inject({ method: 'HEAD', url: '/api/posts', headers })).statusCode, 200, 'a HEAD is a read')
})

await t.test('a refused write counts against no limit: not the address, not the login budget', async (t) => {
  const policy: Partial<RateLimitPolicy> = {
    general: { max: 8, windowMs: 60_000 },
    signupPerAddress: { max: 1, windowMs: 60_000 },
    loginFailuresPerAddress: { max: 2, windowMs: 60_000 },
    loginFailuresPerAddressAndAccount: { max: 2, windowMs: 60_000 },
  }
  const api = await buildApiApp(t, { config: { rateLimit: true }, options: { rateLimits: loose(policy) } })
  for (let i = 0; i < 10; i++) {
    expectError(t, await api.app.inject(textLogin('wrong-password', { origin: EVIL })), 403, CROSS_SITE, `login ${i}`)
    expectError(
      t,
      await api.app.inject(textSignup(freshUsername('x'), { origin: EVIL })),
      403,
      CROSS_SITE,
      `signup ${i}`,
    )
  }
  const res = await api.app.inject(textLogin('guestpassword', {}))
  t.equal(res.statusCode, 200, "the visitor's Login as a Guest still works")
  await allowsSignup(t, api, {}, "and so does the visitor's own signup")
  const wrong = await api.app.inject(textLogin('wrong-password', {}))
  t.equal(wrong.statusCode, 401, 'a wrong password of their own is judged, not refused: the budget was untouched')
})
