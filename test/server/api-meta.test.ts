import t from 'tap'
import { buildApiApp } from '../helpers/api.js'
import { testStoreKind } from '../helpers/store-under-test.js'

const api = await buildApiApp(t)
const { app } = api

/** Every call of the table of calls in docs/api.md, as OpenAPI spells them. */
const ROUTES = [
  ['post', '/api/auth/signup'],
  ['post', '/api/auth/login'],
  ['post', '/api/auth/logout'],
  ['post', '/api/auth/logout-all'],
  ['post', '/api/auth/password-reset'],
  ['post', '/api/auth/password-reset/confirm'],
  ['post', '/api/account/password'],
  ['get', '/api/account/2fa'],
  ['post', '/api/account/2fa/setup'],
  ['post', '/api/account/2fa/enable'],
  ['post', '/api/account/2fa/disable'],
  ['get', '/api/users'],
  ['get', '/api/users/suggestions'],
  ['get', '/api/users/bookmark'],
  ['get', '/api/users/{username}'],
  ['post', '/api/users/edit'],
  ['post', '/api/users/follow/{id}'],
  ['post', '/api/users/unfollow/{id}'],
  ['get', '/api/follow-requests'],
  ['post', '/api/follow-requests/{id}/authorize'],
  ['post', '/api/follow-requests/{id}/reject'],
  ['post', '/api/users/bookmark/{id}'],
  ['post', '/api/users/remove-bookmark/{id}'],
  ['get', '/api/posts'],
  ['get', '/api/posts/{postId}'],
  ['get', '/api/posts/user/{username}'],
  ['post', '/api/posts'],
  ['post', '/api/posts/edit/{id}'],
  ['delete', '/api/posts/{id}'],
  ['post', '/api/posts/like/{id}'],
  ['post', '/api/posts/dislike/{id}'],
  ['get', '/api/feed'],
  ['get', '/api/comments/{postId}'],
  ['post', '/api/comments/add/{postId}'],
  ['post', '/api/comments/edit/{postId}/{commentId}'],
  ['post', '/api/comments/delete/{postId}/{commentId}'],
  ['delete', '/api/comments/delete/{postId}/{commentId}'],
  ['post', '/api/comments/upvote/{postId}/{commentId}'],
  ['post', '/api/comments/downvote/{postId}/{commentId}'],
  ['post', '/api/media'],
  ['get', '/api/health'],
  ['post', '/api/reports'],
  ['get', '/api/admin/reports'],
  ['post', '/api/admin/reports/{id}/resolve'],
  ['get', '/api/admin/users'],
  ['get', '/api/admin/users/{id}'],
  ['post', '/api/admin/users/{id}/role'],
  ['post', '/api/admin/users/{id}/suspend'],
  ['post', '/api/admin/users/{id}/unsuspend'],
  ['post', '/api/admin/users/{id}/approve'],
  ['post', '/api/admin/users/{id}/reject'],
  ['delete', '/api/admin/posts/{id}'],
  ['delete', '/api/admin/comments/{postId}/{commentId}'],
  ['get', '/api/admin/log'],
  ['post', '/api/invites'],
  ['get', '/api/invites'],
  ['post', '/api/events/ticket'],
  ['get', '/api/events'],
] as const

interface Operation {
  parameters?: { name: string; in: string }[]
  requestBody?: { content: Record<string, { schema: { properties?: Record<string, unknown>; required?: string[] } }> }
  responses: Record<string, unknown>
}

await t.test('GET /api/health answers 200 { status: "ok", store, guestLogin, registration }', async (t) => {
  const res = await app.inject({ method: 'GET', url: '/api/health' })
  t.equal(res.statusCode, 200)
  t.strictSame(res.json(), { status: 'ok', store: testStoreKind, guestLogin: true, registration: 'open' })
})

await t.test('GET /api/docs/json is an OpenAPI document of every route, generated from the schemas', async (t) => {
  const res = await app.inject({ method: 'GET', url: '/api/docs/json' })
  t.equal(res.statusCode, 200)
  const doc = res.json() as {
    openapi: string
    info: { title: string }
    paths: Record<string, Record<string, Operation>>
  }
  t.match(doc.openapi, /^3\./, 'OpenAPI 3')
  t.equal(doc.info.title, 'Chirp API')
  for (const [method, url] of ROUTES) {
    const operation = doc.paths[url]?.[method]
    t.ok(operation, `${method.toUpperCase()} ${url} is documented`)
    t.ok(
      Object.keys(operation?.responses ?? {}).some((status) => /^2/.test(status)),
      `${method.toUpperCase()} ${url} documents its success`,
    )
  }
  const signup = doc.paths['/api/auth/signup']?.post?.requestBody?.content['application/json']?.schema
  t.strictSame(
    signup?.required?.sort(),
    ['email', 'password', 'username'],
    'bodies come from the schemas (the names may be left out)',
  )
  const feedParameters = doc.paths['/api/feed']?.get?.parameters?.map((parameter) => parameter.name).sort()
  t.strictSame(feedParameters, ['compact', 'cursor', 'limit', 'list', 'sort'], 'so do query strings')
  const errors = doc.paths['/api/posts/{postId}']?.get?.responses['4XX'] as {
    content?: Record<string, { schema?: { required?: string[] } }>
  }
  t.strictSame(
    errors?.content?.['application/json']?.schema?.required,
    ['errors', 'code'],
    'errors are documented as { errors, code }',
  )
  t.notOk(res.body.includes('scrypt$'), 'no hash in the docs')
})

await t.test('GET /api/docs serves the UI', async (t) => {
  const res = await app.inject({ method: 'GET', url: '/api/docs' })
  t.ok(res.statusCode === 200 || res.statusCode === 302, `answers (${res.statusCode})`)
  const page = res.statusCode === 302 ? await app.inject({ method: 'GET', url: String(res.headers.location) }) : res
  t.match(String(page.headers['content-type']), /text\/html/)
  t.match(page.body, /swagger/i)
})
