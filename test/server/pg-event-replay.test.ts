import { setTimeout as sleep } from 'node:timers/promises'
import t, { type Test } from 'tap'
import { onPostgres } from '../helpers/pg-pass.js'

/**
 * Resuming from the shared event log is bounded: an id older than the log, or one too many events or
 * too many bytes behind, is answered with `reset` without the events being read back from PostgreSQL;
 * a short gap is replayed exactly. The app connects through a relay that counts what PostgreSQL sends
 * it, and keeps only 5 events in its own buffer, so every resume here asks the log.
 */
await onPostgres(async () => {
  const { signup } = await import('../helpers/api.js')
  const { buildLiveApi } = await import('../helpers/live-api.js')
  const { startPgRelay } = await import('../helpers/pg-relay.js')
  const { withSql } = await import('../helpers/store-under-test.js')
  const { openSse } = await import('../helpers/sse.js')
  const { channelOf } = await import('../../server/store/pg/event-log.js')
  const { MAX_REPLAY, PRUNED_KEY } = await import('../../server/store/pg/event-replay.js')

  const relay = await startPgRelay(t)
  const live = await buildLiveApi(t, { config: { databaseUrl: relay.url }, options: { events: { bufferSize: 5 } } })
  const schema = live.api.schema as string
  const reader = await signup(live.api)
  const hub = live.api.app.events

  // More events than a replay may hold, each with 2 KB of data (600 of them pass the send bound), numbered
  // from the clock as the sequencer numbers them.
  const EVENTS = MAX_REPLAY + 100
  const padding = 'x'.repeat(2000)
  const seqs = await withSql(schema, async (sql) => {
    const rows = await sql<{ seq: string }[]>`
      insert into events (seq, name, data)
      select base.first + i, 'post.updated', json_build_object('n', i, 'pad', ${padding}::text)::text
      from (select greatest(max(seq), (extract(epoch from clock_timestamp()) * 1000)::bigint * 1000) as first from events) base,
        generate_series(1, ${EVENTS}) i
      returning seq::text as seq`
    const head = rows.at(-1)?.seq as string
    await sql`select pg_notify(${channelOf(schema)}, ${head})`
    return rows.map((row) => Number(row.seq))
  })
  const head = seqs.at(-1) as number
  for (let tries = 0; hub.lastId < head && tries < 100; tries++) await sleep(50)
  t.equal(hub.lastId, head, 'the instance has followed the log to its head')
  const port = (live.api.app.server.address() as { port: number }).port

  /** Opens a stream resuming after `lastEventId`; returns its first event and the bytes PostgreSQL sent meanwhile. */
  async function resume(t: Test, lastEventId: string) {
    const res = await live.api.as(reader.token, { method: 'POST', url: '/api/events/ticket' })
    const { ticket } = res.json() as { ticket: string }
    const before = relay.received
    const stream = await openSse(port, `/api/events?ticket=${encodeURIComponent(ticket)}`, {
      'last-event-id': lastEventId,
    })
    t.teardown(() => stream.close())
    const first = await stream.until((message) => message.event !== undefined, 5000)
    return { stream, first, read: relay.received - before }
  }

  /** A refetch: `reset`, and far less read from PostgreSQL than the events would have been. */
  async function expectReset(t: Test, lastEventId: string) {
    const { first, read } = await resume(t, lastEventId)
    t.match(first, { event: 'reset', id: String(head) }, 'the client is told to refetch')
    t.ok(read < 64 * 1024, `${read} bytes came from PostgreSQL, not the events`)
  }

  await t.test('an id older than the log is a reset, decided without reading the log', (t) => expectReset(t, '1'))

  await t.test(`more than ${MAX_REPLAY} events behind is a reset, without reading them`, (t) =>
    expectReset(t, String(seqs[0])),
  )

  await t.test('events whose data passes the send bound are a reset, without sending them', (t) =>
    expectReset(t, String(seqs[seqs.length - 601])),
  )

  await t.test('an id below what pruning deleted is a reset', async (t) => {
    const through = seqs[seqs.length - 10] as number
    await withSql(
      schema,
      (sql) => sql`insert into app_settings (key, value) values (${PRUNED_KEY}, ${String(through)})`,
    )
    t.teardown(() => withSql(schema, (sql) => sql`delete from app_settings where key = ${PRUNED_KEY}`))
    await expectReset(t, String(through - 1))
  })

  await t.test('a short gap is replayed exactly, in order, then the head', async (t) => {
    const after = seqs[seqs.length - 21] as number
    const { stream, first } = await resume(t, String(after))
    const ids = [Number(first.id)]
    for (let i = 1; i < 20; i++) ids.push(Number((await stream.until((m) => m.event !== undefined, 3000)).id))
    t.strictSame(ids, seqs.slice(-20), 'the 20 missed events')
    t.match(first, { event: 'post.updated' })
    const mark = await stream.until((message) => message.event === undefined && message.id !== undefined, 3000)
    t.equal(mark.id, String(head), 'then an id-only line at the head')
  })
})
