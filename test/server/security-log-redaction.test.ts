import t from 'tap'
import { redactUrl } from '../../server/plugins/redact-url.js'
import { buildSeededApp } from '../helpers/seeded.js'

const JWT =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJfaWQiOiJhIiwidXNlcm5hbWUiOiJndWVzdCIsInR2IjowfQ.c2lnbmF0dXJlLWJ5dGVz'

await t.test('redactUrl hides tickets, tokens and anything that looks like a JWT, and nothing else', async (t) => {
  t.equal(redactUrl('/api/events?ticket=abc123'), '/api/events?ticket=[redacted]')
  t.equal(redactUrl('/api/events?x=1&ticket=abc&y=2'), '/api/events?x=1&ticket=[redacted]&y=2')
  t.equal(redactUrl('/api/events?%74icket=abc'), '/api/events?%74icket=[redacted]', 'an encoded name')
  t.equal(redactUrl('/api/events?%E0%A4%A=abc'), '/api/events?%E0%A4%A=[redacted]', 'an undecodable name')
  for (const name of [
    'token',
    'Token',
    'access_token',
    'accessToken',
    'id_token',
    'refresh_token',
    'jwt',
    'auth',
    'authorization',
    'password',
    'api_key',
    'apiKey',
    'client_secret',
    'code',
    'sessionId',
  ]) {
    t.equal(redactUrl(`/api/posts?${name}=s3cr3t&limit=10`), `/api/posts?${name}=[redacted]&limit=10`, name)
  }
  t.equal(redactUrl(`/api/posts?q=${JWT}`), '/api/posts?q=[redacted]', 'a JWT under any name')
  t.equal(redactUrl(`/api/posts?q=Bearer%20abc`), '/api/posts?q=[redacted]', 'a bearer credential under any name')
  t.equal(redactUrl(`/api/posts?q=%65%79%4A${JWT.slice(3)}`), '/api/posts?q=[redacted]', 'a JWT spelled with %-escapes')
  t.equal(redactUrl(`/api/posts?${JWT}`), '/api/posts?[redacted]', 'a JWT as a bare name')
  t.equal(redactUrl(`/api/users/${JWT}/x`), '/api/users/[redacted]/x', 'a JWT in the path')
  t.equal(
    redactUrl('/api/posts?limit=10&cursor=abc&sort=latest&q=hello'),
    '/api/posts?limit=10&cursor=abc&sort=latest&q=hello',
  )
  t.equal(redactUrl('/api/events?ticket'), '/api/events?ticket', 'a name without a value has nothing to hide')
  t.equal(redactUrl('/api/posts'), '/api/posts')
})

await t.test(
  'the request log of the app never holds a credential from the URL, wherever the request goes',
  async (t) => {
    const lines: string[] = []
    const api = await buildSeededApp(t, {
      config: { logLevel: 'info', rateLimit: false },
      options: { logStream: { write: (line) => void lines.push(line) } },
    })
    const urls = [
      `/api/posts?token=${JWT}`,
      `/api/posts?access_token=plain-secret-1`,
      `/api/feed?accessToken=plain-secret-2`,
      `/api/events?ticket=plain-secret-3`,
      `/api/no/such/route?token=plain-secret-4`,
      `/api/users/${JWT}`,
      `/api/posts?limit=oops&api_key=plain-secret-5`,
      `/media/x.png?password=plain-secret-6`,
    ]
    for (const url of urls) await api.app.inject({ method: 'GET', url, headers: { accept: 'application/json' } })
    const log = lines.join('')
    t.ok(lines.length >= urls.length, `${lines.length} lines were logged`)
    t.notOk(log.includes(JWT.split('.')[2] ?? JWT), 'no JWT')
    for (let i = 1; i <= 6; i++) t.notOk(log.includes(`plain-secret-${i}`), `secret ${i} is not in the log`)
    t.match(log, /"url":"\/api\/posts\?access_token=\[redacted\]"/, 'the request itself is still logged')
  },
)
