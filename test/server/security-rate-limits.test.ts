import { setTimeout as sleep } from 'node:timers/promises'
import type { InjectOptions } from 'fastify'
import t from 'tap'
import { parseConfig } from '../../server/config.js'
import { loginDelayMs } from '../../server/plugins/login-limits.js'
import { DEFAULT_RATE_LIMITS, perInstanceLimitsWarning } from '../../server/plugins/rate-limits.js'
import { buildSeededApp as buildTestApp } from '../helpers/seeded.js'
import { fileUpload, PNG } from '../helpers/images.js'
import { badLogin, expect429, goodLogin, loose } from '../helpers/rate-limits.js'

await t.test('rate limits are on unless RATE_LIMIT=false', async (t) => {
  t.equal(parseConfig({}).rateLimit, true)
  t.equal(parseConfig({ RATE_LIMIT: 'false' }).rateLimit, false)
  t.equal(parseConfig({}).trustProxy, false, 'X-Forwarded-For is not believed by default')
  t.strictSame(DEFAULT_RATE_LIMITS.signupPerAddress, { max: 5, windowMs: 60_000 })
  t.strictSame(DEFAULT_RATE_LIMITS.loginFailuresPerAddressAndAccount, { max: 10, windowMs: 15 * 60_000 })
  t.strictSame(DEFAULT_RATE_LIMITS.loginFailuresPerAddress, { max: 30, windowMs: 15 * 60_000 })
})

await t.test('successful logins never count: the guest button works for everyone, all day', async (t) => {
  const { app } = await buildTestApp(t, { config: { rateLimit: true } })
  for (let i = 1; i <= 40; i++) {
    const res = await app.inject(goodLogin('guest', 'guestpassword', i % 2 === 0 ? '10.9.0.1' : undefined))
    if (res.statusCode !== 200) t.fail(`guest login ${i} answered ${res.statusCode}`)
  }
  t.equal((await app.inject(goodLogin('guest', 'guestpassword'))).statusCode, 200, 'the 41st guest login still works')
})

await t.test('failed logins: 10 in 15 minutes per address and username, then 429 for that pair only', async (t) => {
  const { app } = await buildTestApp(t, { config: { rateLimit: true } })
  for (let i = 1; i <= 10; i++)
    t.equal((await app.inject(badLogin('Maya.Lin'))).statusCode, 401, `attempt ${i} is judged on its password`)
  const res = await app.inject(badLogin('maya.lin'))
  expect429(t, res, 'attempt 11, the same account in another case')
  t.ok(
    Number(res.headers['retry-after']) > 60 && Number(res.headers['retry-after']) <= 900,
    'Retry-After counts down the 15 minutes',
  )
  t.equal(
    (await app.inject(goodLogin('maya.lin', 'mayapassword'))).statusCode,
    429,
    'from that address, even the right password waits',
  )
  t.equal((await app.inject(badLogin('guest'))).statusCode, 401, 'other accounts from the same address are judged')
  t.equal(
    (await app.inject(goodLogin('maya.lin', 'mayapassword', '10.1.0.99'))).statusCode,
    200,
    'the owner, elsewhere, is never locked out',
  )
  t.equal(
    (await app.inject({ method: 'GET', url: '/api/posts' })).statusCode,
    200,
    'reads are not blocked by the login limit',
  )
})

await t.test('failed logins per address, whatever the username, stop one place trying many accounts', async (t) => {
  const { app } = await buildTestApp(t, {
    config: { rateLimit: true },
    options: { rateLimits: loose({ loginFailuresPerAddress: { max: 3, windowMs: 60_000 } }) },
  })
  for (const username of ['guest', 'maya.lin', 'nobody_here'])
    t.match((await app.inject(badLogin(username))).statusCode, /^40[14]$/)
  expect429(t, await app.inject(badLogin('theo_park')), 'a fourth account')
  t.equal(
    (await app.inject(badLogin('theo_park', {}, '10.0.0.7'))).statusCode,
    401,
    'another address has its own budget',
  )
  const validation = await app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: {},
    remoteAddress: '10.0.0.8',
  })
  t.equal(validation.statusCode, 400, 'a body that fails validation is not a guess...')
  for (let i = 0; i < 5; i++)
    await app.inject({ method: 'POST', url: '/api/auth/login', payload: {}, remoteAddress: '10.0.0.8' })
  t.equal((await app.inject(badLogin('guest', {}, '10.0.0.8'))).statusCode, 401, '...and is not counted as one')
})

