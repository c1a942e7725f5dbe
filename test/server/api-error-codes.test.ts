import type { InjectOptions } from 'fastify'
import t from 'tap'
import * as MSG from '../../common/messages.js'
import { buildApiApp, signup } from '../helpers/api.js'

/**
 * Every error body carries a stable `code` beside its messages, so a client decides by what happened
 * rather than by English words. The codes are written out here, as a client would rely on them.
 */
const api = await buildApiApp(t, { config: { rateLimit: true } })
const { app } = api
const member = await signup(api)

const codeOf = async (options: InjectOptions) => {
  const res = await app.inject(options)
  return [res.statusCode, res.json<{ code?: unknown }>().code]
}

await t.test('a catalogue refusal carries its message’s code', async (t) => {
  t.strictSame(await codeOf({ method: 'GET', url: '/api/posts/no-such-post' }), [404, 'post_not_found'])
  t.strictSame(await codeOf({ method: 'GET', url: '/api/users/0b8e1c52-5b0e-4c1e-9d55-3f3c0f0c0c0c' }), [
    404,
    'user_not_found',
  ])
  t.strictSame(await codeOf({ method: 'GET', url: '/api/feed', headers: { authorization: 'Bearer nope' } }), [
    401,
    'invalid_token',
  ])
  t.strictSame(
    await codeOf({
      method: 'POST',
      url: `/api/users/follow/${member.user._id}`,
      headers: { authorization: `Bearer ${member.token}` },
    }),
    [404, 'self_follow'],
  )
  t.strictSame(
    await codeOf({ method: 'POST', url: '/api/auth/login', payload: { username: 'nobody_here', password: 'x' } }),
    [404, 'user_not_registered'],
  )
})

await t.test('a body that does not fit the schema is invalid_request, whatever its words', async (t) => {
  const res = await app.inject({
    method: 'POST',
    url: '/api/posts',
    headers: { authorization: `Bearer ${member.token}` },
    payload: { content: 'x'.repeat(501) },
  })
  t.equal(res.statusCode, 400)
  t.match(res.json(), { errors: [/content/], code: 'invalid_request' })
})

await t.test('refusals before any route have codes too', async (t) => {
  t.strictSame(await codeOf({ method: 'GET', url: '/api/nothing-here' }), [404, 'route_not_found'])
  t.strictSame(
    await codeOf({
      method: 'POST',
      url: '/api/posts',
      headers: { authorization: `Bearer ${member.token}`, 'content-type': 'application/json' },
      payload: '{"content":',
    }),
    [400, 'body_not_json'],
  )
  t.strictSame(await codeOf({ method: 'GET', url: '/api/posts/%E0%A4%A' }), [400, 'bad_url'])
})

await t.test('a rate-limited call is too_many_requests', async (t) => {
  let last: unknown[] = []
  for (let i = 0; i < 30 && last[0] !== 429; i += 1) {
    last = await codeOf({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: member.username, password: 'wrong' },
    })
  }
  t.strictSame(last, [429, 'too_many_requests'])
})

await t.test('no two catalogue messages share a text, so every message has one code', async (t) => {
  const texts = Object.values(MSG)
  t.equal(new Set(texts).size, texts.length)
})
