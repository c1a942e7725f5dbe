import t from 'tap'
import { buildTestApp } from '../helpers/app.js'

await t.test('a fresh data directory is seeded with 6 users and 13 posts', async (t) => {
  const { app } = await buildTestApp(t)
  const posts = await app.inject({ method: 'GET', url: '/api/posts' })
  t.equal(posts.statusCode, 200)
  t.equal(posts.json<{ posts: unknown[] }>().posts.length, 13)
  const users = await app.inject({ method: 'GET', url: '/api/users' })
  t.equal(users.json<{ users: unknown[] }>().users.length, 6)
})
