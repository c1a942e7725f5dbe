import t from 'tap'
import type { Test } from 'tap'
import { NotificationsReplySchema } from '../../server/schemas/notifications.js'
import { FeedReplySchema, PostReplySchema, PostsReplySchema, type Post } from '../../server/schemas/posts.js'
import { buildApiApp, expectError, expectOk, signup, type SignedUp } from '../helpers/api.js'

/** Reposts (DECISIONS §10, §11): the calls, the home feed they reach, their notifications, blocks and mutes. */
// Every reading of the clock a second on, so no two writes share an instant.
let tick = 0
const api = await buildApiApp(t, { options: { now: () => new Date(Date.now() + ++tick * 1000) } })
const MINIMAL = { prefer: 'return=minimal' }
const CANNOT = 'You cannot interact with this user.'

const call = (who: SignedUp, url: string, payload: object = {}) =>
  api.as(who.token, { method: 'POST', url, headers: MINIMAL, payload })
const get = (who: SignedUp, url: string) => api.as(who.token, { method: 'GET', url })
async function newPost(who: SignedUp, content: string): Promise<Post> {
  const res = await call(who, '/api/posts', { content })
  if (res.statusCode !== 201) throw new Error(`post: ${res.statusCode} ${res.body}`)
  return (res.json() as { post: Post }).post
}
const repost = (who: SignedUp, post: Post) => call(who, `/api/posts/repost/${post._id}`)
const unrepost = (who: SignedUp, post: Post) => call(who, `/api/posts/unrepost/${post._id}`)
const follow = async (who: SignedUp, other: SignedUp) => {
  const res = await call(who, `/api/users/follow/${other.user._id}`)
  if (res.statusCode !== 200) throw new Error(`follow: ${res.statusCode} ${res.body}`)
}
const feed = async (t: Test, who: SignedUp, query = '') =>
  expectOk(t, await get(who, `/api/feed?limit=100${query}`), 200, FeedReplySchema).posts
const kinds = async (t: Test, who: SignedUp) =>
  expectOk(t, await get(who, '/api/notifications'), 200, NotificationsReplySchema).notifications.map((n) => n.type)
const people = async () => [await signup(api), await signup(api), await signup(api)] as const

await t.test('repost and unrepost: counts, state and their refusals', async (t) => {
  const [alice, bob] = await people()
  const post = await newPost(alice, 'worth sharing')
  t.equal(post.repostCount, 0, 'a new post has no reposts')
  t.equal(post.reposted, false, 'nor is it reposted by its reader')
  const done = expectOk(t, await repost(bob, post), 201, PostReplySchema, 'repost')
  t.equal(done.post.repostCount, 1, 'the count rises')
  t.equal(done.post.reposted, true, 'the caller reposts it')
  const seen = expectOk(t, await get(alice, `/api/posts/${post._id}`), 200, PostReplySchema)
  t.equal(seen.post.repostCount, 1, 'the author sees the count')
  t.equal(seen.post.reposted, false, 'and that they did not repost it')
  const compact = expectOk(t, await get(bob, `/api/posts/user/${alice.username}?compact=1`), 200, PostsReplySchema)
  t.match(compact.posts[0], { repostCount: 1, reposted: true }, 'compact lists carry both')
  expectError(t, await repost(bob, post), 400, 'You have already reposted this post.', 'a second repost')
  const undone = expectOk(t, await unrepost(bob, post), 201, PostReplySchema, 'unrepost')
  t.match(undone.post, { repostCount: 0, reposted: false }, 'the count falls')
  expectError(t, await unrepost(bob, post), 400, 'You have not reposted this post.', 'unrepost without a repost')
  expectOk(t, await repost(alice, post), 201, PostReplySchema, 'an author may repost their own post once')
  const missing = '00000000-0000-4000-8000-000000000000'
  expectError(t, await call(bob, `/api/posts/repost/${missing}`), 404, 'Post not found', 'unknown post')
  expectError(t, await call(bob, `/api/posts/unrepost/${missing}`), 404, 'Post not found', 'unknown post, unrepost')
})

await t.test('the author is told of a repost, and the notice goes with the repost', async (t) => {
  const [alice, bob] = await people()
  const post = await newPost(alice, 'notice me')
  await repost(bob, post)
  t.strictSame(await kinds(t, alice), ['repost'], 'a repost notification')
  await unrepost(bob, post)
  t.strictSame(await kinds(t, alice), [], 'taken back with the repost')
  await repost(alice, post)
  t.strictSame(await kinds(t, alice), [], 'nobody is told of their own repost')
})

await t.test('a block stops reposts both ways', async (t) => {
  const [alice, bob] = await people()
  const post = await newPost(alice, 'not for bob')
  const his = await newPost(bob, 'not for alice')
  await call(alice, `/api/users/block/${bob.user._id}`)
  expectError(t, await repost(bob, post), 403, CANNOT, 'the blocked person reposting')
  expectError(t, await repost(alice, his), 403, CANNOT, 'the blocker reposting')
})

