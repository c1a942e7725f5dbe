import { randomUUID } from 'node:crypto'
import t from 'tap'
import { createSql } from '../../server/store/pg/connect.js'
import { migrate } from '../../server/store/pg/migrate.js'
import { MIGRATIONS } from '../../server/store/pg/migrations/index.js'
import { PgStore } from '../../server/store/pg/pg-store.js'
import type { UserRecord } from '../../server/store/types.js'
import { openBothStores } from '../helpers/both-stores.js'
import { TEST_DATABASE_URL, schemaSql, skipWithoutPostgres, testSchema } from '../helpers/pg.js'
import { uuidDatabase } from '../helpers/uuid-database.js'

/**
 * Usernames keyed and skeletonised by the server (0003_username_keys): what a database holds already is
 * filled in, and accounts made before look-alikes were refused keep their names.
 */
const skip = await skipWithoutPostgres()

const day = (n: number) => new Date(Date.UTC(2025, 0, 1 + n)).toISOString()

await t.test('migration 4 keys the usernames a database already holds; older look-alikes stay', { skip }, async (t) => {
  const schema = testSchema(t)
  const sql = createSql({ url: TEST_DATABASE_URL, poolMax: 2, schema })
  t.teardown(() => sql.end({ timeout: 5 }))
  await migrate(sql, { schema, migrations: MIGRATIONS.slice(0, 3) })
  // bob1 joined first, so it holds the skeleton the later two share with it.
  const people: [string, number][] = [
    ['BobL', 2],
    ['bob1', 0],
    ['bobi', 1],
    ['kis_x', 3],
  ]
  const ids = new Map(people.map(([username]) => [username, randomUUID()]))
  for (const [username, joined] of people) {
    await sql`INSERT INTO users (id, username, first_name, last_name, email, password_hash, avatar_url, bio, website, created_at, updated_at)
      VALUES (${ids.get(username) ?? ''}, ${username}, 'A', 'B', 'x@example.com', 'scrypt$x', '/avatars/avatar-1.svg', '', '', ${day(joined)}, ${day(joined)})`
  }
  t.strictSame(
    (await migrate(sql, { schema })).applied,
    MIGRATIONS.slice(3).map((m) => m.version),
  )
  const rows = await sql<{ username: string; username_key: string; username_skeleton: string | null }[]>`
    SELECT username, username_key, username_skeleton FROM users ORDER BY created_at`
  t.strictSame(
    rows.map((row) => [row.username, row.username_key, row.username_skeleton]),
    [
      ['bob1', 'bob1', 'bobl'],
      ['bobi', 'bobi', null],
      ['BobL', 'bobl', null],
      ['kis_x', 'kis_x', 'kls_x'],
    ],
  )
  const [column] = await sql<{ nullable: string }[]>`
    SELECT is_nullable AS nullable FROM information_schema.columns
    WHERE table_schema = ${schema} AND table_name = 'users' AND column_name = 'username_key'`
  t.equal(column?.nullable, 'NO', 'every row has a key, and every new one must')

  const empty = async () => ({ version: 1 as const, users: [], posts: [] })
  const store = await PgStore.open({ url: TEST_DATABASE_URL, poolMax: 2, schema, seed: empty })
  t.teardown(() => store.close())
  t.equal((await store.getUserByUsername('BOBL'))?._id, ids.get('BobL'), 'a look-alike keeps its name')
  t.equal((await store.getUserByUsername('kİs_x'))?._id, ids.get('kis_x'), 'found by its key')
  const found = await store.searchUsers({ prefixes: [], username: 'bob' }, {})
  t.strictSame(
    found.items.map((user) => user.username),
    ['bob1', 'bobi', 'BobL'],
    '@name search in key order',
  )
  const newcomer = (username: string): UserRecord => ({
    ...(uuidDatabase({ users: 1, posts: 0 }).users[0] as UserRecord),
    _id: randomUUID(),
    username,
  })
  t.equal(await store.transaction((tx) => tx.createUser(newcomer('b0bI'))), 'lookAlike', 'the skeleton is held')
  t.equal(await store.transaction((tx) => tx.createUser(newcomer('BOBI'))), 'taken', 'so is every key')
})

await t.test(
  'a database with look-alikes seeds or imports on both stores, the oldest holding the skeleton',
  { skip },
  async (t) => {
    const database = uuidDatabase({ users: 4, posts: 0 })
    const [first, second] = database.users as [UserRecord, UserRecord]
    database.users[0] = { ...first, username: 'rn0on' }
    database.users[1] = { ...second, username: 'Moon', createdAt: day(-1) }
    const stores = await openBothStores(t, database)
    for (const { name, store } of stores) {
      t.equal((await store.getUserByUsername('RN0ON'))?._id, first._id, `${name}: the newer look-alike keeps its name`)
      const attempt = await store.transaction((tx) => tx.createUser({ ...first, _id: randomUUID(), username: 'rnoon' }))
      t.equal(attempt, 'lookAlike', `${name}: and a new one is refused`)
    }
    const pg = stores.find((opened) => opened.name === 'postgres')?.store as PgStore
    const rows = await schemaSql(t, pg.schema)<{ username: string }[]>`
      SELECT username FROM users WHERE username_skeleton = 'rnoon'`
    t.strictSame(
      rows.map((row) => row.username),
      ['Moon'],
      'the one that joined first holds it',
    )
  },
)
