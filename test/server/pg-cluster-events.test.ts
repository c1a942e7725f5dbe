import t from 'tap'
import { onPostgres } from '../helpers/pg-pass.js'

/** Two instances on one schema, each with its own hub, LISTEN connection and sequencer tick. */
await onPostgres(async () => {
  const { signup } = await import('../helpers/api.js')
  const { buildLiveApi } = await import('../helpers/live-api.js')
  const { withSql } = await import('../helpers/store-under-test.js')
  const { openSse } = await import('../helpers/sse.js')
  const { channelOf } = await import('../../server/store/pg/event-log.js')
  const { jobsChannelOf } = await import('../../server/store/pg/pg-jobs.js')

  const a = await buildLiveApi(t)
  const b = await buildLiveApi(t, { sharedSchema: a.api.schema as string })
  const schema = a.api.schema as string
  const [author, reader, other] = [await signup(a.api), await signup(a.api), await signup(a.api)]
  const post = await a.newPost(author, 'one post, two instances')

  await t.test('a like made through B reaches a stream on A, with the same id as on B', async (t) => {
    const onA = await a.stream(t, reader)
    const onB = await b.stream(t, reader)
    t.equal((await b.write(other, 'POST', `/api/posts/like/${post._id}`)).statusCode, 201)
    const [seenOnA, seenOnB] = [await a.nextEvent(onA), await b.nextEvent(onB)]
    t.match(seenOnA, { event: 'post.liked' })
    t.equal(seenOnA.id, seenOnB.id, 'one id, cluster-wide')
  })

  await t.test('a stream closed on A and resumed on B gets exactly the missed events, in order', async (t) => {
    const onA = await a.stream(t, reader)
    await a.newPost(author, 'seen live on A')
    const last = (await a.nextEvent(onA)).id as string
    onA.close()
    const missed = [
      await b.write(other, 'POST', `/api/comments/add/${post._id}`, { text: 'missed one' }),
      await a.write(other, 'POST', `/api/posts/dislike/${post._id}`),
      await b.write(other, 'POST', `/api/users/bookmark/${post._id}`),
      await a.write(reader, 'POST', `/api/users/bookmark/${post._id}`),
    ]
    t.ok(
      missed.every((res) => res.statusCode < 300),
      'four writes while away',
    )
    const res = await b.api.as(reader.token, { method: 'POST', url: '/api/events/ticket' })
    const { ticket } = res.json() as { ticket: string }
    const port = (b.api.app.server.address() as { port: number }).port
    const resumed = await openSse(port, `/api/events?ticket=${encodeURIComponent(ticket)}`, { 'last-event-id': last })
    t.teardown(() => resumed.close())
    const names = [await b.nextEvent(resumed), await b.nextEvent(resumed), await b.nextEvent(resumed)]
    t.strictSame(
      names.map((message) => message.event),
      ['comment.added', 'post.liked', 'bookmark.added'],
      "the comment, the unlike and the reader's own bookmark, in order; another user's bookmark never",
    )
    const ids = names.map((message) => Number(message.id))
    t.ok(
      ids.every((id, i) => i === 0 || id > (ids[i - 1] as number)) && (ids[0] as number) > Number(last),
      'ids rise past the last one seen',
    )
    t.notMatch(resumed.text, /missed one[\s\S]*missed one/, 'nothing twice')
  })

  await t.test("killing A's LISTEN connection loses nothing", async (t) => {
    const onA = await a.stream(t, reader)
    // The connection listens for jobs too: the last thing it ran may be either LISTEN.
    const listens = [channelOf(schema), jobsChannelOf(schema)].map((channel) => `%listen%${channel}%`)
    const killed = await withSql(
      schema,
      (sql) =>
        sql`select pg_terminate_backend(pid) from pg_stat_activity where query ilike any(${listens}::text[]) and pid <> pg_backend_pid()`,
    )
    t.ok(killed.length >= 1, 'a listening connection was terminated')
    const through = await b.newPost(author, 'while A was not listening')
    const seen = await onA.until(
      (message) => message.event === 'post.created' && message.data?.includes(through._id) === true,
      5000,
    )
    t.ok(seen, 'A caught up by itself')
  })

  await t.test('B goes on when A closes', async (t) => {
    const onB = await b.stream(t, reader)
    await a.api.app.close()
    const later = await b.newPost(author, 'after A is gone')
    const seen = await onB.until(
      (message) => message.event === 'post.created' && message.data?.includes(later._id) === true,
      5000,
    )
    t.ok(seen, 'B sequences and delivers alone')
  })
})
