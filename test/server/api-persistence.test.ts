import { readdir, readFile, rename, writeFile } from 'node:fs/promises'
import path from 'node:path'
import t from 'tap'
import { PostReplySchema, PostsReplySchema, type Post } from '../../server/schemas/posts.js'
import { UserReplySchema, UsersReplySchema } from '../../server/schemas/users.js'
import { startApp, tempDataDir, testConfig } from '../helpers/app.js'
import { embeddedOnly } from '../helpers/store-under-test.js'
import { buildApiApp, expectOk, IMAGE_BYTES, multipart, signup, snapshotApp, storedText } from '../helpers/api.js'

const MINIMAL = { prefer: 'return=minimal' }
const dbFile = (dataDir: string) => path.join(dataDir, 'db.json')

await t.test('everything written through the API survives a restart on the same directory', async (t) => {
  const first = await buildApiApp(t)
  const guest = await first.login('guest')
  const me = await signup(first)
  const as = (token: string, method: 'POST' | 'DELETE', url: string, payload?: object) =>
    first.as(token, { method, url, headers: MINIMAL, ...(payload ? { payload } : {}) })

  const post = (
    (await as(me.token, 'POST', '/api/posts', { content: 'written before the restart' })).json() as { post: Post }
  ).post
  const uploaded = await first.as(me.token, {
    method: 'POST',
    url: '/api/media',
    ...multipart('file', 'a.png', 'image/png', IMAGE_BYTES.png),
  })
  const { url } = uploaded.json() as { url: string }
  const image = (await first.as(undefined, { method: 'GET', url })).rawPayload
  const withImage = (
    (await as(me.token, 'POST', '/api/posts', { content: '', mediaUrl: url })).json() as { post: Post }
  ).post
  const doomed = (
    (await as(me.token, 'POST', '/api/posts', { content: 'deleted before the restart' })).json() as { post: Post }
  ).post
  const commented = (
    (await as(me.token, 'POST', `/api/comments/add/${post._id}`, { text: 'a kept comment' })).json() as { post: Post }
  ).post
  const commentId = commented.comments[0]?._id as string
  const maya = (await first.as(undefined, { method: 'GET', url: '/api/users/maya.lin' })).json() as {
    user: { _id: string }
  }
  const steps = [
    await as(guest, 'POST', `/api/posts/like/${post._id}`),
    await as(guest, 'POST', `/api/comments/upvote/${post._id}/${commentId}`),
    await as(me.token, 'POST', `/api/posts/edit/${post._id}`, { content: 'edited before the restart' }),
    await as(me.token, 'DELETE', `/api/posts/${doomed._id}`),
    await as(me.token, 'POST', `/api/users/follow/${maya.user._id}`),
    await as(me.token, 'POST', `/api/users/bookmark/${post._id}`),
    await as(me.token, 'POST', '/api/users/edit', { bio: 'kept across restarts', website: 'https://example.com' }),
  ]
  t.strictSame(
    steps.map((res) => res.statusCode),
    [201, 201, 201, 201, 200, 200, 201],
    'every write succeeded',
  )
  await first.app.close()

  const second = await buildApiApp(t, { dataDir: first.dataDir })
  const get = (url: string, token?: string) => second.as(token, { method: 'GET', url })
  t.equal(
    expectOk(t, await get('/api/posts'), 200, PostsReplySchema).posts.length,
    13 + 2,
    'the seeded posts plus mine, not reseeded',
  )
  const kept = expectOk(t, await get(`/api/posts/${post._id}`), 200, PostReplySchema).post
  t.equal(kept.content, 'edited before the restart')
  t.strictSame(
    kept.likes.likedBy.map((user) => user.username),
    ['guest'],
  )
  t.equal(kept.likes.likeCount, 1)
  t.match(kept.comments, [{ _id: commentId, text: 'a kept comment', votes: { upvotedBy: [{ username: 'guest' }] } }])
  t.equal((await get(`/api/posts/${doomed._id}`)).statusCode, 404, 'the deleted post stays deleted')
  t.equal(expectOk(t, await get(`/api/posts/${withImage._id}`), 200, PostReplySchema).post.mediaUrl, url)
  const served = await get(url)
  t.ok(
    served.statusCode === 200 && image.length > 0 && served.rawPayload.equals(image),
    'the upload is still served, byte for byte',
  )

  const token = await second.login(me.username, me.password)
  const mine = expectOk(t, await get(`/api/users/${me.username}`, token), 200, UserReplySchema).user
  t.match(mine, { bio: 'kept across restarts', website: 'https://example.com', bookmarks: [{ _id: post._id }] })
  t.strictSame(
    mine.following.map((user) => user.username),
    ['maya.lin'],
  )
  const mayaAfter = expectOk(t, await get('/api/users/maya.lin'), 200, UserReplySchema).user
  t.ok(
    mayaAfter.followers.some((user) => user._id === me.user._id),
    'both sides of the follow',
  )
  t.equal(
    (await second.as(me.token, { method: 'GET', url: '/api/feed' })).statusCode,
    200,
    'a token from before the restart still works',
  )
})