await t.test(
  'guessing one account from many addresses slows its logins down, and never refuses the owner',
  async (t) => {
    const waits: number[] = []
    const slowdown = { max: 3, windowMs: 60_000, firstDelayMs: 100, maxDelayMs: 350 }
    const { app } = await buildTestApp(t, {
      config: { rateLimit: true },
      options: { rateLimits: loose({ loginSlowdownPerAccount: slowdown }), sleep: async (ms) => void waits.push(ms) },
    })
    for (let i = 1; i <= 6; i++)
      t.equal(
        (await app.inject(badLogin('noah_kim', {}, `10.3.0.${i}`))).statusCode,
        401,
        `guess ${i} from 10.3.0.${i}`,
      )
    t.strictSame(waits, [100, 200, 350], 'no wait for the first 3, then doubling up to the ceiling')
    waits.length = 0
    t.equal((await app.inject(goodLogin('noah_kim', 'noahpassword', '10.3.0.99'))).statusCode, 200, 'the owner gets in')
    t.strictSame(waits, [350], 'after the same wait')
    t.equal((await app.inject(goodLogin('guest', 'guestpassword', '10.3.0.99'))).statusCode, 200)
    t.strictSame(waits, [350], 'other accounts do not wait')
  },
)

await t.test('loginDelayMs: none up to the max, then doubling, never past the ceiling', async (t) => {
  const slowdown = DEFAULT_RATE_LIMITS.loginSlowdownPerAccount
  t.equal(loginDelayMs(0, slowdown), 0)
  t.equal(loginDelayMs(9, slowdown), 0)
  t.equal(loginDelayMs(10, slowdown), 1_000)
  t.equal(loginDelayMs(11, slowdown), 2_000)
  t.equal(loginDelayMs(13, slowdown), 8_000)
  t.equal(loginDelayMs(14, slowdown), 10_000)
  t.equal(loginDelayMs(1_000_000, slowdown), 10_000)
})

await t.test('a burst of guesses sent at once gets no more tries than the limit', async (t) => {
  const { app } = await buildTestApp(t, {
    config: { rateLimit: true },
    options: { rateLimits: loose({ loginFailuresPerAddressAndAccount: { max: 3, windowMs: 60_000 } }) },
  })
  const answers = await Promise.all(Array.from({ length: 12 }, () => app.inject(badLogin('lucia.rossi'))))
  const statuses = answers.map((res) => res.statusCode).sort()
  t.strictSame(statuses, [401, 401, 401, ...Array<number>(9).fill(429)], '3 judged, 9 refused')
})

await t.test('signup: 5 a minute per address, every attempt counting, apart from login', async (t) => {
  const { app } = await buildTestApp(t, { config: { rateLimit: true } })
  const signup = (i: number) =>
    app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      payload: {
        username: `new_${i}`,
        password: 'password123',
        firstName: 'N',
        lastName: 'U',
        email: `n${i}@example.com`,
      },
    })
  for (let i = 1; i <= 5; i++) t.equal((await signup(i)).statusCode, 201, `signup ${i}`)
  expect429(t, await signup(6), 'signup 6')
  t.equal((await app.inject(badLogin('guest'))).statusCode, 401, 'login keeps its own budget')
})

await t.test('the limit, the limit plus one, and the reset once the window has passed', async (t) => {
  const windowMs = 1500
  const { app } = await buildTestApp(t, {
    config: { rateLimit: true },
    options: { rateLimits: loose({ signupPerAddress: { max: 3, windowMs } }) },
  })
  // Bodies that fail validation are cheap (no password hashing), so all four fit in the short window; they count all the same.
  const attempt = () => app.inject({ method: 'POST', url: '/api/auth/signup', payload: {} })
  for (let i = 1; i <= 3; i++) t.equal((await attempt()).statusCode, 400, `attempt ${i} of 3 is judged`)
  const over = await attempt()
  expect429(t, over, 'attempt 4')
  t.equal(over.headers['x-ratelimit-limit'], '3')
  t.equal(over.headers['x-ratelimit-remaining'], '0')
  await sleep(windowMs + 50)
  t.equal((await attempt()).statusCode, 400, 'after the window a new attempt is judged again')
})

