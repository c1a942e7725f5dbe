import { setTimeout as sleep } from 'node:timers/promises'
import t from 'tap'
import { onPostgres } from '../helpers/pg-pass.js'

/**
 * On PostgreSQL, a deletion and the writes racing it hold rows the other needs. A lock held past the
 * pool's lock timeout (2 s) must not make either answer 500: the deletion waits and happens whole, and a
 * write waiting on it runs again once it is done.
 */
await onPostgres(async () => {
  const { buildApiApp, signup } = await import('../helpers/api.js')
  const { call, postBy } = await import('../helpers/moderation.js')
  const { schemaSql } = await import('../helpers/pg.js')
  const api = await buildApiApp(t)
  const sql = schemaSql(t, api.schema as string)

  /** Locks a row from another connection, as a long transaction would, for a while past the lock timeout. */
  async function holdRow(table: 'posts' | 'users', id: string): Promise<{ held: Promise<unknown> }> {
    let locked!: () => void
    const taken = new Promise<void>((resolve) => (locked = resolve))
    const held = sql.begin(async (tx) => {
      await tx`SELECT 1 FROM ${tx(table)} WHERE id = ${id} FOR UPDATE`
      locked()
      await sleep(3_000)
    })
    await taken
    return { held }
  }

  await t.test('a deletion that waits on a row held past the lock timeout still happens whole', async (t) => {
    const [me, other] = [await signup(api), await signup(api)]
    const postId = await postBy(api, me.token, 'mine')
    await call(api, other.token, 'POST', `/api/posts/like/${postId}`)
    const { held } = await holdRow('posts', postId)
    const res = await call(api, me.token, 'DELETE', '/api/account', { password: me.password })
    await held
    t.equal(res.statusCode, 200, `deleted: ${res.body}`)
    const [left] = await sql`SELECT count(*)::int AS n FROM users WHERE id = ${me.user._id}`
    t.equal(left?.n, 0, 'the account is gone')
    const [posts] = await sql`SELECT count(*)::int AS n FROM posts WHERE author_id = ${me.user._id}`
    t.equal(posts?.n, 0, 'and its posts')
  })

  await t.test('a write that waits on a row held past the lock timeout runs again and succeeds', async (t) => {
    const [me, other] = [await signup(api), await signup(api)]
    const postId = await postBy(api, me.token, 'liked while held')
    const { held } = await holdRow('posts', postId)
    const res = await call(api, other.token, 'POST', `/api/posts/like/${postId}`)
    await held
    t.ok(res.statusCode < 300, `liked: ${res.statusCode} ${res.body.slice(0, 200)}`)
  })

  await t.test('writes racing a deletion answer 2xx or 4xx, never 500', async (t) => {
    const [me, other] = [await signup(api), await signup(api)]
    const posts = await Promise.all([1, 2, 3].map((i) => postBy(api, me.token, `post ${i}`)))
    const { held } = await holdRow('users', me.user._id)
    const racing = [
      call(api, me.token, 'DELETE', '/api/account', { password: me.password }),
      ...posts.map((id) => call(api, other.token, 'POST', `/api/posts/like/${id}`)),
      ...posts.map((id) => call(api, other.token, 'POST', `/api/comments/add/${id}`, { text: 'hi' })),
      call(api, other.token, 'POST', `/api/users/follow/${me.user._id}`),
      call(api, me.token, 'POST', '/api/posts', { content: 'one more' }),
    ]
    await held
    const answers = await Promise.all(racing)
    t.strictSame(
      answers.filter((res) => res.statusCode >= 500).map((res) => res.body),
      [],
      'no internal error',
    )
    t.equal(answers[0]?.statusCode, 200, 'the deletion happened')
    const [left] = await sql`SELECT count(*)::int AS n FROM posts WHERE author_id = ${me.user._id}`
    t.equal(left?.n, 0, 'whole: no post of theirs is left')
  })
})
