import postgres from 'postgres'
import t from 'tap'
import { onPostgres } from '../helpers/pg-pass.js'

/**
 * Writes answered together settle together: each write's settle resolves only once its own event has
 * been numbered and delivered, and forty writes at once share a few numbering transactions rather than
 * queueing one each for the sequencer's lock.
 */
await onPostgres(async () => {
  const { TEST_DATABASE_URL, testSchema } = await import('../helpers/pg.js')
  const { migrate } = await import('../../server/store/pg/migrate.js')
  const { startEventLog } = await import('../../server/store/pg/event-log.js')

  const schema = testSchema(t)
  const sql = postgres(TEST_DATABASE_URL, { max: 8, onnotice: () => {}, connection: { search_path: schema } })
  t.teardown(() => sql.end({ timeout: 5 }))
  await migrate(sql, { schema })

  // The log's own transactions, counted: every numbering pass and nothing else begins one here.
  let begun = 0
  const counted = new Proxy(sql, {
    get(target, key, receiver) {
      if (key !== 'begin') return Reflect.get(target, key, receiver) as unknown
      return (...args: Parameters<typeof sql.begin>) => {
        begun++
        return target.begin(...args)
      }
    },
  })
  const delivered = new Set<string>()
  const log = await startEventLog({
    sql: counted,
    schema,
    from: 0,
    deliver: (event) => delivered.add((JSON.parse(event.data) as { n: string }).n),
    // The timer must not number the rows first: each settle does.
    sequenceEveryMs: 60_000,
    pruneEveryMs: 60_000,
  })
  t.teardown(() => log.close())

  await t.test('forty writes at once, each settled', async (t) => {
    const WRITES = 40
    const settles = await Promise.all(
      Array.from({ length: WRITES }, async (_, i) => {
        const n = `write-${i}`
        const [row] = await sql<{ id: string }[]>`
          insert into event_outbox (name, data) values ('post.updated', ${JSON.stringify({ n })}) returning id::text as id`
        await log.settle(Number(row?.id))
        // Read at the moment this write would be answered.
        return delivered.has(n)
      }),
    )
    t.same(
      settles.filter((seen) => !seen),
      [],
      'every settle resolved after its own event was delivered',
    )
    t.equal(delivered.size, WRITES, 'each event once')
    t.ok(begun < WRITES / 2, `${WRITES} writes at once were numbered in ${begun} transactions`)
    const [left] = await sql`select count(*)::int as n from event_outbox`
    t.equal(left?.n, 0, 'the outbox is empty')
  })
})
