import t from 'tap'
import { MSG } from '../../server/errors.js'
import { buildApiApp, expectError, signup } from '../helpers/api.js'

/**
 * Forged cursors. A cursor is opaque to clients, but nothing stops one from sending any base64url it
 * likes: every list that takes a cursor must refuse one it could not have made with a 400 naming the
 * field, on every store (PostgreSQL once answered some with a 500, the embedded store with a page).
 */
const api = await buildApiApp(t)
const reader = await signup(api)
const post = (
  (
    await api.as(reader.token, { method: 'POST', url: '/api/posts', payload: { content: 'a post about #cursors' } })
  ).json() as { posts: { _id: string }[]; post: { _id: string } }
).post
await api.as(reader.token, { method: 'POST', url: `/api/comments/add/${post._id}`, payload: { text: 'a comment' } })
await api.as(reader.token, { method: 'POST', url: `/api/users/bookmark/${post._id}` })
await api.as(reader.token, { method: 'POST', url: `/api/posts/like/${post._id}` })

const id = '0b7e8d8e-5a43-4c55-9f0e-1f3c2a9d0001'
const time = '2026-01-01T00:00:00.000Z'
const FORGED: Record<string, unknown[]> = {
  'year 0': ['0000-01-01T00:00:00.000Z', id],
  'a year before PostgreSQL can keep': ['-010000-01-01T00:00:00.000Z', id],
  'a year past 9999': ['+275760-09-13T00:00:00.000Z', id],
  'a time that is no time': ['yesterday', id],
  'a NUL byte after the time': [`${time}\u0000`, id],
  'an id that is no uuid': [time, 'not-a-uuid'],
  'a like count past what a count can hold': [2 ** 31, time, id],
  'a negative like count': [-1, time, id],
  'year 0 after a like count': [5, '0000-01-01T00:00:00.000Z', id],
  'a NUL byte in a name': ['a\u0000b'],
  'half a surrogate pair in a name': ['\ud800'],
  'a control character in a name': ['a\u0007'],
  'a position past the largest safe integer': [1e300],
  'a negative position': [-1],
  'a fractional position': [1.5],
}
const encode = (key: unknown[]) => Buffer.from(JSON.stringify(key)).toString('base64url')

const ROUTES = [
  '/api/posts?limit=5',
  `/api/posts/user/${reader.username}?limit=5`,
  '/api/feed?sort=latest&limit=5',
  '/api/feed?sort=oldest&limit=5',
  '/api/feed?sort=trending&limit=5',
  '/api/users?limit=5',
  '/api/users/bookmark?limit=5',
  `/api/comments/${post._id}?limit=5`,
  `/api/posts/${post._id}/likes?limit=5`,
  '/api/posts/tag/cursors?limit=5',
  '/api/posts/tag/nothing_tagged?limit=5',
  '/api/search?type=posts&q=post&limit=5',
  '/api/search?type=posts&q=nowhere&limit=5',
  '/api/search?type=posts&q=%23cursors&limit=5',
  '/api/search?type=users&q=a&limit=5',
  '/api/search?type=users&q=%23cursors&limit=5',
  '/api/notifications?limit=5',
]

for (const [what, key] of Object.entries(FORGED)) {
  await t.test(`a cursor with ${what} is a 400 on every list`, async (t) => {
    for (const route of ROUTES) {
      const res = await api.as(reader.token, { method: 'GET', url: `${route}&cursor=${encode(key)}` })
      expectError(t, res, 400, MSG.badCursor, route)
    }
  })
}

await t.test("every list's own cursors still work", async (t) => {
  for (const route of ROUTES) {
    const first = await api.as(reader.token, { method: 'GET', url: route.replace('limit=5', 'limit=1') })
    t.equal(first.statusCode, 200, route)
    const { nextCursor } = first.json() as { nextCursor: string | null }
    if (nextCursor === null) continue
    const next = await api.as(reader.token, { method: 'GET', url: `${route}&cursor=${nextCursor}` })
    t.equal(next.statusCode, 200, `${route}, the next page`)
  }
})
