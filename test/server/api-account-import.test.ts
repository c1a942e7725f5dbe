import t from 'tap'
import { MSG } from '../../server/errors.js'
import { ImportReplySchema } from '../../server/schemas/account.js'
import { buildApiApp, expectError, expectOk, multipart, signup } from '../helpers/api.js'
import { call, imageBy, postBy } from '../helpers/moderation.js'
import { snapshotDb } from '../helpers/seeded.js'
import { makeZip, rawZip, readZip } from '../helpers/zip.js'

/**
 * POST /api/account/import (DECISIONS §9): a Chirp archive or Mastodon's lists, all or nothing, with every
 * hostile archive refused before anything is written. The limits are made small here.
 */
const LIMITS = { uploadBytes: 64 * 1024, entries: 20, inflatedBytes: 48 * 1024, entryBytes: 16 * 1024 }
const api = await buildApiApp(t, {
  config: { publicUrl: 'https://chirp.example' },
  options: { importLimits: LIMITS },
})
const importFile = (token: string, name: string, data: Buffer | string) =>
  api.as(token, {
    method: 'POST',
    url: '/api/account/import',
    ...multipart('file', name, 'application/octet-stream', Buffer.from(data)),
  })
type Post = { _id: string; content: string; createdAt: string; importedAt?: string; mediaUrl: string }
const postsOf = async (token: string, username: string) =>
  ((await call(api, token, 'GET', `/api/posts/user/${username}`)).json() as { posts: Post[] }).posts

await t.test('an export imports into another account: posts, follows, blocks, mutes and bookmarks', async (t) => {
  const [old, bea, cal, dan] = await Promise.all([signup(api), signup(api), signup(api), signup(api)])
  const url = await imageBy(api, old.token)
  await call(api, old.token, 'POST', '/api/posts', { content: 'a picture', mediaUrl: url, mediaAlt: 'gradient' })
  await postBy(api, old.token, 'words, #tagged')
  const beasPost = await postBy(api, bea.token, 'bea writes')
  await call(api, old.token, 'POST', `/api/users/follow/${bea.user._id}`)
  await call(api, old.token, 'POST', `/api/users/bookmark/${beasPost}`)
  await call(api, old.token, 'POST', `/api/users/block/${cal.user._id}`)
  await call(api, old.token, 'POST', `/api/users/mute/${dan.user._id}`)
  const originals = await postsOf(old.token, old.username)
  const archive = (await call(api, old.token, 'GET', '/api/account/export')).rawPayload
  t.ok((await readZip(archive)).has('posts.json'))
  const beaUnread = ((await call(api, bea.token, 'GET', '/api/notifications')).json() as { unread: number }).unread

  const next = await signup(api)
  const res = await importFile(next.token, 'chirp-archive.zip', archive)
  const body = expectOk(t, res, 200, ImportReplySchema)
  t.strictSame(body, {
    imported: { posts: 2, following: 1, blocks: 1, mutes: 1, bookmarks: 1 },
    skipped: { posts: 0, following: 0, blocks: 0, mutes: 0, bookmarks: 0 },
  })
  const imported = await postsOf(next.token, next.username)
  t.strictSame(
    imported.map((post) => [post.content, post.createdAt]),
    originals.map((post) => [post.content, post.createdAt]),
    'the posts, with their original dates',
  )
  t.ok(
    imported.every((post) => post.importedAt !== undefined && !originals.some((o) => o._id === post._id)),
    'marked imported, with new ids',
  )
  const picture = imported.find((post) => post.content === 'a picture')
  t.match(picture?.mediaUrl, /^\/media\/[0-9a-f-]{36}\.png$/, 'the image is stored anew')
  t.not(picture?.mediaUrl, url)
  t.equal((await api.app.inject({ method: 'GET', url: picture?.mediaUrl ?? '' })).statusCode, 200, 'and served')
  const me = (await call(api, next.token, 'GET', `/api/users/${next.username}`)).json() as {
    user: { following: { username: string }[]; bookmarks: { _id: string }[] }
  }
  t.strictSame(
    me.user.following.map((u) => u.username),
    [bea.username],
  )
  t.strictSame(
    me.user.bookmarks.map((p) => p._id),
    [beasPost],
  )
  const blocks = (await call(api, next.token, 'GET', '/api/users/blocks')).json() as { users: { username: string }[] }
  t.strictSame(
    blocks.users.map((u) => u.username),
    [cal.username],
  )
  const mutes = (await call(api, next.token, 'GET', '/api/users/mutes')).json() as { users: { username: string }[] }
  t.strictSame(
    mutes.users.map((u) => u.username),
    [dan.username],
  )
  const unread = ((await call(api, bea.token, 'GET', '/api/notifications')).json() as { unread: number }).unread
  t.equal(unread, beaUnread, 'an imported follow notifies nobody')
  const tagged = (await call(api, next.token, 'GET', '/api/posts/tag/tagged')).json() as { posts: Post[] }
  t.ok(
    tagged.posts.some((post) => imported.some((mine) => mine._id === post._id)),
    'imported posts are searchable',
  )
  const again = expectOk(t, await importFile(next.token, 'chirp-archive.zip', archive), 200, ImportReplySchema)
  t.match(again.skipped, { following: 1, blocks: 1, mutes: 1, bookmarks: 1 }, 'what is there already is skipped')
})