await t.test('a trailing slash or a text/plain body is the same signup and the same login to the limits', async (t) => {
  const policy = loose({
    signupPerAddress: { max: 3, windowMs: 60_000 },
    loginFailuresPerAddressAndAccount: { max: 3, windowMs: 60_000 },
  })
  const { app } = await buildTestApp(t, { config: { rateLimit: true }, options: { rateLimits: policy } })
  const text = { 'content-type': 'text/plain;charset=UTF-8' }
  const signup = (url: string, headers = {}) =>
    app.inject({ method: 'POST', url, payload: '{}', headers: { 'content-type': 'application/json', ...headers } })
  t.equal((await signup('/api/auth/signup')).statusCode, 400, 'signup 1')
  t.equal((await signup('/api/auth/signup/')).statusCode, 400, 'signup 2, with a slash')
  t.equal((await signup('/api/auth/signup', text)).statusCode, 400, 'signup 3, as text')
  expect429(t, await signup('/api/auth/signup/', text), 'signup 4, both')

  const wrong = JSON.stringify({ username: 'maya.lin', password: 'wrong-password' })
  const login = (url: string, headers = {}) =>
    app.inject({ method: 'POST', url, payload: wrong, headers: { 'content-type': 'application/json', ...headers } })
  t.equal((await login('/api/auth/login')).statusCode, 401, 'failed login 1')
  t.equal((await login('/api/auth/login/')).statusCode, 401, 'failed login 2, with a slash')
  t.equal((await login('/api/auth/login', text)).statusCode, 401, 'failed login 3, as text')
  expect429(t, await login('/api/auth/login/', text), 'login 4, both')
})

const perAddress = loose({ loginFailuresPerAddress: { max: 5, windowMs: 60_000 } })

await t.test('a spoofed X-Forwarded-For is ignored while proxy trust is off', async (t) => {
  const { app } = await buildTestApp(t, {
    config: { rateLimit: true, trustProxy: false },
    options: { rateLimits: perAddress },
  })
  for (let i = 1; i <= 5; i++) {
    const res = await app.inject(
      badLogin('guest', { 'x-forwarded-for': `203.0.113.${i}`, 'x-real-ip': `198.51.100.${i}` }),
    )
    t.equal(res.statusCode, 401)
  }
  expect429(
    t,
    await app.inject(badLogin('guest', { 'x-forwarded-for': '203.0.113.200' })),
    'a new forged address does not help',
  )
})

await t.test('with TRUST_PROXY set, the forwarded client address is the key', async (t) => {
  const { app } = await buildTestApp(t, {
    config: { rateLimit: true, trustProxy: true },
    options: { rateLimits: perAddress },
  })
  for (let i = 1; i <= 5; i++)
    t.equal((await app.inject(badLogin('guest', { 'x-forwarded-for': '203.0.113.1' }))).statusCode, 401)
  expect429(
    t,
    await app.inject(badLogin('guest', { 'x-forwarded-for': '203.0.113.1' })),
    'the same client behind the proxy',
  )
  t.equal(
    (await app.inject(badLogin('guest', { 'x-forwarded-for': '203.0.113.2' }))).statusCode,
    401,
    'another client behind the proxy',
  )
})

await t.test(
  'TRUST_PROXY=loopback keys on the address the proxy appended, not on what the client forged before it',
  async (t) => {
    const { app } = await buildTestApp(t, {
      config: { rateLimit: true, trustProxy: 'loopback' },
      options: { rateLimits: perAddress },
    })
    const from = (forged: string) => badLogin('guest', { 'x-forwarded-for': `${forged}, 203.0.113.7` }, '127.0.0.1')
    for (let i = 1; i <= 5; i++) t.equal((await app.inject(from(`198.51.100.${i}`))).statusCode, 401)
    expect429(t, await app.inject(from('198.51.100.99')), 'a fresh forged first hop does not help')
    t.comment('TRUST_PROXY=true would believe the first, forgeable hop: name the proxy (loopback, a CIDR) instead')
  },
)

