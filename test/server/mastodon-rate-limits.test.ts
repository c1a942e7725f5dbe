import t from 'tap'
import { multipart, PNG } from '../helpers/images.js'
import { bearer, mastodonClient, tokenRequest } from '../helpers/mastodon.js'
import { loose } from '../helpers/rate-limits.js'

/**
 * Mastodon's X-RateLimit-* headers (DECISIONS §13) from Chirp's own rate limiter: the general limit's
 * count, which falls with every request; a refusal's; none on Chirp's own paths. Signups and images
 * through the Mastodon API count against the same limits as Chirp's own. On whichever store runs.
 */
const { api, client, person, call } = await mastodonClient(t, {
  config: { rateLimit: true },
  options: {
    rateLimits: loose({
      general: { max: 40, windowMs: 60_000 },
      signupPerAddress: { max: 6, windowMs: 60_000 },
      uploadsPerUser: { max: 1, windowMs: 60_000 },
    }),
  },
})

await t.test('the general limit, counted down by each request', async (t) => {
  const alice = await person()
  const first = await call('GET', '/api/v1/accounts/verify_credentials', alice)
  const second = await call('GET', '/api/v1/instance')
  t.equal(first.headers['x-ratelimit-limit'], '40')
  const left = Number(first.headers['x-ratelimit-remaining'])
  t.ok(left >= 0 && left < 40, `remaining: ${left}`)
  t.equal(Number(second.headers['x-ratelimit-remaining']), left - 1, 'one fewer')
  const reset = Date.parse(String(first.headers['x-ratelimit-reset']))
  t.ok(reset > Date.now() && reset <= Date.now() + 60_000, 'reset: a time within the window')
  const missing = await call('GET', '/api/v1/accounts/00000000-0000-4000-8000-000000000000')
  t.equal(missing.statusCode, 404)
  t.ok(missing.headers['x-ratelimit-remaining'], 'on refusals too')
  const own = await api.app.inject({ method: 'GET', url: '/api/health' })
  t.notOk(own.headers['x-ratelimit-limit'], "not on Chirp's own paths")
})

await t.test("an app's signups count against the signup limit, as Chirp's own", async (t) => {
  const token = (
    await tokenRequest(api, {
      grant_type: 'client_credentials',
      client_id: client.clientId,
      client_secret: client.clientSecret,
      scope: 'write',
    })
  ).json<{ access_token: string }>().access_token
  const signupOnce = (i: number) =>
    api.app.inject({
      method: 'POST',
      url: '/api/v1/accounts',
      headers: bearer(token),
      remoteAddress: '10.9.8.7',
      payload: {
        username: `limited_${i}`,
        email: `limited_${i}@example.com`,
        password: 'correct horse',
        agreement: true,
      },
    })
  const answers: number[] = []
  for (let i = 0; i < 7; i++) answers.push((await signupOnce(i)).statusCode)
  t.same(answers, [200, 200, 200, 200, 200, 200, 429], 'the seventh from one address is refused')
  const refused = await signupOnce(99)
  t.same(refused.json(), { error: 'Too many requests' })
  t.equal(refused.headers['x-ratelimit-remaining'], '0', "the refusing limit's headers")
  t.ok(Date.parse(String(refused.headers['x-ratelimit-reset'])) > Date.now(), 'reset: a time')
})

await t.test("an avatar counts against the upload limit, as Chirp's own uploads", async (t) => {
  const alice = await person()
  const upload = () => {
    const body = multipart([{ name: 'avatar', filename: 'a.png', type: 'image/png', data: PNG }])
    return api.app.inject({
      method: 'PATCH',
      url: '/api/v1/accounts/update_credentials',
      headers: { ...bearer(alice.bearer), ...body.headers },
      payload: body.payload,
    })
  }
  const first = await upload()
  t.equal(first.statusCode, 200)
  const avatar = first.json<{ avatar: string }>().avatar
  const second = await upload()
  t.equal(second.statusCode, 429, 'the second image in the window is refused')
  const own = await call('GET', '/api/v1/accounts/verify_credentials', alice)
  t.equal(own.json<{ avatar: string }>().avatar, avatar, 'the avatar is the first one still')
})
