import { randomUUID } from 'node:crypto'
import { createLocalMediaStorage } from '../../server/media/local-media-storage.js'
import path from 'node:path'
import t, { type Test } from 'tap'
import { StartupError } from '../../server/errors.js'
import { buildSeed } from '../../server/seed/index.js'
import { checkSchemaName, createSql } from '../../server/store/pg/connect.js'
import { checksumOf, migrate } from '../../server/store/pg/migrate.js'
import { MIGRATIONS } from '../../server/store/pg/migrations/index.js'
import { PgStore } from '../../server/store/pg/pg-store.js'
import { tempDataDir } from '../helpers/app.js'
import { TEST_DATABASE_URL, schemaSql, skipWithoutPostgres, testSchema } from '../helpers/pg.js'

const skip = await skipWithoutPostgres()

/** A pool on a fresh schema, closed when the test ends. */
function pool(t: Test, schema: string, poolMax = 2) {
  const sql = createSql({ url: TEST_DATABASE_URL, poolMax, schema })
  t.teardown(() => sql.end({ timeout: 5 }))
  return sql
}

await t.test('a schema name that is not a plain lower-case identifier is refused before connecting', async (t) => {
  for (const bad of ['Public', 'a-b', '1abc', '', 'x'.repeat(64), 'a;drop']) {
    t.throws(() => createSql({ url: TEST_DATABASE_URL, poolMax: 1, schema: bad }), StartupError, JSON.stringify(bad))
  }
  t.equal(checkSchemaName('t_0a_b'), 't_0a_b')
})

await t.test(
  'a fresh schema is migrated and seeded like the embedded store; running again does nothing',
  { skip },
  async (t) => {
    const schema = testSchema(t)
    const sql = pool(t, schema)
    const seed = await buildSeed(createLocalMediaStorage(path.join(await tempDataDir(t), 'media')))
    const lines: string[] = []
    const first = await migrate(sql, { schema, seed: async () => seed, log: { info: (line) => lines.push(line) } })
    t.strictSame(
      first.applied,
      MIGRATIONS.map((m) => m.version),
    )
    t.strictSame(first.seeded, { users: 6, posts: 13, notifications: 0, skipped: 0, blocks: 0, mutes: 0 })
    t.match(lines.join('\n'), /applied migration 1 \(initial\)[\s\S]*6 users and 13 posts/)

    const [counts] =
      await sql`SELECT (SELECT count(*) FROM users)::int AS users, (SELECT count(*) FROM posts)::int AS posts`
    t.strictSame({ ...counts }, { users: 6, posts: 13 })
    const settings = await sql`SELECT current_setting('statement_timeout') AS st, current_setting('lock_timeout') AS lt,
    current_setting('idle_in_transaction_session_timeout') AS it, current_setting('plan_cache_mode') AS pc,
    current_setting('synchronous_commit') AS sc, current_setting('application_name') AS app`
    t.strictSame(
      { ...settings[0] },
      { st: '5s', lt: '2s', it: '10s', pc: 'auto', sc: 'on', app: 'chirp' },
      'each connection is bounded',
    )

    let seededAgain = false
    const again = await migrate(sql, { schema, seed: async () => ((seededAgain = true), seed) })
    t.strictSame(again, { applied: [], seeded: undefined }, 'nothing to apply, nothing seeded')
    t.notOk(seededAgain, 'the seed is not even built for a database that has users')
    const applied = await sql`SELECT version, name, checksum FROM schema_migrations`
    t.strictSame(
      applied.map((row) => ({ ...row })),
      MIGRATIONS.map((m) => ({ version: m.version, name: m.name, checksum: checksumOf(m) })),
    )
  },
)

await t.test('without a seed an empty database stays empty', { skip }, async (t) => {
  const schema = testSchema(t)
  const sql = pool(t, schema)
  t.strictSame(await migrate(sql, { schema }), { applied: MIGRATIONS.map((m) => m.version), seeded: undefined })
  const [row] = await sql`SELECT count(*)::int AS n FROM users`
  t.equal(row?.n, 0)
})

await t.test(
  'three instances migrating one schema at once all succeed, and it is migrated and seeded once',
  { skip },
  async (t) => {
    const schema = testSchema(t)
    const seed = await buildSeed(createLocalMediaStorage(path.join(await tempDataDir(t), 'media')))
    const pools = [pool(t, schema), pool(t, schema), pool(t, schema)]
    const results = await Promise.all(pools.map((sql) => migrate(sql, { schema, seed: async () => seed })))
    t.strictSame(
      results.flatMap((r) => r.applied),
      MIGRATIONS.map((m) => m.version),
      'one of them applied the migrations',
    )
    t.equal(results.filter((r) => r.seeded).length, 1, 'one of them seeded')
    const [counts] =
      await pools[0]!`SELECT (SELECT count(*) FROM users)::int AS users, (SELECT count(*) FROM schema_migrations)::int AS migrations`
    t.strictSame({ ...counts }, { users: 6, migrations: MIGRATIONS.length })
  },
)

await t.test('a database migrated by a newer release is refused with a clear message', { skip }, async (t) => {
  const schema = testSchema(t)
  const sql = pool(t, schema)
  await migrate(sql, { schema })
  await schemaSql(
    t,
    schema,
  )`INSERT INTO schema_migrations (version, name, checksum) VALUES (99, 'from_the_future', 'x')`
  await t.rejects(migrate(sql, { schema }), {
    name: 'StartupError',
    message: /has migration 99 \(from_the_future\) applied, which this release of Chirp does not know/,
  })
})