await t.test('a repost reaches the followers of the reposter, once, as the feed rule says', async (t) => {
  const [reader, friend, other] = await people()
  const stranger = await signup(api)
  await follow(reader, friend)
  await follow(reader, other)
  const post = await newPost(stranger, 'from afar')
  t.notOk(
    (await feed(t, reader)).some((p) => p._id === post._id),
    'not in the feed before a repost',
  )
  await repost(friend, post)
  await repost(other, post)
  const shown = (await feed(t, reader)).filter((p) => p._id === post._id)
  t.equal(shown.length, 1, 'once, however many reposted it')
  t.equal(shown[0]?.repostedBy?._id, friend.user._id, 'by the first who reposted it')
  t.ok(shown[0]?.repostedAt, 'at the time of that repost')
  t.equal(shown[0]?.repostCount, 2, 'with its count')
  await unrepost(friend, post)
  const after = (await feed(t, reader)).filter((p) => p._id === post._id)
  t.equal(after[0]?.repostedBy?._id, other.user._id, 'the next repost takes its place when the first is undone')

  const own = await newPost(friend, 'my own words')
  await repost(other, own)
  const mine = (await feed(t, reader)).filter((p) => p._id === own._id)
  t.equal(mine.length, 1, 'a post by someone followed shows once')
  t.equal(mine[0]?.repostedBy, undefined, 'as itself, not as a repost')

  const compact = expectOk(t, await get(reader, '/api/feed?limit=100&compact=1'), 200, FeedReplySchema).posts
  t.equal(compact.find((p) => p._id === post._id)?.repostedBy?._id, other.user._id, 'compact feeds too')
  const trending = await feed(t, reader, '&sort=trending')
  t.notOk(
    trending.some((p) => p._id === post._id),
    'the most liked order lists posts alone',
  )
  const stranger2 = await signup(api)
  t.notOk(
    (await feed(t, stranger2)).some((p) => p._id === post._id),
    'nobody else gets it',
  )
  const self = await feed(t, other)
  t.equal(self.find((p) => p._id === post._id)?.repostedBy?._id, other.user._id, "the reposter's own feed has it")
})

await t.test('a muted or blocked reposter, or author, hides the repost', async (t) => {
  const [reader, friend] = await people()
  const stranger = await signup(api)
  await follow(reader, friend)
  const post = await newPost(stranger, 'muted away')
  await repost(friend, post)
  t.ok(
    (await feed(t, reader)).some((p) => p._id === post._id),
    'shown at first',
  )
  await call(reader, `/api/users/mute/${friend.user._id}`)
  t.notOk(
    (await feed(t, reader)).some((p) => p._id === post._id),
    'a muted reposter hides it',
  )
  await call(reader, `/api/users/unmute/${friend.user._id}`)
  await call(reader, `/api/users/mute/${stranger.user._id}`)
  t.notOk(
    (await feed(t, reader)).some((p) => p._id === post._id),
    'a muted author hides it',
  )
  await call(reader, `/api/users/unmute/${stranger.user._id}`)
  await call(stranger, `/api/users/block/${reader.user._id}`)
  t.notOk(
    (await feed(t, reader)).some((p) => p._id === post._id),
    'an author who blocks the reader hides it',
  )
})

await t.test('deleting a post takes its reposts with it', async (t) => {
  const [reader, friend, author] = await people()
  await follow(reader, friend)
  const post = await newPost(author, 'short-lived')
  await repost(friend, post)
  await api.as(author.token, { method: 'DELETE', url: `/api/posts/${post._id}`, headers: MINIMAL })
  t.notOk(
    (await feed(t, reader)).some((p) => p._id === post._id),
    'gone from the feed',
  )
  const again = await newPost(author, 'the next one')
  expectOk(t, await repost(friend, again), 201, PostReplySchema, 'the reposter can go on reposting')
})

await t.test('a home feed with reposts pages without duplicates or gaps', async (t) => {
  const [reader, friend, author] = await people()
  await follow(reader, friend)
  const expected: string[] = []
  for (let i = 0; i < 7; i++) {
    const mine = await newPost(i % 2 ? reader : friend, `own ${i}`)
    const theirs = await newPost(author, `shared ${i}`)
    expected.push(mine._id)
    if (i % 3 !== 2) {
      await repost(friend, theirs)
      expected.push(theirs._id)
    }
  }
  // One more repost of an early post: it stays where its first repost put it.
  const whole = await feed(t, reader)
  t.strictSame(
    whole.map((p) => p._id),
    [...expected].reverse(),
    'newest first: posts at their time, reposts at theirs',
  )
  for (const sort of ['latest', 'oldest'] as const) {
    const walked: string[] = []
    let cursor: string | null = null
    for (let pages = 0; pages < 20; pages++) {
      const query: string = `/api/feed?sort=${sort}&limit=2${cursor ? `&cursor=${cursor}` : ''}`
      const page = expectOk(t, await get(reader, query), 200, FeedReplySchema)
      t.ok(page.posts.length <= 2, 'no page is longer than asked')
      walked.push(...page.posts.map((p) => p._id))
      cursor = page.nextCursor
      if (cursor === null) break
    }
    const wanted = sort === 'latest' ? [...expected].reverse() : expected
    t.strictSame(walked, wanted, `${sort}: every entry once, in order`)
  }
})