await t.test("Mastodon's lists: local addresses match, other hosts are skipped, a header is optional", async (t) => {
  const [me, bea, cal] = await Promise.all([signup(api), signup(api), signup(api)])
  const following =
    'Account address,Show boosts,Notify on new posts,Languages\n' +
    `${bea.username}@chirp.example,true,false,\n` +
    `${cal.username}\n` +
    'someone@mastodon.social,true,false,\n' +
    'nobody_by_that_name\n'
  const res = await importFile(me.token, 'following_accounts.csv', following)
  t.strictSame(expectOk(t, res, 200, ImportReplySchema), {
    imported: { posts: 0, following: 2, blocks: 0, mutes: 0, bookmarks: 0 },
    skipped: { posts: 0, following: 2, blocks: 0, mutes: 0, bookmarks: 0 },
  })
  const blocked = await importFile(me.token, 'blocked_accounts.csv', `${cal.username}@CHIRP.example\n`)
  t.match(expectOk(t, blocked, 200, ImportReplySchema).imported, { blocks: 1 }, 'without a header')
  const muted = await importFile(me.token, 'muted_accounts.csv', `Account address\n${bea.username}\n`)
  t.match(expectOk(t, muted, 200, ImportReplySchema).imported, { mutes: 1 })
  expectError(t, await importFile(me.token, 'notes.txt', 'hello'), 400, MSG.importUnknownFile)
})