await t.test('an applied migration whose text changed is refused', { skip }, async (t) => {
  const schema = testSchema(t)
  const sql = pool(t, schema)
  await migrate(sql, { schema })
  const edited = MIGRATIONS.map((m) => ({ ...m, sql: `${m.sql}\n-- edited` }))
  await t.rejects(migrate(sql, { schema, migrations: edited }), {
    name: 'StartupError',
    message: /Migration 1 \(initial\) applied to the database schema "t_[0-9a-f]+" differs .*checksum mismatch/,
  })
  await schemaSql(t, schema)`UPDATE schema_migrations SET checksum = 'tampered' WHERE version = 1`
  await t.rejects(
    migrate(sql, { schema }),
    { name: 'StartupError', message: /checksum mismatch/ },
    'a tampered checksum too',
  )
})

await t.test(
  'a pending migration is applied after the ones already there, in order, and only it',
  { skip },
  async (t) => {
    const schema = testSchema(t)
    const sql = pool(t, schema)
    await migrate(sql, { schema })
    const last = Math.max(...MIGRATIONS.map((m) => m.version))
    const next = [
      ...MIGRATIONS,
      { version: last + 2, name: 'third', sql: 'ALTER TABLE app_settings ADD COLUMN third int' },
      { version: last + 1, name: 'second', sql: 'ALTER TABLE app_settings ADD COLUMN second int' },
    ]
    t.strictSame((await migrate(sql, { schema, migrations: next })).applied, [last + 1, last + 2])
    const columns = await sql<{ column_name: string }[]>`SELECT column_name FROM information_schema.columns
    WHERE table_schema = ${schema} AND table_name = 'app_settings' ORDER BY ordinal_position`
    t.strictSame(
      columns.map((c) => c.column_name),
      ['key', 'value', 'second', 'third'],
    )
  },
)

await t.test('a failing migration leaves the schema as it was', { skip }, async (t) => {
  const schema = testSchema(t)
  const sql = pool(t, schema)
  const broken = [
    ...MIGRATIONS,
    {
      version: Math.max(...MIGRATIONS.map((m) => m.version)) + 1,
      name: 'broken',
      sql: 'ALTER TABLE no_such_table ADD COLUMN x int',
    },
  ]
  await t.rejects(migrate(sql, { schema, migrations: broken }), /no_such_table/)
  const [row] = await sql`SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = ${schema}`
  t.equal(row?.n, 0, 'not even migration 1 or schema_migrations remain')
})

await t.test(
  'migration 2 indexes what a database of migration 1 holds: tags, search words and names',
  { skip },
  async (t) => {
    const schema = testSchema(t)
    const sql = pool(t, schema)
    await migrate(sql, { schema, migrations: MIGRATIONS.slice(0, 1) })
    const [ada, bob] = [randomUUID(), randomUUID()]
    const [first, second] = [randomUUID(), randomUUID()]
    const when = '2026-01-01T00:00:00.000Z'
    const people: [string, string, string, string][] = [
      [ada, 'ada_l', 'Ada', 'Lovelace'],
      [bob, 'bob', 'Bob', 'Bérard'],
    ]
    for (const [id, username, firstName, lastName] of people) {
      await sql`INSERT INTO users (id, username, first_name, last_name, email, password_hash, avatar_url, bio, website, created_at, updated_at)
      VALUES (${id}, ${username}, ${firstName}, ${lastName}, 'x@example.com', 'scrypt$x', '/avatars/avatar-1.svg', '', '', ${when}, ${when})`
    }
    const posts: [string, string, string][] = [
      [first, ada, 'Un café au lait #Café'],
      [second, bob, 'Thé pour @ada_l #tea'],
    ]
    for (const [id, author, content] of posts) {
      await sql`INSERT INTO posts (id, author_id, content, media_url, type, created_at, updated_at)
      VALUES (${id}, ${author}, ${content}, '', '', ${when}, ${when})`
    }
    await sql`INSERT INTO comments (id, post_id, author_id, text, created_at, updated_at)
    VALUES (${randomUUID()}, ${first}, ${bob}, 'Et un #thé', '2026-01-03T00:00:00.000Z', '2026-01-03T00:00:00.000Z')`
    t.strictSame(
      (await migrate(sql, { schema })).applied,
      MIGRATIONS.slice(1).map((m) => m.version),
    )
    const store = await PgStore.open({
      url: TEST_DATABASE_URL,
      poolMax: 2,
      schema,
      seed: async () => ({ version: 1, users: [], posts: [] }),
    })
    t.teardown(() => store.close())
    t.strictSame(
      (await store.listTaggedPosts('café', {})).items.map((post) => post._id),
      [first],
      'tags',
    )
    t.equal((await store.getPost(first))?.commentCount, 1, 'migration 3 counts the comments already there')
    t.equal((await store.getPost(second))?.commentCount, 0)
    t.strictSame(
      (await store.listTaggedPosts('thé', {})).items.map((post) => post._id),
      [first],
      "a comment's tags",
    )
    t.strictSame(
      (await store.searchPosts(['cafe', 'lait'], {})).items.map((post) => post._id),
      [first],
      'words',
    )
    t.strictSame(
      (await store.searchPosts(['@ada_l'], {})).items.map((post) => post._id),
      [second],
      'mentions',
    )
    t.strictSame(
      (await store.searchUsers({ prefixes: ['ber'] }, {})).items.map((user) => user._id),
      [bob],
      'names',
    )
    t.strictSame(await store.trendingTags('2025-12-25T00:00:00.000Z', 10), [
      { tag: 'café', posts: 1 },
      { tag: 'tea', posts: 1 },
      { tag: 'thé', posts: 1 },
    ])
    t.strictSame(
      await store.trendingTags('2026-01-02T00:00:00.000Z', 10),
      [{ tag: 'thé', posts: 1 }],
      'counted on the day of the comment',
    )
    t.equal(await store.countUnread(ada), 0, 'nobody has notifications yet')
  },
)
