import { randomUUID } from 'node:crypto'
import t, { type Test } from 'tap'
import { PgStore } from '../../server/store/pg/pg-store.js'
import type { StoreTx } from '../../server/store/types.js'
import { schemaSql, skipWithoutPostgres, testSchema } from '../helpers/pg.js'
import { startPgRelay } from '../helpers/pg-relay.js'
import { userRecord } from '../helpers/records.js'
import { uuidDatabase } from '../helpers/uuid-database.js'

/**
 * The store's pool when PostgreSQL terminates a backend under it. The pool has one connection, so the
 * same connection comes back for the next piece of work: nothing of the old backend's may reach it.
 */
const skip = await skipWithoutPostgres()

async function onePooledConnection(t: Test) {
  const relay = await startPgRelay(t)
  const schema = testSchema(t)
  const database = uuidDatabase({ users: 2, posts: 1 })
  const store = await PgStore.open({ url: relay.url, poolMax: 1, schema, seed: async () => structuredClone(database) })
  t.teardown(() => store.close())
  const sql = schemaSql(t, schema)
  /** Terminates the store's backend (the relay's only one); resolves to how many went. */
  const terminate = async () => {
    const [row] = await sql`
      select count(*)::int as gone from (
        select pg_terminate_backend(pid) from pg_stat_activity where client_port = any(${relay.ports()}::int[])
      ) terminated`
    return row?.gone as number
  }
  return { store, sql, database, terminate }
}

await t.test(
  'a transaction cut in the middle writes nothing, even once its connection is back',
  { skip },
  async (t) => {
    const { store, sql, database, terminate } = await onePooledConnection(t)
    const user = { ...userRecord(1), _id: randomUUID(), username: 'after_the_cut' }
    let work: Promise<void> | undefined
    const outcome = store.transaction((tx) => (work = cutMidway(tx)))
    async function cutMidway(tx: StoreTx) {
      t.ok(await tx.getUser(database.users[0]?._id as string), 'the transaction is under way')
      t.equal(await terminate(), 1, "the transaction's backend is terminated")
      await store.ping()
      // The work goes on after its connection was lost, as work awaiting something else would.
      await tx.createUser(user)
    }
    await t.rejects(outcome, { code: 'CONNECTION_CLOSED' }, 'the transaction fails')
    await t.rejects(
      work ?? Promise.resolve(),
      { code: 'CONNECTION_CLOSED' },
      'and so does what its work sends after the cut',
    )
    t.equal(
      (await sql`select 1 from users where id = ${user._id}`).length,
      0,
      'nothing it sent after the cut was written',
    )
    await t.resolves(store.ping(), 'the next query succeeds')
  },
)

await t.test('a query cut while it runs fails alone: the next one on its connection succeeds', { skip }, async (t) => {
  const { store, terminate } = await onePooledConnection(t)
  const running = store.sql`select pg_sleep(5)`
  // Until the query has reached the backend, there is nothing to cut.
  for (let tries = 0; tries < 100 && (await terminate()) === 0; tries++) await new Promise((r) => setTimeout(r, 10))
  await t.rejects(running, 'the query that was running fails')
  await t.resolves(store.ping(), "the next query does not get the old backend's error")
})

await t.test(
  'a reserved connection whose backend is gone fails its next query, and the process lives on',
  { skip },
  async (t) => {
    const { store, terminate } = await onePooledConnection(t)
    const reserved = await store.sql.reserve()
    await reserved`select 1`
    t.equal(await terminate(), 1, 'its backend is terminated')
    await new Promise((resolve) => setTimeout(resolve, 50))
    await t.rejects(reserved`select 1`, { code: 'CONNECTION_CLOSED' }, 'its next query fails')
    reserved.release()
    await t.resolves(store.ping(), 'the pool goes on')
  },
)
