import { withKeptReads } from '../../server/kept-reads.js'
import { ReadCache } from '../../server/plugins/read-cache.js'
import { EmbeddedStore } from '../../server/store/embedded-store.js'
import { logHead, startEventLog } from '../../server/store/pg/event-log.js'
import { PgStore } from '../../server/store/pg/pg-store.js'
import { STORE_CHANGED } from '../../server/schemas/events.js'
import type { Database, Store } from '../../server/store/types.js'
import { tempDataDir, type TestContext } from './app.js'
import { TEST_DATABASE_URL, schemaSql, testSchema } from './pg.js'

export interface OpenedStore {
  name: 'embedded' | 'postgres'
  store: Store
  /** The events committed so far, as the store hands them on: names and data, in order. */
  events: () => Promise<{ name: string; to: string | null; data: unknown }[]>
}

/** A PgStore on a fresh schema seeded with `database`, closed when the test ends. */
export async function openPgStore(t: TestContext, database: Database, schema = testSchema(t)): Promise<PgStore> {
  const store = await PgStore.open({
    url: TEST_DATABASE_URL,
    poolMax: 4,
    schema,
    seed: async () => structuredClone(database),
  })
  t.teardown(() => store.close())
  return store
}

/**
 * The embedded store and PostgreSQL, each seeded with the same database, for tests that hold both to
 * one contract (server/store/types.ts): where they differ, PostgreSQL is the rule.
 */
export async function openBothStores(t: TestContext, database: Database): Promise<OpenedStore[]> {
  const published: { name: string; to: string | null; data: unknown }[] = []
  const embedded = await EmbeddedStore.open({
    dataDir: await tempDataDir(t),
    seed: async () => structuredClone(database),
    publish: (event) => published.push({ name: event.name, to: event.to ?? null, data: event.data }),
  })
  t.teardown(() => embedded.close())
  const schema = testSchema(t)
  const postgres = await openPgStore(t, database, schema)
  const sql = schemaSql(t, schema)
  return [
    { name: 'embedded', store: embedded, events: async () => published },
    {
      name: 'postgres',
      store: postgres,
      events: async () => {
        // store.changed is PostgreSQL's own word to its other instances, logged by a write without events.
        const rows = await sql<{ name: string; recipient: string | null; data: string }[]>`
          SELECT name, recipient, data FROM event_outbox WHERE name <> ${STORE_CHANGED} ORDER BY id`
        return rows.map((row) => ({ name: row.name, to: row.recipient, data: JSON.parse(row.data) as unknown }))
      },
    },
  ]
}

/**
 * `store` read through a read cache of its own, as an app reads it (server/app.ts): the reads every
 * signed-in page makes are kept between writes, and each write voids what its events name.
 */
export function withReadCache(store: Store): Store {
  const cache = new ReadCache()
  store.watchChanges((change) => cache.changed(change))
  return withKeptReads(store, cache.kept)
}

/**
 * Has `store` follow its event log as an app's does (server/persistence.ts): each write, through
 * whichever instance, then names what it changed as its events arrive. The log takes the outbox's rows,
 * so `events` of openBothStores no longer sees them.
 */
export async function followLog(t: TestContext, store: PgStore): Promise<void> {
  const log = await startEventLog({
    sql: store.sql,
    schema: store.schema,
    from: await logHead(store.sql),
    deliver: (event) => store.eventArrived(event),
  })
  t.teardown(() => log.close())
  store.followEvents((head) => log.catchUp(head))
  store.afterEvents = (upTo) => log.settle(upTo)
}