await t.test('writes per user: the limit holds across addresses, and refused writes change nothing', async (t) => {
  const api = await buildTestApp(t, {
    config: { rateLimit: true },
    options: { rateLimits: loose({ writesPerUser: { max: 4, windowMs: 60_000 } }) },
  })
  const token = await api.login('guest')
  const other = await api.login('maya.lin')
  const post = (auth: string, i: number, remoteAddress: string) =>
    api.as(auth, { method: 'POST', url: '/api/posts', payload: { content: `post ${i}` }, remoteAddress })
  for (let i = 1; i <= 4; i++) t.equal((await post(token, i, `10.2.0.${i}`)).statusCode, 201, `write ${i}`)
  expect429(t, await post(token, 5, '10.2.0.50'), 'write 5')
  const posts = (await api.app.inject({ method: 'GET', url: '/api/posts' })).json() as {
    posts: Array<{ content: string }>
  }
  t.notOk(
    posts.posts.some((p) => p.content === 'post 5'),
    'the refused post was not written',
  )
  t.equal((await post(other, 1, '10.2.0.50')).statusCode, 201, 'another user writes on')
  t.equal((await api.as(token, { method: 'GET', url: '/api/feed' })).statusCode, 200, 'reads are not writes')
})

await t.test('uploads per user', async (t) => {
  const api = await buildTestApp(t, {
    config: { rateLimit: true },
    options: { rateLimits: loose({ uploadsPerUser: { max: 2, windowMs: 60_000 } }) },
  })
  const token = await api.login('guest')
  const upload = () => api.as(token, { method: 'POST', url: '/api/media', ...fileUpload(PNG) })
  t.equal((await upload()).statusCode, 201)
  t.equal((await upload()).statusCode, 201)
  expect429(t, await upload(), 'upload 3')
  for (const url of ['/api/v1/media', '/api/v2/media']) {
    const { payload, headers } = fileUpload(PNG)
    const res = await api.app.inject({
      method: 'POST',
      url,
      payload,
      headers: { ...headers, authorization: `Bearer ${token}` },
    })
    t.equal(res.statusCode, 429, `the Mastodon API's uploads count with Chirp's: ${url}`)
  }
  t.equal(
    (await api.as(token, { method: 'POST', url: '/api/posts', payload: { content: 'text' } })).statusCode,
    201,
    'other writes go on',
  )
})

await t.test('the general limit counts every request from an address, bad tokens included', async (t) => {
  const { app } = await buildTestApp(t, {
    config: { rateLimit: true },
    options: { rateLimits: loose({ general: { max: 5, windowMs: 60_000 } }) },
  })
  for (let i = 1; i <= 3; i++) t.equal((await app.inject({ method: 'GET', url: '/api/posts' })).statusCode, 200)
  const bad: InjectOptions = { method: 'POST', url: '/api/posts/like/x', headers: { authorization: 'garbage' } }
  t.equal((await app.inject(bad)).statusCode, 401)
  t.equal((await app.inject(bad)).statusCode, 401)
  expect429(t, await app.inject(bad), 'request 6, with a bad token')
  expect429(t, await app.inject({ method: 'GET', url: '/no/such/page' }), 'unknown routes count too')
})

await t.test('RATE_LIMIT=false turns every limit off', async (t) => {
  const { app } = await buildTestApp(t, { config: { rateLimit: false } })
  for (let i = 1; i <= 12; i++)
    t.equal((await app.inject(badLogin('guest'))).statusCode, 401, `attempt ${i}, past the default 10`)
})

await t.test(
  'the start warns that limits are counted per instance when a database is shared and Redis is not',
  async (t) => {
    const postgres = 'postgres://chirp@127.0.0.1:5432/chirp'
    t.match(
      perInstanceLimitsWarning({ rateLimit: true, databaseUrl: postgres, redisUrl: undefined }),
      /rate limits are counted per instance/,
    )
    t.equal(
      perInstanceLimitsWarning({ rateLimit: true, databaseUrl: postgres, redisUrl: 'redis://127.0.0.1:6379' }),
      undefined,
    )
    t.equal(
      perInstanceLimitsWarning({ rateLimit: true, redisUrl: undefined }),
      undefined,
      'one embedded store is one instance',
    )
    t.equal(
      perInstanceLimitsWarning({ rateLimit: false, databaseUrl: postgres, redisUrl: undefined }),
      undefined,
      'no limits, nothing to share',
    )
  },
)
