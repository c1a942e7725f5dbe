import { Value } from '@sinclair/typebox/value'
import t from 'tap'
import { PageQuerySchema, linkHeader, pageWindow } from '../../server/mastodon/paging.js'
import {
  CredentialAccountSchema,
  InstanceV1Schema,
  InstanceV2Schema,
  MarkersSchema,
  PreferencesSchema,
} from '../../server/mastodon/schemas.js'
import { buildApiApp, signup } from '../helpers/api.js'
import { bearer, passwordToken, registerApp } from '../helpers/mastodon.js'
import { loose } from '../helpers/rate-limits.js'

/**
 * What a Mastodon app reads as it starts (DECISIONS §13): the instance, the signed-in account, preferences,
 * custom emoji and markers; the conventions of the whole API (errors, CORS, paging). On whichever store runs.
 */
interface Reply {
  [field: string]: unknown
  error?: string
}

const api = await buildApiApp(t, { config: { publicUrl: 'https://chirp.example' } })
const app = await registerApp(api)
const get = (url: string, token?: string) =>
  api.app.inject({ method: 'GET', url, ...(token ? { headers: bearer(token) } : {}) })

await t.test('the instance, version 1, with and without a trailing slash', async (t) => {
  for (const url of ['/api/v1/instance', '/api/v1/instance/']) {
    const res = await get(url)
    t.equal(res.statusCode, 200, url)
    const body = res.json<Record<string, unknown>>()
    t.ok(Value.Check(InstanceV1Schema, body), 'an Instance (v1)')
    t.match(body, {
      uri: 'chirp.example',
      urls: { streaming_api: 'wss://chirp.example' },
      version: /^4\.3\.0 \(compatible; Chirp \d+\.\d+\.\d+\)$/,
      registrations: true,
    })
    t.match(body, { stats: { user_count: Number, status_count: Number, domain_count: 0 } })
  }
  const { stats } = (await get('/api/v1/instance')).json<{ stats: { user_count: number } }>()
  await signup(api)
  t.equal(
    (await get('/api/v1/instance')).json<typeof stats & { stats: typeof stats }>().stats.user_count,
    stats.user_count + 1,
    'a signup counts',
  )
})

await t.test('the instance, version 2: streaming address, API version and limits', async (t) => {
  const res = await get('/api/v2/instance')
  t.equal(res.statusCode, 200)
  const body = res.json<Record<string, unknown>>()
  t.ok(Value.Check(InstanceV2Schema, body), 'an Instance (v2)')
  t.match(body, {
    domain: 'chirp.example',
    configuration: {
      urls: { streaming: 'wss://chirp.example' },
      statuses: { max_characters: 500, max_media_attachments: 4 },
    },
    api_versions: { mastodon: 2 },
    registrations: { enabled: true, approval_required: false },
  })
  t.equal((await get('/api/v2/instance/')).statusCode, 200, 'with a trailing slash')
})

await t.test('registration as the instance tells it follows REGISTRATION', async (t) => {
  const closed = await buildApiApp(t, { config: { registration: 'approval' } })
  const v1 = (await closed.app.inject({ method: 'GET', url: '/api/v1/instance' })).json<Reply>()
  t.match(v1, { registrations: true, approval_required: true })
  const v2 = (await closed.app.inject({ method: 'GET', url: '/api/v2/instance' })).json<Reply>()
  t.match(v2, { registrations: { enabled: true, approval_required: true } })
})

