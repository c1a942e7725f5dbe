import { createHmac } from 'node:crypto'
import t from 'tap'
import { MSG } from '../../server/errors.js'
import { TEST_SECRET } from '../helpers/app.js'
import { buildSeededApp } from '../helpers/seeded.js'

const api = await buildSeededApp(t, { config: { rateLimit: false } })
const token = await api.login('guest')
const maya = await api.login('maya.lin')

const b64 = (value: unknown) =>
  Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url')
const payloadOf = (jwt: string) =>
  JSON.parse(Buffer.from(jwt.split('.')[1] as string, 'base64url').toString()) as Record<string, unknown>

/** A JWT signed (or not) however the test likes. */
function jwt(
  header: Record<string, unknown>,
  payload: unknown,
  secret: string | null = TEST_SECRET,
  algorithm = 'sha256',
): string {
  const head = `${b64(header)}.${b64(payload)}`
  return secret === null ? `${head}.` : `${head}.${createHmac(algorithm, secret).update(head).digest('base64url')}`
}

const guest = payloadOf(token)
const now = Math.floor(Date.now() / 1000)
const valid = { ...guest, iat: now, exp: now + 3600 }
const HS256 = { alg: 'HS256', typ: 'JWT' }
const [head, body, signature] = token.split('.') as [string, string, string]
const flip = (text: string, at: number) => text.slice(0, at) + (text[at] === 'A' ? 'B' : 'A') + text.slice(at + 1)

const refused: Array<[string, string]> = [
  ['alg none, unsigned', jwt({ alg: 'none', typ: 'JWT' }, valid, null)],
  ['alg None, unsigned', jwt({ alg: 'None' }, valid, null)],
  ['alg none with a signature', jwt({ alg: 'none' }, valid)],
  [
    'HS512 with the right secret (algorithm not pinned)',
    jwt({ alg: 'HS512', typ: 'JWT' }, valid, TEST_SECRET, 'sha512'),
  ],
  ['HS384 with the right secret', jwt({ alg: 'HS384' }, valid, TEST_SECRET, 'sha384')],
  ['RS256 in the header over an HMAC signature', jwt({ alg: 'RS256' }, valid)],
  ['no alg at all', jwt({ typ: 'JWT' }, valid)],
  ['signed with the wrong key', jwt(HS256, valid, 'another-secret-that-is-long-enough-for-hs256!')],
  ['signed with an empty key', jwt(HS256, valid, '')],
  [
    'payload swapped for another user, old signature',
    `${head}.${b64({ ...guest, _id: payloadOf(maya)._id, username: 'maya.lin' })}.${signature}`,
  ],
  ['payload with a raised token version, old signature', `${head}.${b64({ ...guest, tv: 99 })}.${signature}`],
  ['a flipped signature character', `${head}.${body}.${flip(signature, 5)}`],
  ['a flipped payload character', `${head}.${flip(body, 10)}.${signature}`],
  ['the signature removed', `${head}.${body}.`],
  ['the signature of another token', `${head}.${body}.${maya.split('.')[2]}`],
  ['expired an hour ago', jwt(HS256, { ...guest, iat: now - 7200, exp: now - 3600 })],
  ['expired a second ago', jwt(HS256, { ...guest, iat: now - 7200, exp: now - 1 })],
  ['not valid before tomorrow', jwt(HS256, { ...valid, nbf: now + 86_400 })],
  [
    'no token version in the payload',
    jwt(HS256, { _id: guest._id, username: guest.username, iat: now, exp: now + 60 }),
  ],
  ['a token version that is text', jwt(HS256, { ...valid, tv: '0' })],
  ['an _id that is a number', jwt(HS256, { ...valid, _id: 1 })],
  ['a payload that is an array', jwt(HS256, [valid])],
  ['a payload that is a string', jwt(HS256, 'guest')],
  [
    'a payload that is not JSON',
    `${b64(HS256)}.${b64('{"_id":')}.${createHmac('sha256', TEST_SECRET)
      .update(`${b64(HS256)}.${b64('{"_id":')}`)
      .digest('base64url')}`,
  ],
  ['a header that is not JSON', `${b64('{alg:HS256')}.${body}.${signature}`],
  ['oversized: 2 KiB of padding in the payload', jwt(HS256, { ...valid, pad: 'x'.repeat(2048) })],
  ['oversized: 100 KiB', 'a'.repeat(100 * 1024)],
  ['garbage: one word', 'garbage'],
  ['garbage: three dots', '...'],
  ['garbage: a.b.c', 'a.b.c'],
  ['garbage: four parts', `${token}.extra`],
  ['garbage: Bearer with nothing after it', 'Bearer '],
  ['garbage: Bearer twice', `Bearer Bearer ${token}`],
  ['garbage: Basic credentials', `Basic ${Buffer.from('guest:guestpassword').toString('base64')}`],
  ['garbage: the token with a NUL byte', `${token}\u0000`],
  ['garbage: unicode', '🔑.🔑.🔑'],
]

await t.test('a good token works raw and as Bearer (the baseline the refusals are measured against)', async (t) => {
  t.equal((await api.as(token, { method: 'GET', url: '/api/feed' })).statusCode, 200)
  t.equal((await api.as(`Bearer ${token}`, { method: 'GET', url: '/api/feed' })).statusCode, 200)
  t.equal(
    (await api.as(jwt(HS256, valid), { method: 'GET', url: '/api/feed' })).statusCode,
    200,
    'one made here with the test secret',
  )
})

for (const [name, bad] of refused) {
  await t.test(`401: ${name}`, async (t) => {
    for (const request of [
      { method: 'GET', url: '/api/feed' },
      { method: 'POST', url: '/api/posts', payload: { content: 'should never be written' } },
    ] as const) {
      const res = await api.app.inject({ ...request, headers: { authorization: bad } })
      t.equal(res.statusCode, 401, `${request.method} ${request.url}`)
      t.strictSame(res.json(), { errors: [MSG.invalidToken], code: 'invalid_token' })
    }
  })
}

await t.test('a token in the query string is not a token', async (t) => {
  for (const query of [`token=${token}`, `authorization=${token}`, `access_token=${token}`]) {
    const res = await api.app.inject({ method: 'GET', url: `/api/feed?${query}` })
    t.equal(res.statusCode, 401, query.slice(0, query.indexOf('=')))
  }
})

await t.test('a token logged out stops working; logout-all ends the rest; a new login works', async (t) => {
  const session = await api.login('noah_kim')
  const other = await api.login('noah_kim')
  const feed = async (token: string) => api.as(token, { method: 'GET', url: '/api/feed' })
  t.equal((await feed(session)).statusCode, 200)
  t.equal((await api.as(session, { method: 'POST', url: '/api/auth/logout' })).statusCode, 200)
  const res = await feed(session)
  t.equal(res.statusCode, 401, 'the session logged out ended')
  t.strictSame(res.json(), { errors: [MSG.invalidToken], code: 'invalid_token' })
  t.equal((await feed(other)).statusCode, 200, "the user's other session goes on")
  t.equal(
    (await api.as(session, { method: 'POST', url: '/api/auth/logout' })).statusCode,
    401,
    'logging out twice is refused',
  )
  t.equal((await api.as(other, { method: 'POST', url: '/api/auth/logout-all' })).statusCode, 200)
  t.equal((await feed(other)).statusCode, 401, 'logout-all ended every session of that user')
  t.equal((await feed(await api.login('noah_kim'))).statusCode, 200)
  t.equal((await feed(token)).statusCode, 200, "other users' sessions go on")
})
