import t from 'tap'
import { onPostgres } from '../helpers/pg-pass.js'

/** Two instances on one schema: a poll that closes is told to its author once, whichever instances notice it at once. */
await onPostgres(async () => {
  const { signup } = await import('../helpers/api.js')
  const { buildLiveApi } = await import('../helpers/live-api.js')
  type Post = import('../../server/schemas/posts.js').Post

  const config = { pollDaySeconds: 1 }
  const a = await buildLiveApi(t, { config })
  const b = await buildLiveApi(t, { config, sharedSchema: a.api.schema as string })

  await t.test('reads through both instances at once make exactly one poll notification', async (t) => {
    const [author, reader] = [await signup(a.api), await signup(a.api)]
    const created = await a.write(author, 'POST', '/api/posts', {
      content: 'q?',
      poll: { options: ['a', 'b'], days: 1 },
    })
    const { post } = created.json() as { post: Post }
    t.equal((await b.write(reader, 'POST', `/api/polls/${post._id}/vote`, { choice: 1 })).statusCode, 200, 'voted on B')
    const wait = Date.parse(post.poll?.closesAt ?? '') - Date.now() + 10
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait))
    const get = (app: typeof a) => app.api.as(reader.token, { method: 'GET', url: `/api/posts/${post._id}` })
    const reads = await Promise.all([get(a), get(b), get(a), get(b), get(a), get(b)])
    for (const res of reads) {
      t.equal(res.statusCode, 200)
      t.equal((res.json() as { post: Post }).post.poll?.closed, true, 'closed on both')
    }
    for (const app of [a, b]) {
      const res = await app.api.as(author.token, { method: 'GET', url: '/api/notifications' })
      const { notifications, unread } = res.json() as { notifications: { type: string }[]; unread: number }
      t.strictSame(
        notifications.map((n) => n.type),
        ['poll'],
        'one poll notification',
      )
      t.equal(unread, 1)
    }
  })
})