await t.test('verify_credentials: the whole account, with its source', async (t) => {
  const me = await signup(api)
  await api.as(me.token, {
    method: 'POST',
    url: '/api/users/edit',
    payload: {
      bio: 'Hello <there>\n\nsecond',
      website: 'https://me.example',
      defaultVisibility: 'followers',
      displayName: 'Me Myself',
    },
  })
  const token = await passwordToken(api, app, me.username, me.password)
  const res = await get('/api/v1/accounts/verify_credentials', token)
  t.equal(res.statusCode, 200)
  const body = res.json<Record<string, unknown>>()
  t.ok(Value.Check(CredentialAccountSchema, body), 'a CredentialAccount')
  t.match(body, {
    id: me.user._id,
    username: me.username,
    acct: me.username,
    display_name: 'Me Myself',
    note: '<p>Hello &lt;there&gt;</p><p>second</p>',
    url: `https://chirp.example/profile/${me.username}`,
    locked: false,
    emojis: [],
    statuses_count: 0,
    followers_count: 0,
    following_count: 0,
    source: {
      note: 'Hello <there>\n\nsecond',
      privacy: 'private',
      fields: [{ name: 'Website', value: 'https://me.example' }],
    },
    role: { name: '' },
  })
  t.match(body.fields, [{ name: 'Website', value: /href="https:\/\/me\.example"/ }])
  t.match(body.avatar, /^https:\/\//, 'an absolute address')
  t.notOk('email' in body, 'no e-mail address')
})

await t.test("preferences: the default audience by Mastodon's name", async (t) => {
  const me = await signup(api)
  const token = await passwordToken(api, app, me.username, me.password)
  const res = await get('/api/v1/preferences', token)
  t.equal(res.statusCode, 200)
  t.ok(Value.Check(PreferencesSchema, res.json()))
  t.equal(res.json<Reply>()['posting:default:visibility'], 'public')
})

await t.test('custom emoji: none yet, for anyone', async (t) => {
  const res = await get('/api/v1/custom_emojis')
  t.equal(res.statusCode, 200)
  t.strictSame(res.json(), [])
})

await t.test('markers: set by JSON or a form, each version one more, shared by every app', async (t) => {
  const me = await signup(api)
  const token = await passwordToken(api, app, me.username, me.password)
  t.strictSame((await get('/api/v1/markers?timeline[]=home', token)).json(), {}, 'none at first')
  const set = await api.app.inject({
    method: 'POST',
    url: '/api/v1/markers',
    headers: bearer(token),
    payload: { home: { last_read_id: '103' }, notifications: { last_read_id: '7' } },
  })
  t.equal(set.statusCode, 200)
  t.ok(Value.Check(MarkersSchema, set.json()))
  t.match(set.json(), { home: { last_read_id: '103', version: 1 }, notifications: { last_read_id: '7', version: 1 } })
  const form = await api.app.inject({
    method: 'POST',
    url: '/api/v1/markers',
    headers: { ...bearer(token), 'content-type': 'application/x-www-form-urlencoded' },
    payload: 'home[last_read_id]=110',
  })
  t.match(form.json(), { home: { last_read_id: '110', version: 2 } })
  t.notOk('notifications' in form.json<Reply>(), 'only what was set')
  const other = await passwordToken(api, await registerApp(api), me.username, me.password)
  const both = await get('/api/v1/markers?timeline[]=home&timeline[]=notifications', other)
  t.match(both.json(), { home: { last_read_id: '110', version: 2 }, notifications: { last_read_id: '7', version: 1 } })
  const one = await get('/api/v1/markers?timeline[]=notifications', other)
  t.strictSame(Object.keys(one.json<Reply>()), ['notifications'])
  const stranger = await signup(api)
  const theirs = await passwordToken(api, app, stranger.username, stranger.password)
  t.strictSame((await get('/api/v1/markers', theirs)).json(), {}, "nobody else's")
})

await t.test("errors are Mastodon's: { error } with its status, on unknown paths too", async (t) => {
  const unknown = await get('/api/v1/no-such-thing')
  t.equal(unknown.statusCode, 404)
  t.strictSame(unknown.json(), { error: 'Record not found' })
  const signedOut = await get('/api/v1/accounts/verify_credentials')
  t.strictSame(signedOut.json(), { error: 'The access token is invalid' })
  const bad = await api.app.inject({
    method: 'POST',
    url: '/api/v1/markers',
    headers: bearer(await api.login('noah_kim')),
    payload: { home: { last_read_id: '' } },
  })
  t.equal(bad.statusCode, 422)
  t.match(bad.json(), { error: /^Validation failed/ })
  const chirp = await get('/api/users/no-such-person-here')
  t.ok('errors' in chirp.json<Reply>(), "Chirp's own API keeps its shape")
})

await t.test('CORS on the Mastodon paths only: any origin, Authorization allowed, Link exposed', async (t) => {
  const preflight = await api.app.inject({
    method: 'OPTIONS',
    url: '/api/v1/accounts/verify_credentials',
    headers: {
      origin: 'https://web.example',
      'access-control-request-method': 'GET',
      'access-control-request-headers': 'authorization',
    },
  })
  t.equal(preflight.statusCode, 204)
  t.equal(preflight.headers['access-control-allow-origin'], '*')
  t.match(preflight.headers['access-control-allow-headers'], /authorization/i)
  t.match(preflight.headers['access-control-allow-methods'], /POST/)
  const plain = await api.app.inject({
    method: 'GET',
    url: '/api/v1/instance',
    headers: { origin: 'https://web.example' },
  })
  t.equal(plain.headers['access-control-allow-origin'], '*')
  t.match(plain.headers['access-control-expose-headers'], /Link/)
  const refused = await api.app.inject({
    method: 'GET',
    url: '/api/v1/preferences',
    headers: { origin: 'https://web.example' },
  })
  t.equal(refused.statusCode, 401)
  t.equal(refused.headers['access-control-allow-origin'], '*', 'a refusal is readable by the page too')
  const write = await api.app.inject({
    method: 'POST',
    url: '/api/v1/apps',
    headers: { origin: 'https://web.example', 'sec-fetch-site': 'cross-site' },
    payload: { client_name: 'Web app', redirect_uris: 'https://web.example/cb' },
  })
  t.equal(write.statusCode, 200, 'a web app on another site may register')
  const own = await api.app.inject({ method: 'GET', url: '/api/health', headers: { origin: 'https://web.example' } })
  t.equal(own.headers['access-control-allow-origin'], undefined, "none on Chirp's own API")
  const page = await api.app.inject({
    method: 'POST',
    url: '/oauth/authorize',
    headers: { origin: 'https://web.example', 'sec-fetch-site': 'cross-site' },
    payload: { client_id: 'x', redirect_uri: 'https://web.example/cb' },
  })
  t.equal(page.statusCode, 403, 'the sign-in form refuses other sites')
})

await t.test('a request refused by the rate limits carries CORS too', async (t) => {
  const limited = await buildApiApp(t, {
    config: { rateLimit: true },
    options: { rateLimits: loose({ general: { max: 1, windowMs: 60_000 } }) },
  })
  const ask = () =>
    limited.app.inject({ method: 'GET', url: '/api/v1/instance', headers: { origin: 'https://web.example' } })
  t.equal((await ask()).statusCode, 200)
  const refused = await ask()
  t.equal(refused.statusCode, 429)
  t.strictSame(refused.json(), { error: 'Too many requests' })
  t.equal(refused.headers['access-control-allow-origin'], '*')
  t.match(refused.headers['access-control-expose-headers'], /X-RateLimit-Reset/)
})

await t.test('paging: the window asked for, and the Link header of a page', async (t) => {
  t.ok(Value.Check(PageQuerySchema, { max_id: '9', limit: 5 }), 'a query of a page')
  t.notOk(Value.Check(PageQuerySchema, { limit: 0 }), 'a limit is at least 1')
  t.strictSame(pageWindow({}), { limit: 20 })
  t.strictSame(pageWindow({ limit: 500, max_id: '9', since_id: '2' }), { maxId: '9', sinceId: '2', limit: 40 })
  t.strictSame(pageWindow({ limit: 5, min_id: '3' }, { fallback: 10, max: 80 }), { minId: '3', limit: 5 })
  const url = new URL('https://chirp.example/api/v1/timelines/home?limit=2&max_id=50&local=true')
  t.equal(
    linkHeader(url, [{ id: '40' }, { id: '30' }]),
    '<https://chirp.example/api/v1/timelines/home?limit=2&local=true&max_id=30>; rel="next", ' +
      '<https://chirp.example/api/v1/timelines/home?limit=2&local=true&min_id=40>; rel="prev"',
  )
  t.equal(linkHeader(url, []), undefined, 'an empty page has none')
})