await t.test('every hostile archive is refused, and nothing is imported', async (t) => {
  const me = await signup(api)
  const posts = JSON.stringify([{ content: 'hello', createdAt: '2020-01-01T00:00:00.000Z' }])
  const cases: [string, Buffer, number, string][] = [
    [
      'a name climbing out',
      rawZip([
        { name: '../evil.json', data: '[]' },
        { name: 'posts.json', data: posts },
      ]),
      400,
      MSG.importUnsafeName,
    ],
    ['an absolute name', rawZip([{ name: '/etc/evil', data: 'x' }]), 400, MSG.importUnsafeName],
    ['a backslash', rawZip([{ name: 'media\\..\\evil.png', data: 'x' }]), 400, MSG.importUnsafeName],
    [
      'two files of one name',
      rawZip([
        { name: 'posts.json', data: posts },
        { name: 'posts.json', data: '[]' },
      ]),
      400,
      MSG.importDuplicateName,
    ],
    [
      // ZipCrypto puts a 12-byte header before the data, which the stored size then leaves out.
      'an encrypted entry',
      rawZip([{ name: 'posts.json', data: posts, flags: 1, declaredSize: posts.length - 12 }]),
      400,
      MSG.importEncrypted,
    ],
    [
      'a bomb that declares less than it holds',
      rawZip([{ name: 'posts.json', data: `${posts}${' '.repeat(10_000)}`, method: 8, declaredSize: 100 }]),
      400,
      MSG.importSizesWrong,
    ],
    [
      'an entry declared past 25 MB (here 16 kB)',
      rawZip([{ name: 'posts.json', data: posts, method: 8, declaredSize: 17_000 }]),
      413,
      MSG.importTooLarge,
    ],
    [
      'entries inflating past 1 GB (here 48 kB)',
      rawZip(
        Array.from({ length: 4 }, (_, i) => ({ name: `filler-${i}`, data: 'x'.repeat(15_000), method: 8 as const })),
      ),
      413,
      MSG.importTooLarge,
    ],
    [
      'more than 10,000 entries (here 20)',
      rawZip(Array.from({ length: 21 }, (_, i) => ({ name: `e${i}`, data: '' }))),
      413,
      MSG.importTooManyEntries,
    ],
    [
      'media that is no image',
      await makeZip([
        ['posts.json', JSON.stringify([{ content: 'x', media: 'media/a.png', createdAt: '2020-01-01' }])],
        ['media/a.png', 'not a picture'],
      ]),
      415,
      MSG.importNotImage,
    ],
    ['malformed JSON', await makeZip([['posts.json', '[{"content": ']]), 400, MSG.importInvalidFile],
    [
      'a post of the wrong types',
      await makeZip([['posts.json', '[{"content": 5, "createdAt": "2020-01-01"}]']]),
      400,
      MSG.importInvalidFile,
    ],
    ['a post without a date', await makeZip([['posts.json', '[{"content": "x"}]']]), 400, MSG.importInvalidFile],
    ['bookmarks that are no list', await makeZip([['bookmarks.json', '{"postId": "x"}']]), 400, MSG.importInvalidFile],
    [
      'zip bytes that are no zip',
      Buffer.concat([Buffer.from('PK\x03\x04'), Buffer.alloc(200, 7)]),
      400,
      MSG.importNotZip,
    ],
    [
      'an upload past 100 MB (here 64 kB)',
      Buffer.concat([Buffer.from('PK\x03\x04'), Buffer.alloc(70_000)]),
      413,
      MSG.importTooLarge,
    ],
  ]
  const before = await snapshotDb(api)
  for (const [what, archive, status, message] of cases) {
    expectError(t, await importFile(me.token, 'archive.zip', archive), status, message, what)
  }
  const tooMany = Array.from({ length: 21 }, (_, i) => `person_${i}`).join('\n')
  expectError(
    t,
    await importFile(me.token, 'following_accounts.csv', tooMany),
    400,
    MSG.importTooManyEntries,
    'a list past 10,000 (here 20)',
  )
  expectError(
    t,
    await importFile(me.token, 'following_accounts.csv', `${'x'.repeat(2000)}\n`),
    400,
    MSG.importInvalidFile,
    'a line longer than any list has',
  )
  t.strictSame(await snapshotDb(api), before, 'nothing stored changed')
  t.strictSame(await postsOf(me.token, me.username), [], 'no post was imported')
})

await t.test('the guest imports nothing; without a file, a 400', async (t) => {
  const guest = await api.login('guest')
  expectError(t, await importFile(guest, 'following_accounts.csv', 'maya.lin\n'), 403, MSG.guestUnchangeable)
  const me = await signup(api)
  const noFile = await api.as(me.token, {
    method: 'POST',
    url: '/api/account/import',
    ...multipart('other', 'a.zip', 'application/zip', Buffer.from('x')),
  })
  expectError(t, noFile, 400, MSG.noFile)
})

await t.test('an imported block takes back notifications between the two, as a block does', async (t) => {
  const [me, bea] = [await signup(api), await signup(api)]
  const mine = await call(api, me.token, 'POST', '/api/posts', { content: 'a post bea likes' })
  const postId = (mine.json() as { post: { _id: string } }).post._id
  await call(api, bea.token, 'POST', `/api/posts/like/${postId}`)
  await call(api, bea.token, 'POST', `/api/users/follow/${me.user._id}`)
  type Unread = { unread: number; notifications: unknown[] }
  const before = (await call(api, me.token, 'GET', '/api/notifications')).json() as Unread
  t.equal(before.unread, 2, 'a like and a follow')
  const res = await importFile(me.token, 'blocked_accounts.csv', `${bea.username}\n`)
  t.match(expectOk(t, res, 200, ImportReplySchema).imported, { blocks: 1 })
  const after = (await call(api, me.token, 'GET', '/api/notifications')).json() as Unread
  t.equal(after.unread, 0, 'the unread count drops')
  t.strictSame(after.notifications, [], 'and nothing is listed')
})
