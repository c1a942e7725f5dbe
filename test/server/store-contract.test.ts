import t, { type Test } from 'tap'
import type { Store } from '../../server/store/types.js'
import { followLog, openBothStores, withReadCache, type OpenedStore } from '../helpers/both-stores.js'
import type { PgStore } from '../../server/store/pg/pg-store.js'
import { skipWithoutPostgres } from '../helpers/pg.js'
import {
  OPERATIONS,
  contractFixture,
  outcomeOf,
  type ContractCase,
  type Fixture,
  type Operation,
  type Outcome,
} from '../helpers/store-contract.js'
import { accountReads, accountWrites } from '../helpers/store-contract-accounts.js'
import { audienceReads } from '../helpers/store-contract-audiences.js'
import { otherReads } from '../helpers/store-contract-more-reads.js'
import { pollReads, pollWrites } from '../helpers/store-contract-polls.js'
import { contentReads } from '../helpers/store-contract-reads.js'
import { repostReads, repostWrites } from '../helpers/store-contract-reposts.js'
import { requestReads, requestWrites } from '../helpers/store-contract-requests.js'
import { recordWrites } from '../helpers/store-contract-records.js'
import { jobRows } from '../helpers/store-contract-jobs.js'
import { clientAppReads, clientAppWrites } from '../helpers/store-contract-client-apps.js'
import { filterListReads, filterListWrites } from '../helpers/store-contract-filters-lists.js'
import { postPlanReads, postPlanWrites } from '../helpers/store-contract-post-plans.js'
import { conversationReads, conversationWrites } from '../helpers/store-contract-conversations.js'
import { contentWrites, peopleWrites } from '../helpers/store-contract-writes.js'

/**
 * One storage contract, proven on both stores: every row of the table (test/helpers/store-contract*.ts)
 * runs on the embedded store and on PostgreSQL, each opened on the same database, and must answer, or
 * throw, the same on both. Reads run on the store and inside a transaction, before the writes and after
 * them; after every write both stores must hold the same people and posts.
 */
const skip = await skipWithoutPostgres()

const reads = (f: Fixture) => [
  ...contentReads(f),
  ...otherReads(f),
  ...pollReads(f),
  ...repostReads(f),
  ...accountReads(f),
  ...requestReads(f),
  ...audienceReads(f),
  ...conversationReads(f),
  ...clientAppReads(f),
  ...filterListReads(f),
  ...postPlanReads(f),
]
const table = (f: Fixture): ContractCase[] => [
  ...reads(f),
  ...peopleWrites(f),
  ...requestWrites(f),
  ...contentWrites(f),
  ...pollWrites(f),
  ...repostWrites(f),
  ...recordWrites(f),
  ...conversationWrites(f),
  ...clientAppWrites(f),
  ...filterListWrites(f),
  ...postPlanWrites(f),
  ...accountWrites(f),
  ...jobRows(f),
  ...reads(f),
]

async function outcomesOf(store: Store, row: ContractCase): Promise<Outcome[]> {
  if ('write' in row) return [await outcomeOf(() => store.transaction((tx) => row.write(tx)))]
  if ('run' in row) return [await outcomeOf(() => row.run(store))]
  return [await outcomeOf(() => row.read(store)), await outcomeOf(() => store.transaction((tx) => row.read(tx)))]
}

/** The people and posts as each store holds them: what a write must leave the same on both. */
async function holdings(store: Store, f: Fixture) {
  const people = [...f.u, f.newcomer._id, ...f.pending.map((user) => user._id)]
  return outcomeOf(async () => ({
    users: await store.getUsers(people),
    posts: await store.getPosts([...f.p, f.fresh.post, f.fresh.poll]),
  }))
}

await t.test('every operation of the store interface has a row in the contract table', async (t) => {
  const covered = new Set(table(contractFixture()).map((row) => row.op))
  const missing = (Object.keys(OPERATIONS) as Operation[]).filter((op) => !covered.has(op))
  t.strictSame(missing, [], 'operations without a row')
})

/** Runs every row on both stores, PostgreSQL's answer being the rule; how many rows differ. */
async function compareRows(t: Test, f: Fixture, embedded: Store, postgres: Store): Promise<number> {
  let differing = 0
  for (const row of table(f)) {
    const label = `${row.op}: ${row.name}`
    const expected = await outcomesOf(postgres, row)
    const got = await outcomesOf(embedded, row)
    if (!t.strictSame(got, expected, label)) differing++
    if (
      'write' in row &&
      !t.strictSame(await holdings(embedded, f), await holdings(postgres, f), `${label}: what both hold after`)
    )
      differing++
  }
  return differing
}

await t.test('the embedded store and PostgreSQL answer every row of the contract alike', { skip }, async (t) => {
  const f = contractFixture()
  const [embedded, postgres] = (await openBothStores(t, f.database)) as [OpenedStore, OpenedStore]
  const differing = await compareRows(t, f, embedded.store, postgres.store)
  t.strictSame(await embedded.events(), await postgres.events(), 'the events committed, in order')
  t.equal(differing, 0, 'no row differs')
})

await t.test(
  'both stores read through the read cache, PostgreSQL following its event log, as in production, answer every row alike',
  { skip },
  async (t) => {
    const f = contractFixture()
    const [embedded, postgres] = (await openBothStores(t, f.database)) as [OpenedStore, OpenedStore]
    await followLog(t, postgres.store as PgStore)
    const differing = await compareRows(t, f, withReadCache(embedded.store), withReadCache(postgres.store))
    t.equal(differing, 0, 'no row differs')
  },
)