await t.test('a write is on disk by the time it is acknowledged, concurrent ones too', async (t) => {
  const api = await buildApiApp(t)
  const token = await api.login('noah_kim')
  const one = await api.as(token, {
    method: 'POST',
    url: '/api/posts',
    payload: { content: 'durable' },
    headers: MINIMAL,
  })
  const id = (one.json() as { post: Post }).post._id
  // What a second app finds in a copy of the directory taken now is what had reached the disk.
  const early = await snapshotApp(t, api)
  t.equal(
    (await early.app.inject({ method: 'GET', url: `/api/posts/${id}` })).statusCode,
    200,
    'on disk when the 201 arrives',
  )

  const many = await Promise.all(
    Array.from({ length: 25 }, (_, i) =>
      api.as(token, { method: 'POST', url: '/api/posts', payload: { content: `burst ${i}` }, headers: MINIMAL }),
    ),
  )
  t.ok(
    many.every((res) => res.statusCode === 201),
    'every concurrent write succeeds',
  )
  const late = await snapshotApp(t, api)
  const { posts } = expectOk(t, await late.app.inject({ method: 'GET', url: '/api/posts' }), 200, PostsReplySchema)
  const stored = new Set(posts.map((post) => post._id))
  t.ok(
    many.every((res) => stored.has((res.json() as { post: Post }).post._id)),
    'each of them is on disk',
  )
  t.equal(stored.size, 13 + 1 + 25)
})

await t.test('a corrupt db.json stops the start with a clear message and is left byte for byte', async (t) => {
  const cases: Record<string, [contents: string, reason: RegExp]> = {
    'invalid JSON': ['{"version":1,"users":[', /invalid JSON/],
    'an empty file': ['', /the file is empty/],
    'only whitespace': [' \n\t\n', /the file is empty/],
    'JSON that is not a Chirp database': ['{"hello":"world"}', /not a Chirp database/],
    'an array': ['[]', /not a Chirp database/],
    null: ['null', /not a Chirp database/],
  }
  for (const [what, [contents, reason]] of Object.entries(cases)) {
    const dir = await tempDataDir(t)
    await writeFile(dbFile(dir), contents)
    const before = await readFile(dbFile(dir))
    const error = await startApp(testConfig(dir)).then(
      () => undefined,
      (caught: unknown) => caught as Error,
    )
    t.ok(error, `${what}: the start fails`)
    t.match(error?.message, reason, `${what}: says why`)
    t.match(error?.message, dbFile(dir), `${what}: names the file`)
    t.match(error?.message, /untouched/, `${what}: says the file was left alone`)
    t.ok((await readFile(dbFile(dir))).equals(before), `${what}: the file is byte-identical`)
    t.notOk((await readdir(dir)).includes('media'), `${what}: nothing was seeded beside it`)
  }
})

await t.test('once the corrupt file is moved away, the next start seeds afresh', async (t) => {
  const dir = await tempDataDir(t)
  await writeFile(dbFile(dir), '{')
  await t.rejects(startApp(testConfig(dir)), /could not be read/)
  await rename(dbFile(dir), `${dbFile(dir)}.broken`)
  const api = await buildApiApp(t, { dataDir: dir })
  const { posts } = expectOk(t, await api.app.inject({ method: 'GET', url: '/api/posts' }), 200, PostsReplySchema)
  t.equal(posts.length, 13, 'seeded, and no stale lock')
  t.equal(await readFile(`${dbFile(dir)}.broken`, 'utf8'), '{', 'the moved file is left alone')
})

await t.test('an existing database is never reseeded, nor rewritten by a start', async (t) => {
  const first = await buildApiApp(t)
  const guest = await first.login('guest')
  const own = expectOk(
    t,
    await first.app.inject({ method: 'GET', url: '/api/posts/user/guest' }),
    200,
    PostsReplySchema,
  ).posts
  t.equal(own.length, 1, "guest's one seeded post")
  const removed = await first.as(guest, { method: 'DELETE', url: `/api/posts/${own[0]?._id}`, headers: MINIMAL })
  t.equal(removed.statusCode, 201, 'deleted through the API')
  await first.app.close()

  const before = await storedText(first)
  const second = await buildApiApp(t, { dataDir: first.dataDir })
  t.equal(
    expectOk(t, await second.app.inject({ method: 'GET', url: '/api/posts' }), 200, PostsReplySchema).posts.length,
    12,
    'not reseeded',
  )
  t.equal(
    (await second.app.inject({ method: 'GET', url: `/api/posts/${own[0]?._id}` })).statusCode,
    404,
    'the deleted seed post stays deleted',
  )
  t.equal(
    expectOk(t, await second.app.inject({ method: 'GET', url: '/api/users' }), 200, UsersReplySchema).users.length,
    6,
  )
  t.equal(await storedText(first), before, 'starting wrote nothing')
})

await t.test('a second app on a data directory in use is refused', { skip: embeddedOnly }, async (t) => {
  const first = await buildApiApp(t)
  await t.rejects(startApp(testConfig(first.dataDir)), /in use by another Chirp process/)
  t.equal((await first.app.inject({ method: 'GET', url: '/api/posts' })).statusCode, 200, 'the first keeps working')
  const token = await first.login('guest')
  const write = await first.as(token, { method: 'POST', url: '/api/posts', payload: { content: 'still mine' } })
  t.equal(write.statusCode, 201, 'and writing')
  await first.app.close()
  const second = await buildApiApp(t, { dataDir: first.dataDir })
  t.equal(
    (await second.app.inject({ method: 'GET', url: '/api/posts' })).json<{ posts: unknown[] }>().posts.length,
    14,
    'once it closed, the next one starts',
  )
})
