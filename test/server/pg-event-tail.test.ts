import t from 'tap'
import { onPostgres } from '../helpers/pg-pass.js'

/**
 * The tail reads the log in the order of its numbers, by the primary key: seqs of different lengths are
 * delivered 99, 100, 1000 (ordered as text they would come 100, 1000, 99), each once, and the head
 * ends at the highest.
 */
await onPostgres(async () => {
  const { schemaSql, testSchema } = await import('../helpers/pg.js')
  const { migrate } = await import('../../server/store/pg/migrate.js')
  const { startEventLog } = await import('../../server/store/pg/event-log.js')

  const schema = testSchema(t)
  const sql = schemaSql(t, schema)
  await migrate(sql, { schema })

  const delivered: number[] = []
  const log = await startEventLog({
    sql,
    schema,
    from: 0,
    deliver: (event) => delivered.push(event.id),
    sequenceEveryMs: 60_000,
    pollEveryMs: 60_000,
    pruneEveryMs: 60_000,
  })
  t.teardown(() => log.close())

  await t.test('events numbered 99, 100 and 1000', async (t) => {
    for (const seq of [1000, 99, 100]) {
      await sql`insert into events (seq, name, data) values (${seq}, 'post.updated', '{}')`
    }
    await log.catchUp(1000)
    t.same(delivered, [99, 100, 1000], 'delivered in the order of their numbers')
    t.equal(log.head, 1000, 'the head is the highest')
    await sql`insert into events (seq, name, data) values (1001, 'post.updated', '{}')`
    await log.catchUp(1001)
    t.same(delivered, [99, 100, 1000, 1001], 'a later read delivers only what is new')
  })
})
