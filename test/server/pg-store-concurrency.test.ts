import { randomUUID } from 'node:crypto'
import t, { type Test } from 'tap'
import { createPostsService } from '../../server/services/posts.js'
import { PgStore } from '../../server/store/pg/pg-store.js'
import type { UserRecord } from '../../server/store/types.js'
import { openPgStore } from '../helpers/both-stores.js'
import { TEST_DATABASE_URL, schemaSql, skipWithoutPostgres, testSchema } from '../helpers/pg.js'
import { uuidDatabase } from '../helpers/uuid-database.js'

/** Several writers on one PostgreSQL schema at once, as several instances would be. */
const skip = await skipWithoutPostgres()

/** Two stores (two pools, as two instances have) on one schema seeded with `database`. */
async function twoInstances(t: Test, database = uuidDatabase({ users: 52, posts: 3 })) {
  const schema = testSchema(t)
  const a = await openPgStore(t, database, schema)
  const b = await openPgStore(t, database, schema)
  return { a, b, database, sql: schemaSql(t, schema) }
}

const now = () => new Date()

await t.test(
  '50 users liking one post at once through two instances: 50 likes, counted once each',
  { skip },
  async (t) => {
    const { a, b, database, sql } = await twoInstances(t)
    const post = database.posts[0]?._id as string
    const likers = database.users
      .map((user) => user._id)
      .filter((id) => !database.posts[0]?.likedBy.includes(id))
      .slice(0, 50)
    t.equal(likers.length, 50)
    const services = [createPostsService({ store: a, now }), createPostsService({ store: b, now })]
    const before = (await a.getPost(post))?.likeCount ?? 0
    const results = await Promise.allSettled(likers.map((user, i) => services[i % 2]!.like(user, post)))
    t.strictSame(
      results.filter((r) => r.status === 'rejected'),
      [],
      'every like succeeds',
    )
    const after = await b.getPost(post)
    t.equal(after?.likeCount, before + 50, 'every like is counted')
    const { items } = await b.listLikers(post, {})
    t.strictSame(new Set(items), new Set([...(database.posts[0]?.likedBy ?? []), ...likers]), 'every liker is listed')
    t.equal(after?.likedBy.length, Math.min(20, before + 50), 'the record holds the most recent likers')
    const counts = await sql`SELECT data FROM event_outbox WHERE name = 'post.liked'`
    t.equal(counts.length, 50, 'one event each')
    t.strictSame(
      counts.map((e) => (JSON.parse(e.data as string) as { likeCount: number }).likeCount).sort((x, y) => x - y),
      Array.from({ length: 50 }, (_, i) => before + i + 1),
      'each event saw the count its own like made',
    )
  },
)

await t.test(
  'many posts liked and unliked at once through two instances, in batches that overlap: every count right',
  { skip },
  async (t) => {
    const { a, b, database } = await twoInstances(t, uuidDatabase({ users: 12, posts: 24 }))
    const services = [createPostsService({ store: a, now }), createPostsService({ store: b, now })]
    const users = database.users.map((user) => user._id)
    // Each user likes every post they do not like yet, then unlikes every third of those; two instances
    // each take half the users, so their batches hold the same posts in different orders.
    const wanted = database.posts.flatMap((post) =>
      users.filter((id) => !post.likedBy.includes(id)).map((userId) => ({ userId, postId: post._id })),
    )
    const liked = await Promise.allSettled(
      wanted.map(({ userId, postId }) => services[users.indexOf(userId) % 2]!.like(userId, postId)),
    )
    t.strictSame(
      liked.filter((r) => r.status === 'rejected'),
      [],
      'every like succeeds',
    )
    const undone = wanted.filter((_, i) => i % 3 === 0)
    const unliked = await Promise.allSettled(
      undone.map(({ userId, postId }) => services[(users.indexOf(userId) + 1) % 2]!.dislike(userId, postId)),
    )
    t.strictSame(
      unliked.filter((r) => r.status === 'rejected'),
      [],
      'every unlike succeeds',
    )
    const posts = await b.getPosts(database.posts.map((post) => post._id))
    t.strictSame(
      posts.map((post) => post.likeCount),
      database.posts.map((post) => users.length - undone.filter((change) => change.postId === post._id).length),
      'each post counts everyone who likes it',
    )
    for (const post of posts) {
      const { items } = await a.listLikers(post._id, {})
      if (items.length !== post.likeCount) t.fail(`post ${post._id} lists ${items.length} likers for ${post.likeCount}`)
    }
  },
)

