import { execFile } from 'node:child_process'
import { readdir } from 'node:fs/promises'
import path from 'node:path'
import { promisify } from 'node:util'
import t, { type Test } from 'tap'
import { runDbImport } from '../../server/cli/db-import.js'
import { runDbMigrate } from '../../server/cli/db-migrate.js'
import { createLocalMediaStorage } from '../../server/media/local-media-storage.js'
import { buildSeed } from '../../server/seed/index.js'
import { createCommentsService } from '../../server/services/comments.js'
import { createPollsService } from '../../server/services/polls.js'
import { createPostsService } from '../../server/services/posts.js'
import { createRelationsService } from '../../server/services/relations.js'
import { createUsersService } from '../../server/services/users.js'
import { verifyPassword } from '../../server/services/passwords.js'
import { readDatabaseFiles } from '../../server/store/database-files.js'
import { EmbeddedStore } from '../../server/store/embedded-store.js'
import { MIGRATIONS } from '../../server/store/pg/migrations/index.js'
import { PgStore } from '../../server/store/pg/pg-store.js'
import { tempDataDir } from '../helpers/app.js'
import { TEST_DATABASE_URL, skipWithoutPostgres, testSchema } from '../helpers/pg.js'
import { openBucket, startS3 } from '../helpers/s3.js'

const skip = await skipWithoutPostgres()

const LOGGED_OUT = 'a-token-logged-out-before-the-move'
const DELETED = '0b7e8d8e-5a43-4c55-9f0e-1f3c2a9d00de'
/** Federation's key pairs as the store keeps them, the private ones sealed. */
const ACTOR_KEYS = {
  rsaPublic: '{"kty":"RSA"}',
  rsaPrivate: 'v1.sealed-rsa',
  ed25519Public: '{"kty":"OKP"}',
  ed25519Private: 'v1.sealed-ed25519',
  createdAt: '2026-06-01T00:00:00.000Z',
}

const IMPORTED_APP = {
  _id: 'app-made-before-the-move',
  secretHash: 'aGFzaA',
  name: 'An app',
  website: null,
  redirectUris: ['urn:ietf:wg:oauth:2.0:oob'],
  scopes: ['read', 'write'],
  createdAt: '2026-06-01T00:00:00.000Z',
}

/**
 * A seeded embedded data directory that has also been used: likes, a follow, bookmarks, a new post with a
 * link card, a logout, the guest blocking two people and muting another for an hour, and a follow request
 * waiting, an app of the Mastodon client API and a marker.
 */
