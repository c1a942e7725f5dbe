import { randomUUID } from 'node:crypto'
import { cp, readFile } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import t from 'tap'
import { readDatabaseFiles } from '../../server/store/database-files.js'
import { withCounts } from '../../server/store/post-parts.js'
import { EmbeddedStore } from '../../server/store/embedded-store.js'
import { tempDataDir } from '../helpers/app.js'

/**
 * Upgrades (docs/api-contract.md §9): test/fixtures/data-v2 is a data directory as the release before notifications
 * wrote it (a version-2 manifest: users and posts only), kept as it was made. It must open as it is, be
 * searchable at once, and take its first notification, after which it is in the current layout.
 * test/fixtures/data-v3 is the same directory as the release before revoked tokens left it, with that
 * notification (a version-3 manifest); it must open as it is and take its first logout.
 */
const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures')
const FIXTURE = path.join(FIXTURES, 'data-v2')
const ADA = '0b7e8d8e-5a43-4c55-9f0e-1f3c2a9d0001'
const CHLOE = '0b7e8d8e-5a43-4c55-9f0e-1f3c2a9d0002'
const POST = '5c1d3e2f-0000-4000-8000-00000000a001'

const noSeed = async () => {
  throw new Error('an existing database is never seeded')
}

await t.test(
  'a data directory of the previous release opens with nothing lost, and moves to the current layout on its first write',
  async (t) => {
    const dataDir = await tempDataDir(t)
    await cp(FIXTURE, dataDir, { recursive: true })
    const before = await readDatabaseFiles(dataDir)
    t.equal(
      (JSON.parse(await readFile(path.join(dataDir, 'db.json'), 'utf8')) as { version: number }).version,
      2,
      'the fixture is the previous format',
    )

    const store = await EmbeddedStore.open({ dataDir, seed: noSeed })
    t.strictSame(await store.getUsers(before.users.map((user) => user._id)), before.users, 'every user as it was')
    t.strictSame(
      await store.getPosts(before.posts.map((post) => post._id)),
      before.posts.map(withCounts),
      'every post, like and comment as it was, now with its counts',
    )
    t.equal((await store.getPost(POST))?.comments[0]?.text, 'Bravo @ada.l!')
    t.strictSame((await store.listNotifications(ADA, {})).items, [], 'no notifications yet')
    t.strictSame(
      (await store.listTaggedPosts('café', {})).items.map((post) => post._id).length,
      2,
      'old posts are found by their tags',
    )
    t.strictSame((await store.searchPosts(['cafe', 'lait'], {})).items.length, 1, 'and by their words')
    t.strictSame(
      (await store.searchUsers({ prefixes: ['chloe'] }, {})).items.map((user) => user._id),
      [CHLOE],
      'people by their names',
    )

    const like = {
      _id: randomUUID(),
      type: 'like',
      recipientId: ADA,
      actorId: CHLOE,
      postId: POST,
      createdAt: '2026-02-01T00:00:00.000Z',
      read: false,
    } as const
    t.equal(await store.transaction((tx) => tx.addNotification(like)), 1, 'its first notification')
    await store.close()
    const manifest = JSON.parse(await readFile(path.join(dataDir, 'db.json'), 'utf8')) as {
      version: number
      notifications: unknown[]
    }
    t.equal(manifest.version, 10, 'the first write wrote the current manifest')
    t.equal(manifest.notifications.length, 16, 'with notification shards')

    const reopened = await EmbeddedStore.open({ dataDir, seed: noSeed })
    t.teardown(() => reopened.close())
    t.strictSame((await reopened.listNotifications(ADA, {})).items, [like], 'the notification is on disk')
    t.equal(await reopened.countUnread(ADA), 1)
    const after = await readDatabaseFiles(dataDir)
    t.strictSame(after.users, before.users, 'users untouched')
    t.strictSame(after.posts, before.posts, 'posts untouched')
  },
)

await t.test('a data directory of the release before revoked tokens opens, and keeps its first logout', async (t) => {
  const dataDir = await tempDataDir(t)
  await cp(path.join(FIXTURES, 'data-v3'), dataDir, { recursive: true })
  const manifestOnDisk = async () =>
    JSON.parse(await readFile(path.join(dataDir, 'db.json'), 'utf8')) as { version: number; revokedTokens?: unknown[] }
  t.equal((await manifestOnDisk()).version, 3, 'the fixture is the previous format')
  const before = await readDatabaseFiles(dataDir)

  const store = await EmbeddedStore.open({ dataDir, seed: noSeed })
  t.equal(await store.countUnread(ADA), 1, 'its notification is there')
  const expired = { _id: randomUUID(), userId: ADA, expiresAt: '2026-01-01T00:00:00.000Z' }
  const live = { _id: randomUUID(), userId: CHLOE, expiresAt: '2026-03-01T00:00:00.000Z' }
  await store.transaction((tx) => tx.revokeToken(expired, '2025-12-31T00:00:00.000Z'))
  t.ok(await store.isTokenRevoked(expired._id), 'its first revoked token')
  await store.close()
  const manifest = await manifestOnDisk()
  t.equal(manifest.version, 10, 'the first write wrote the current manifest')
  t.equal(manifest.revokedTokens?.length, 16, 'with shards of revoked tokens')

  const reopened = await EmbeddedStore.open({ dataDir, seed: noSeed })
  t.teardown(() => reopened.close())
  t.ok(await reopened.isTokenRevoked(expired._id), 'the revocation is on disk')
  t.notOk(await reopened.isTokenRevoked(live._id), 'no other token is')
  await reopened.transaction((tx) => tx.revokeToken(live, '2026-02-01T00:00:00.000Z'))
  t.notOk(await reopened.isTokenRevoked(expired._id), 'a revocation past its token’s expiry is forgotten at the next')
  t.ok(await reopened.isTokenRevoked(live._id))
  const after = await readDatabaseFiles(dataDir)
  t.strictSame(after.revokedTokens, [live], 'on disk too')
  t.strictSame([after.users, after.posts, after.notifications], [before.users, before.posts, before.notifications])
})