await t.test('one user liking twice at once: exactly one succeeds', { skip }, async (t) => {
  const { a, b, database } = await twoInstances(t)
  const post = database.posts[0]?._id as string
  const user = database.users.find((u) => !database.posts[0]?.likedBy.includes(u._id))?._id as string
  const services = [createPostsService({ store: a, now }), createPostsService({ store: b, now })]
  const results = await Promise.allSettled(services.map((service) => service.like(user, post)))
  t.equal(results.filter((r) => r.status === 'fulfilled').length, 1, 'one like')
  t.match(
    results.find((r) => r.status === 'rejected'),
    { reason: { statusCode: 400, message: 'Cannot like a post that is already liked.' } },
  )

  // The operation holds on its own, without the service's lock on the post first.
  const other = database.users.find((u) => u._id !== user && !database.posts[1]?.likedBy.includes(u._id))?._id as string
  const second = database.posts[1]?._id as string
  const answers = await Promise.all(
    [a, b].map((store) => store.transaction((tx) => tx.setReaction(second, other, true, now().toISOString()))),
  )
  t.strictSame(answers.sort(), [false, true], 'one setReaction changed something')
  t.equal((await a.getPost(second))?.likedBy.filter((id) => id === other).length, 1)
})

const signups: [string, string, string, 'taken' | 'lookAlike'][] = [
  ['one username in different case', 'Same.Name', 'same.name', 'taken'],
  ['look-alike usernames', 'mo0n.l1ght', 'rnOon.Iight', 'lookAlike'],
]
for (const [what, first, second, loser] of signups) {
  await t.test(`two signups of ${what} at once: one wins`, { skip }, async (t) => {
    const { a, b, database } = await twoInstances(t, uuidDatabase({ users: 2, posts: 0 }))
    const record = (username: string): UserRecord => ({
      ...(database.users[0] as UserRecord),
      _id: randomUUID(),
      username,
    })
    const answers = await Promise.all([
      a.transaction((tx) => tx.createUser(record(first))),
      b.transaction((tx) => tx.createUser(record(second))),
    ])
    t.strictSame(answers.sort(), ['created', loser])
    const names = (await a.listUsers({})).items.map((u) => u.username)
    t.equal(names.filter((name) => name === first || name === second).length, 1)
  })
}

await t.test('two users following each other at once both succeed, counts intact', { skip }, async (t) => {
  const { a, b, sql } = await twoInstances(t, uuidDatabase({ users: 2, posts: 0 }))
  const [x, y] = (await a.listUsers({})).items.map((u) => u._id) as [string, string]
  // The generated pair already follow each other: start from no follows.
  await a.transaction((tx) => tx.unfollow(x, y, now().toISOString()))
  await a.transaction((tx) => tx.unfollow(y, x, now().toISOString()))
  const answers = await Promise.all([
    a.transaction((tx) => tx.follow(x, y, now().toISOString())),
    b.transaction((tx) => tx.follow(y, x, now().toISOString())),
  ])
  t.strictSame(answers, [true, true])
  const rows =
    await sql`SELECT u.follower_count, (SELECT count(*)::int FROM follows f WHERE f.followee_id = u.id) AS actual FROM users u`
  for (const row of rows) t.equal(row.follower_count, row.actual, 'the kept count agrees with the follows')
})

await t.test('a transaction that loses a deadlock is run again, and both writers succeed', { skip }, async (t) => {
  const { a, b, database } = await twoInstances(t, uuidDatabase({ users: 2, posts: 2 }))
  const [first, second] = database.posts.map((post) => post._id) as [string, string]
  let runs = 0
  let holding = 0
  let bothHold!: () => void
  const ready = new Promise<void>((resolve) => (bothHold = resolve))
  // Each locks one post, waits until the other holds its own, then wants the other's: a deadlock, which
  // PostgreSQL breaks by failing one; run again, that one finds the way clear.
  const crossing = (store: PgStore, mine: string, theirs: string) =>
    store.transaction(async (tx) => {
      runs++
      await tx.lockPost(mine)
      if (++holding === 2) bothHold()
      await ready
      return (await tx.lockPost(theirs))?._id
    })
  const answers = await Promise.all([crossing(a, first, second), crossing(b, second, first)])
  t.strictSame(answers, [second, first], 'both transactions completed')
  // Usually one is chosen as the victim; when both check for the deadlock at once, both are, and both run again.
  t.ok(runs >= 3, `a deadlock victim ran again (${runs} runs for 2 transactions)`)
})

await t.test(
  'ping answers while the database does, and a closed store or an unreachable database rejects',
  { skip },
  async (t) => {
    const store = await openPgStore(t, uuidDatabase({ users: 1, posts: 0 }))
    await t.resolves(store.ping())
    t.equal(store.kind, 'postgres')
    t.match(store.schema, /^t_[0-9a-f]+$/)
    await store.close()
    await t.rejects(store.ping(), 'closed')
    const url = TEST_DATABASE_URL.replace(/:\d+\//, ':1/')
    await t.rejects(PgStore.open({ url, poolMax: 1, schema: 'unreachable', seed: async () => uuidDatabase() }), {
      code: 'ECONNREFUSED',
    })
  },
)