async function usedDataDir(t: Test): Promise<string> {
  const dataDir = await tempDataDir(t)
  const store = await EmbeddedStore.open({
    dataDir,
    seed: () => buildSeed(createLocalMediaStorage(path.join(dataDir, 'media'))),
  })
  const deps = { store, now: () => new Date() }
  const users = (await store.listUsers({})).items
  const [guest, other] = [users.find((u) => u.username === 'guest'), users.find((u) => u.username === 'noah_kim')]
  const posts = createPostsService(deps)
  const mine = await posts.create(guest?._id as string, { content: 'made before the move' })
  await posts.like(other?._id as string, mine.post._id)
  const card = { url: 'https://example.com/a', title: 'A page', description: 'About it', image: '/media/card.png' }
  await store.transaction((tx) => tx.setPostCard(mine.post._id, card))
  // A poll with a vote, and a comment with a reply to it, all by people told of nothing (their own).
  const polled = await posts.create(guest?._id as string, {
    content: 'an older poll',
    poll: { options: ['a', 'b'], days: 1 },
  })
  await createPollsService(deps).vote(other?._id as string, polled.post._id, 1)
  // A direct message, unread by its recipient (who is told of it: a mention).
  await posts.create(guest?._id as string, { content: '@noah_kim a direct word', visibility: 'direct' })
  const comments = createCommentsService(deps)
  const root = (await comments.add(guest?._id as string, mine.post._id, 'a root')).post.comments[0]
  await comments.add(guest?._id as string, mine.post._id, 'its reply', root?._id)
  // A repost and a pin, written to the store alone, so no notification joins the two counted below.
  await store.transaction(async (tx) => {
    await tx.setRepost(mine.post._id, other?._id as string, true, new Date().toISOString())
    await tx.setPinned(mine.post._id, new Date().toISOString())
  })
  const people = createUsersService(deps)
  await people.follow(other?._id as string, guest?._id as string)
  for (const post of (await store.listPosts({ sort: 'trending', limit: 3 })).items)
    await people.addBookmark(guest?._id as string, post._id)
  const relations = createRelationsService(deps)
  const id = (username: string) => users.find((u) => u.username === username)?._id as string
  await relations.block(id('guest'), id('maya.lin'))
  await relations.block(id('guest'), id('lucia.rossi'))
  await relations.mute(id('guest'), id('sam.okafor'), { duration: 3600 })
  // Written to the store alone, as the repost above, so no notification joins the two counted below.
  await store.transaction((tx) => tx.addFollowRequest(id('sam.okafor'), id('theo_park'), new Date().toISOString()))
  const expiresAt = new Date(Date.now() + 3600_000).toISOString()
  await store.transaction((tx) => tx.revokeToken({ _id: LOGGED_OUT, userId: other?._id as string, expiresAt }, ''))
  await store.transaction(async (tx) => {
    await tx.beginTwoFactor(other?._id as string, 'v1.sealed-secret')
    await tx.enableTwoFactor(other?._id as string, 'v1.sealed-secret', 59_000_000, ['hash-one', 'hash-two'])
  })
  // An app of the Mastodon client API, and where the guest stopped reading: both move.
  await store.transaction(async (tx) => {
    await tx.createApp(IMPORTED_APP)
    await tx.setMarker(id('guest'), 'home', '1234', new Date().toISOString())
  })
  await store.transaction((tx) => tx.addActorKeys(other?._id as string, ACTOR_KEYS))
  // An account deleted before the move: its username stays held after it.
  const at = new Date().toISOString()
  const until = new Date(Date.now() + 3600_000).toISOString()
  await store.transaction(async (tx) => {
    const template = users.find((u) => u.username === 'noah_kim') as (typeof users)[number]
    await tx.createUser({
      ...template,
      _id: DELETED,
      username: 'gone_before_move',
      followers: [],
      following: [],
      bookmarks: [],
    })
    await tx.deleteAccount(DELETED, { _id: 'gone_before_move', userId: DELETED, until }, at)
  })
  await store.close()
  return dataDir
}

function output() {
  const lines = { log: [] as string[], error: [] as string[] }
  return {
    lines,
    out: { log: (line: string) => lines.log.push(line), error: (line: string) => lines.error.push(line) },
  }
}

