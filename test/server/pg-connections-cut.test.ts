import { setTimeout as sleep } from 'node:timers/promises'
import t, { type Test } from 'tap'
import { onPostgres } from '../helpers/pg-pass.js'

/**
 * PostgreSQL terminating the app's backends while writes are in flight (an operator's
 * pg_terminate_backend, a failover): the process must live on, each write must have answered 201 or a
 * 5xx and be whole or absent, and the next requests and live events must work. The app connects through
 * a relay, so only its own backends are terminated. Rounds and waits are bounded.
 */
await onPostgres(async () => {
  const { signup, freshUsername } = await import('../helpers/api.js')
  const { buildLiveApi } = await import('../helpers/live-api.js')
  const { startPgRelay } = await import('../helpers/pg-relay.js')
  const { withSql } = await import('../helpers/store-under-test.js')
  const { channelOf } = await import('../../server/store/pg/event-log.js')
  const { jobsChannelOf } = await import('../../server/store/pg/pg-jobs.js')

  const relay = await startPgRelay(t)
  const live = await buildLiveApi(t, { config: { databaseUrl: relay.url } })
  const schema = live.api.schema as string
  const WRITERS = 15
  const author = await signup(live.api)
  const writers = await Promise.all(Array.from({ length: WRITERS }, () => signup(live.api)))

  // One connection listens for events and for jobs: the last thing it ran is either LISTEN.
  const listens = [channelOf(schema), jobsChannelOf(schema)].map((channel) => `listen "${channel}"`)
  /** Terminates the app's backends that `which` picks, by the relay's ports; returns how many went. */
  const terminate = (which: 'pool' | 'listen' | 'all') =>
    withSql(schema, async (sql) => {
      const rows = await sql`
        select pg_terminate_backend(pid) as gone from pg_stat_activity
        where client_port = any(${relay.ports()}::int[])
          and (${which} = 'all' or (query ilike any(${listens}::text[])) = (${which} = 'listen'))`
      return rows.filter((row) => row.gone === true).length
    })
  /** Whether one of the app's backends is listening for events again (the last thing it ran was LISTEN). */
  const listening = () =>
    withSql(schema, async (sql) => {
      const rows = await sql`
        select 1 from pg_stat_activity
        where client_port = any(${relay.ports()}::int[]) and query ilike any(${listens}::text[])`
      return rows.length === 1
    })

  /** 30 writes at once, a like and a comment from each writer, and the backends terminated `afterMs` in. */
  async function writeWhileCut(t: Test, which: 'pool' | 'listen' | 'all', afterMs: number) {
    const post = await live.newPost(author, `cut ${which} at ${afterMs} ms`)
    const writes = writers.flatMap((who, i) => [
      live.write(who, 'POST', `/api/posts/like/${post._id}`),
      live.write(who, 'POST', `/api/comments/add/${post._id}`, { text: `comment ${i}` }),
    ])
    await sleep(afterMs)
    const terminated = await terminate(which)
    const answers = await Promise.all(writes)
    t.ok(terminated >= 1, `${terminated} of the app's backends were terminated`)
    const statuses = answers.map((res) => res.statusCode)
    t.ok(
      statuses.every((status) => status === 201 || status >= 500),
      'every write answered 201 or a 5xx',
      { statuses },
    )
    return { post, answers }
  }

  /** Whatever the writes answered, the post's count agrees with its likers, and every 201 is there. */
  async function expectWhole(t: Test, postId: string, answers: { statusCode: number }[]) {
    const res = await live.api.as(author.token, { method: 'GET', url: `/api/posts/${postId}` })
    const { post } = res.json() as {
      post: { likes: { likeCount: number; likedBy: { username: string }[] }; comments: { text: string }[] }
    }
    t.equal(post.likes.likeCount, post.likes.likedBy.length, 'likeCount is the number of likers')
    writers.forEach((who, i) => {
      const liked = post.likes.likedBy.some((user) => user.username === who.username)
      if (answers[2 * i]?.statusCode === 201) t.ok(liked, `the acknowledged like of writer ${i} is kept`)
      const commented = post.comments.filter((comment) => comment.text === `comment ${i}`).length
      t.ok(commented <= 1, `the comment of writer ${i} is there at most once`)
      if (answers[2 * i + 1]?.statusCode === 201)
        t.equal(commented, 1, `the acknowledged comment of writer ${i} is kept`)
    })
  }

  /** Right after: new writes succeed at the first try, and their events reach a stream opened before the cut. */
  async function expectWorking(t: Test, stream: Awaited<ReturnType<typeof live.stream>>) {
    // More health checks (each a query) at once than the pool has connections, so every terminated one is used again.
    const checks = await Promise.all(
      Array.from({ length: 12 }, () => live.api.app.inject({ method: 'GET', url: '/api/health' })),
    )
    t.strictSame(
      checks.map((res) => res.statusCode),
      checks.map(() => 200),
      'queries right after the cut succeed on every connection',
    )
    const later = await signup(live.api, { username: freshUsername('later') })
    const res = await live.write(later, 'POST', '/api/posts', { content: 'written after the cut' })
    t.equal(res.statusCode, 201, 'a write after the cut succeeds')
    const { post } = res.json() as { post: { _id: string } }
    const seen = await stream.until(
      (message) => message.event === 'post.created' && message.data?.includes(post._id) === true,
      5000,
    )
    t.ok(seen, "the write's event reaches a stream opened before the cut")
    let back = await listening()
    for (let tries = 0; !back && tries < 50; tries++) back = (await sleep(100), await listening())
    t.ok(back, "the app listens for other instances' events again")
  }

  for (const which of ['pool', 'listen', 'all'] as const) {
    await t.test(
      `the ${which === 'all' ? 'pool and LISTEN' : which} connections terminated during writes`,
      async (t) => {
        for (const afterMs of [10, 30, 60]) {
          const stream = await live.stream(t, author)
          const { post, answers } = await writeWhileCut(t, which, afterMs)
          await expectWhole(t, post._id, answers)
          await expectWorking(t, stream)
          stream.close()
        }
      },
    )
  }
})
