import type { AddressInfo } from 'node:net'
import t from 'tap'
import { onPostgres } from '../helpers/pg-pass.js'

/** The per-user cap on event streams, counted across two instances of one schema. */
await onPostgres(async () => {
  const { randomUUID } = await import('node:crypto')
  const { signup } = await import('../helpers/api.js')
  const { buildLiveApi } = await import('../helpers/live-api.js')
  const { withSql } = await import('../helpers/store-under-test.js')
  const { openSse, waitFor } = await import('../helpers/sse.js')

  const TOO_MANY = 'Too many requests, please try again later.'
  const config = { eventsMaxStreamsPerUser: 3 }
  const a = await buildLiveApi(t, { config })
  const b = await buildLiveApi(t, { sharedSchema: a.api.schema as string, config })
  const schema = a.api.schema as string
  type Live = typeof a
  type Who = Awaited<ReturnType<typeof signup>>

  /** A stream refused for the cap: a ticket, then GET /api/events answered 429 (over HTTP: a stream let through never ends). */
  async function refused(t: Parameters<Live['stream']>[0], on: Live, who: Who, what: string) {
    const res = await on.api.as(who.token, { method: 'POST', url: '/api/events/ticket' })
    const { ticket } = res.json<{ ticket: string }>()
    const port = (on.api.app.server.address() as AddressInfo).port
    const client = await openSse(port, `/api/events?ticket=${encodeURIComponent(ticket)}`)
    t.teardown(() => client.close())
    t.equal(client.status, 429, `${what}: 429`)
    if (client.status !== 429) return
    await client.ended
    t.strictSame(JSON.parse(client.text), { errors: [TOO_MANY], code: 'too_many_requests' }, `${what}: says so`)
  }
  const slotsOf = async (userId: string) =>
    Number(
      (await withSql(schema, (sql) => sql`select count(*)::int as n from event_streams where user_id = ${userId}`))[0]
        ?.n,
    )

  await t.test('streams on every instance count against one cap', async (t) => {
    const [reader, other] = [await signup(a.api), await signup(a.api)]
    const first = await a.stream(t, reader)
    await a.stream(t, reader)
    await b.stream(t, reader)
    await refused(t, a, reader, 'a fourth stream on A, which holds two')
    await refused(t, b, reader, 'a fourth stream on B, which holds one')
    await b.stream(t, other)
    t.pass('the cap is per user')

    first.close()
    await waitFor(() => a.api.app.events.size === 1, 2000, 'A to see the stream go')
    const deadline = Date.now() + 3000
    while ((await slotsOf(reader.user._id)) !== 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20))
    await b.stream(t, reader)
    t.pass('a place freed on A is taken on B')
    await refused(t, b, reader, 'and the cap holds again')
  })

  await t.test("a dead instance's places lapse; a live one's count", async (t) => {
    const [reader, other] = [await signup(a.api), await signup(a.api)]
    const elsewhere = randomUUID()
    await withSql(schema, async (sql) => {
      for (let i = 0; i < 3; i++) {
        await sql`insert into event_streams (id, user_id, instance, seen_at)
          values (${randomUUID()}, ${reader.user._id}, ${elsewhere}, now() - interval '1 hour')`
        await sql`insert into event_streams (id, user_id, instance, seen_at)
          values (${randomUUID()}, ${other.user._id}, ${elsewhere}, now())`
      }
    })
    await a.stream(t, reader)
    t.pass('places an instance stopped keeping alive are taken back')
    await refused(t, a, other, 'places held by an instance that is still alive count')
  })

  await t.test('an instance that closes gives its places back', async (t) => {
    const reader = await signup(b.api)
    await b.stream(t, reader)
    await b.stream(t, reader)
    t.equal(await slotsOf(reader.user._id), 2)
    await b.api.app.close()
    t.equal(await slotsOf(reader.user._id), 0, 'none left behind')
  })
})