await t.test(
  'db:import copies an embedded database into an empty schema, keeping every id, date and hash',
  { skip },
  async (t) => {
    const from = await usedDataDir(t)
    const schema = testSchema(t)
    const env = { DATABASE_URL: TEST_DATABASE_URL, DATABASE_SCHEMA: schema }
    const { lines, out } = output()
    t.equal(await runDbImport(['--from', from], env, out), 0, lines.error.join('\n'))
    t.match(
      lines.log.join('\n'),
      /applied migration 1[\s\S]*Imported 6 users, 16 posts and 3 notifications from .*\nImported 2 blocks and 1 mute\.\n.*set MEDIA_DIR=.*media/,
    )

    const embedded = await readDatabaseFiles(from)
    const store = await PgStore.open({
      url: TEST_DATABASE_URL,
      poolMax: 2,
      schema,
      seed: async () => ({ version: 1, users: [], posts: [] }),
    })
    t.teardown(() => store.close())
    t.strictSame(
      await store.getUsers(embedded.users.map((u) => u._id)),
      // PostgreSQL keeps two-factor state, federation keys, blocks, mutes, follow requests, conversations and list places in tables of
      // their own, read below.
      embedded.users.map(
        ({
          twoFactor: _separate,
          actorKeys: _keys,
          blocking: _blocking,
          muting: _muting,
          likes: _likes,
          followRequests: _r,
          directConversations: _conversations,
          places: _places,
          ...user
        }) => user,
      ),
      'every user, follow and bookmark list as it was',
    )
    const noah = embedded.users.find((u) => u.username === 'noah_kim')
    t.strictSame(
      await store.getTwoFactor(noah?._id ?? ''),
      { secret: 'v1.sealed-secret', enabled: true, lastStep: 59_000_000, recoveryCodes: ['hash-one', 'hash-two'] },
      'two-factor sign-in as it was, in its own table',
    )
    t.strictSame(await store.getActorKeys(noah?._id ?? ''), ACTOR_KEYS, 'federation’s key pairs, in their own table')
    const idOf = (username: string) => embedded.users.find((u) => u.username === username)?._id as string
    const now = new Date().toISOString()
    t.strictSame(
      (await store.listBlocks(idOf('guest'), {})).items,
      [idOf('lucia.rossi'), idOf('maya.lin')],
      'the blocks, the most recent first',
    )
    const muting = embedded.users.find((u) => u.username === 'guest')?.muting
    t.strictSame((await store.listMutes(idOf('guest'), now, {})).items, muting, 'the mute with its end')
    t.ok(
      (await store.relationsOf(idOf('maya.lin'), now)).blockedBy.includes(idOf('guest')),
      'and the blocked person is blocked by the guest',
    )
    t.strictSame(
      (await store.listFollowRequests(idOf('theo_park'), {})).items,
      [idOf('sam.okafor')],
      'the follow request, still waiting and no follow',
    )
    const withoutVoters = embedded.posts.map((post) => {
      if (!post.poll) return post
      const { voters: _separate, ...poll } = post.poll
      return { ...post, poll }
    })
    t.strictSame(
      await store.getPosts(embedded.posts.map((p) => p._id)),
      // PostgreSQL keeps poll votes and reposts in tables of their own, read below.
      withoutVoters.map(({ reposts: _separate, ...post }) => post),
      'every post, like, comment, reply, poll, repost count and pin as it was',
    )
    const polled = embedded.posts.find((p) => p.poll)
    t.strictSame(
      await store.pollVotesOf([polled?._id ?? ''], [idOf('noah_kim')]),
      [{ postId: polled?._id, userId: idOf('noah_kim'), choice: 1 }],
      'and the vote in it',
    )
    const reposted = embedded.posts.find((p) => p.reposts?.length)
    t.ok(reposted?.pinnedAt, 'the pinned post is there')
    t.strictSame(
      [...(await store.repostedAmong(idOf('noah_kim'), [reposted?._id ?? '']))],
      [reposted?._id],
      'the repost, in its own table',
    )
    const guestId = embedded.users.find((u) => u.username === 'guest')?._id as string
    const newestFirst = (a: { createdAt: string; _id: string }, b: { createdAt: string; _id: string }) =>
      b.createdAt.localeCompare(a.createdAt) || (b._id < a._id ? -1 : 1)
    const notifications = embedded.notifications?.filter((n) => n.recipientId === guestId).sort(newestFirst)
    t.equal(notifications?.length, 2, 'the like and the follow made before the move')
    t.strictSame((await store.listNotifications(guestId, {})).items, notifications, 'every notification as it was')
    t.equal(await store.countUnread(guestId), 2, 'and the unread count')
    const mine = embedded.posts.find((p) => p.content === 'made before the move')?._id
    t.strictSame(
      (await store.searchPosts(['before', 'move'], {})).items.map((p) => p._id),
      [mine],
      'posts are found by their words',
    )
    const direct = embedded.posts.find((p) => p.visibility === 'direct')
    const conversation = await store.getConversation(direct?.conversationId ?? '', idOf('noah_kim'))
    t.strictSame(
      conversation && { ...conversation, lastPost: conversation.lastPost?._id },
      {
        _id: direct?.conversationId,
        participantIds: [guestId, idOf('noah_kim')].sort(),
        lastPost: direct?._id,
        unread: 1,
        activeAt: direct?.createdAt,
        hidden: false,
      },
      'the conversation of a direct message, unread by its recipient, as it was',
    )
    t.equal((await store.listConversations(guestId, {})).items[0]?.unread, 0, 'and read by its author')
    t.ok(await store.isTokenRevoked(LOGGED_OUT), 'a token logged out before the move stays logged out')
    t.ok(await store.isUsernameReserved('gone_before_move', new Date().toISOString()), 'a deleted name stays held')
    t.ok(await store.wasDeleted(DELETED), "and the deleted account's tokens stay a 401")
    t.strictSame(await store.getApp(IMPORTED_APP._id), IMPORTED_APP, 'an app registered before the move')
    t.match(
      await store.listMarkers(guestId),
      [{ timeline: 'home', lastReadId: '1234', version: 1 }],
      'and where the guest stopped reading',
    )
    const guest = await store.getUserByUsername('guest')
    t.ok(await verifyPassword('guestpassword', guest?.passwordHash ?? ''), 'the guest logs in with the same password')

    const again = output()
    t.equal(await runDbImport(['--from', from], env, again.out), 1, 'a second import is refused')
    t.match(again.lines.error.join('\n'), /already holds users; it copies only into an empty one/)
    t.equal((await store.listUsers({})).items.length, 6, 'and changes nothing')
  },
)

