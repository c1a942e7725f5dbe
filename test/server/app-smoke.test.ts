import t from 'tap'
import type { MediaStorage } from '../../server/media/media-storage.js'
import { buildTestApp } from '../helpers/app.js'
import { cachedSeed, testStoreKind } from '../helpers/store-under-test.js'

await t.test('a fresh data directory is seeded with 6 users and 13 posts', async (t) => {
  const { app } = await buildTestApp(t)
  const posts = await app.inject({ method: 'GET', url: '/api/posts' })
  t.equal(posts.statusCode, 200)
  t.equal(posts.json<{ posts: unknown[] }>().posts.length, 13)
  const users = await app.inject({ method: 'GET', url: '/api/users' })
  t.equal(users.json<{ users: unknown[] }>().users.length, 6)
})

await t.test('a start says what it is doing and no plugin timeout can stop a slow one', async (t) => {
  const lines: string[] = []
  const slowSeed = async (media: MediaStorage) => {
    await new Promise((resolve) => setTimeout(resolve, 300))
    return cachedSeed(media)
  }
  const { app } = await buildTestApp(t, {
    config: { logLevel: 'info' },
    options: { seed: slowSeed, logStream: { write: (line) => void lines.push(line) } },
  })
  t.equal(app.initialConfig.pluginTimeout, 0, 'opening a large database is never cut short')
  const messages = lines.map((line) => (JSON.parse(line) as { msg: string }).msg)
  if (testStoreKind === 'lowdb') {
    t.match(messages, [/^Reading the database in /], 'where it reads from')
    t.ok(
      messages.some((msg) => /^Indexing 6 users and 13 posts, read in \d+\.\d s$/.test(msg)),
      'how much it holds',
    )
    t.ok(
      messages.some((msg) => /^The database is ready, in \d+\.\d s$/.test(msg)),
      'and when it is ready',
    )
  }
})