await t.test('db:import refuses without --from, or from a directory that holds no database', { skip }, async (t) => {
  const env = { DATABASE_URL: TEST_DATABASE_URL, DATABASE_SCHEMA: testSchema(t) }
  const none = output()
  t.equal(await runDbImport([], env, none.out), 1)
  t.match(none.lines.error.join('\n'), /Usage: npm run db:import -- --from <data dir>/)
  const empty = output()
  t.equal(await runDbImport(['--from', await tempDataDir(t)], env, empty.out), 1)
  t.match(empty.lines.error.join('\n'), /db:import: .* holds no database/)
  const badEnv = output()
  t.equal(await runDbImport(['--from', '.'], { DATABASE_URL: 'mysql://x', DATABASE_SCHEMA: 'Bad-Name' }, badEnv.out), 1)
  t.match(
    badEnv.lines.error.join('\n'),
    /DATABASE_URL must be a postgres:\/\/ or postgresql:\/\/ URL[\s\S]*DATABASE_SCHEMA must be/,
  )
})

await t.test('db:migrate migrates and seeds an empty schema, then finds nothing to do', { skip }, async (t) => {
  const env = {
    DATABASE_URL: TEST_DATABASE_URL,
    DATABASE_SCHEMA: testSchema(t),
    MEDIA_DIR: path.join(await tempDataDir(t), 'media'),
  }
  const first = output()
  t.equal(await runDbMigrate(env, first.out), 0, first.lines.error.join('\n'))
  t.match(
    first.lines.log.join('\n'),
    /applied migration 1 \(initial\)[\s\S]*applied migration 2 \(notifications_search\)[\s\S]*wrote 6 users and 13 posts/,
  )
  const second = output()
  t.equal(await runDbMigrate(env, second.out), 0)
  t.strictSame(second.lines.log, [
    `PostgreSQL schema "${env.DATABASE_SCHEMA}" is up to date (migration ${MIGRATIONS.at(-1)?.version}).`,
    'The database already holds users: nothing seeded.',
  ])
})

await t.test(
  'with S3_BUCKET, db:migrate seeds its images into the bucket and db:import points at media:migrate',
  { skip },
  async (t) => {
    const bucket = await (await startS3(t)).bucket()
    const dataDir = await tempDataDir(t)
    const s3 = {
      S3_BUCKET: bucket.bucket,
      S3_ENDPOINT: bucket.endpoint,
      S3_ACCESS_KEY_ID: bucket.accessKeyId,
      S3_SECRET_ACCESS_KEY: bucket.secretAccessKey,
      S3_FORCE_PATH_STYLE: 'true',
    }
    const seeded = output()
    const env = { DATABASE_URL: TEST_DATABASE_URL, DATABASE_SCHEMA: testSchema(t), DATA_DIR: dataDir, ...s3 }
    t.equal(await runDbMigrate(env, seeded.out), 0, seeded.lines.error.join('\n'))
    t.equal((await openBucket(t, bucket).keys()).length, 3, "the seeded posts' images are in the bucket")
    t.strictSame(await readdir(dataDir), [], 'and nothing is on the disk')
    const from = await usedDataDir(t)
    const imported = output()
    const into = { DATABASE_URL: TEST_DATABASE_URL, DATABASE_SCHEMA: testSchema(t), ...s3 }
    t.equal(await runDbImport(['--from', from], into, imported.out), 0, imported.lines.error.join('\n'))
    t.equal(
      imported.lines.log.at(-1),
      `Media files were not copied: MEDIA_DIR=${path.join(from, 'media')} npm run media:migrate copies them into the bucket.`,
    )
  },
)

await t.test('the command runs as a process: exit code 0, then 1 on a database that has users', { skip }, async (t) => {
  const from = await usedDataDir(t)
  const env = { ...process.env, DATABASE_URL: TEST_DATABASE_URL, DATABASE_SCHEMA: testSchema(t) }
  const run = promisify(execFile)
  const command = ['--import', 'tsx', 'server/cli/db-import.ts', '--from', from]
  const ok = await run(process.execPath, command, { env })
  t.match(ok.stdout, /Imported 6 users, 16 posts and 3 notifications/)
  await t.rejects(run(process.execPath, command, { env }), { code: 1, stderr: /already holds users/ })
})
