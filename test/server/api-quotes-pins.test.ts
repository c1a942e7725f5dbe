import t from 'tap'
import type { Test } from 'tap'
import { NotificationsReplySchema } from '../../server/schemas/notifications.js'
import { PostReplySchema, PostsReplySchema, QuotedPostSchema, type Post } from '../../server/schemas/posts.js'
import { buildApiApp, checkSchema, expectError, expectOk, signup, type SignedUp } from '../helpers/api.js'

/** Quote posts and pinned posts (DECISIONS §10, §11). */
let tick = 0
const api = await buildApiApp(t, { options: { now: () => new Date(Date.now() + ++tick * 1000) } })
const MINIMAL = { prefer: 'return=minimal' }
const CANNOT = 'You cannot interact with this user.'
const MISSING = '00000000-0000-4000-8000-000000000000'

const call = (who: SignedUp, url: string, payload: object = {}) =>
  api.as(who.token, { method: 'POST', url, headers: MINIMAL, payload })
const get = (who: SignedUp, url: string) => api.as(who.token, { method: 'GET', url })
async function newPost(who: SignedUp, content: string, extra: object = {}): Promise<Post> {
  const res = await call(who, '/api/posts', { content, ...extra })
  if (res.statusCode !== 201) throw new Error(`post: ${res.statusCode} ${res.body}`)
  return (res.json() as { post: Post }).post
}
const read = async (t: Test, who: SignedUp, post: Post) =>
  expectOk(t, await get(who, `/api/posts/${post._id}`), 200, PostReplySchema).post
const kinds = async (t: Test, who: SignedUp) =>
  expectOk(t, await get(who, '/api/notifications'), 200, NotificationsReplySchema).notifications.map((n) => n.type)

await t.test('a quote carries the quoted post in its compact form', async (t) => {
  const [alice, bob] = [await signup(api), await signup(api)]
  const original = await newPost(alice, 'the original')
  await call(bob, `/api/posts/like/${original._id}`)
  const res = await call(bob, '/api/posts', { content: 'well said', quoteOf: original._id })
  const { post } = expectOk(t, res, 201, PostReplySchema, 'a quote')
  t.equal(post.quoteOf, original._id, 'it names what it quotes')
  t.ok(post.quote && checkSchema(t, QuotedPostSchema, post.quote, 'the quote is a post'), 'the quote is there')
  t.equal(post.quote?._id, original._id, 'the quoted post')
  t.equal(post.quote?.content, 'the original', 'with its text')
  t.equal(post.quote?.image, undefined, 'compact: no aliases')
  t.strictSame(post.quote?.comments, [], 'compact: no comments')
  t.equal(post.quote?.likes.likeCount, 1, 'with its true counts')
  t.strictSame(
    post.quote?.likes.likedBy.map((u) => u._id),
    [bob.user._id],
    'and only the reader among its likers',
  )
  const listed = expectOk(t, await get(alice, `/api/posts/user/${bob.username}?compact=1`), 200, PostsReplySchema)
  t.equal(listed.posts[0]?.quote?._id, original._id, 'lists carry the quote too')
  t.strictSame(await kinds(t, alice), ['quote', 'like'], 'the quoted author is told')
  await api.as(bob.token, { method: 'DELETE', url: `/api/posts/${post._id}`, headers: MINIMAL })
  t.strictSame(await kinds(t, alice), ['like'], 'and the notice goes with the quote')
})

await t.test('a quote reads null once the quoted post is gone or hidden from the reader', async (t) => {
  const [alice, bob, carol] = [await signup(api), await signup(api), await signup(api)]
  const original = await newPost(alice, 'soon hidden')
  const quote = await newPost(bob, 'quoting', { quoteOf: original._id })
  await call(carol, `/api/users/block/${alice.user._id}`)
  t.equal((await read(t, carol, quote)).quote, null, 'to a reader who blocks the quoted author')
  t.equal((await read(t, bob, quote)).quote?._id, original._id, 'others still see it')
  await api.as(alice.token, { method: 'DELETE', url: `/api/posts/${original._id}`, headers: MINIMAL })
  const after = await read(t, bob, quote)
  t.equal(after.quote, null, 'deleted: null')
  t.equal(after.quoteOf, original._id, 'while it still names what it quoted')
})

await t.test('quote refusals', async (t) => {
  const [alice, bob] = [await signup(api), await signup(api)]
  expectError(t, await call(bob, '/api/posts', { content: 'x', quoteOf: MISSING }), 404, 'Post not found', 'unknown')
  const original = await newPost(alice, 'no quoting me')
  await call(alice, `/api/users/block/${bob.user._id}`)
  expectError(t, await call(bob, '/api/posts', { content: 'x', quoteOf: original._id }), 403, CANNOT, 'blocked')
  const his = await newPost(bob, 'his')
  expectError(t, await call(alice, '/api/posts', { content: 'x', quoteOf: his._id }), 403, CANNOT, 'blocker')
})

await t.test('pins: own posts only, at most 3, listed first on the profile', async (t) => {
  const [alice, bob] = [await signup(api), await signup(api)]
  const posts: Post[] = []
  for (let i = 0; i < 6; i++) posts.push(await newPost(alice, `post ${i}`))
  const [p0, p1, p2, p3] = posts as [Post, Post, Post, Post]
  const pinned = expectOk(t, await call(alice, `/api/posts/pin/${p1._id}`), 200, PostReplySchema, 'pin')
  t.equal(pinned.post.pinned, true, 'the post is pinned')
  expectOk(t, await call(alice, `/api/posts/pin/${p1._id}`), 200, PostReplySchema, 'pinning again changes nothing')
  expectError(t, await call(bob, `/api/posts/pin/${p0._id}`), 403, 'You are not allowed to do this.', "others'")
  expectError(t, await call(bob, `/api/posts/unpin/${p1._id}`), 403, 'You are not allowed to do this.', 'unpin')
  expectError(t, await call(alice, `/api/posts/pin/${MISSING}`), 404, 'Post not found', 'unknown')
  await call(alice, `/api/posts/pin/${p0._id}`)
  await call(alice, `/api/posts/pin/${p2._id}`)
  expectError(t, await call(alice, `/api/posts/pin/${p3._id}`), 400, 'You can pin at most 3 posts.', 'a fourth')

  const whole = expectOk(t, await get(bob, `/api/posts/user/${alice.username}`), 200, PostsReplySchema).posts
  const newest = [...posts].reverse().map((p) => p._id)
  const pins = [p2._id, p0._id, p1._id]
  t.strictSame(
    whole.map((p) => p._id),
    [...pins, ...newest.filter((id) => !pins.includes(id))],
    'the pinned first, most recently pinned first, then the rest without them',
  )
  t.strictSame(
    whole.map((p) => p.pinned === true),
    [true, true, true, false, false, false],
    'pinned: true on the pinned',
  )
  const walked: string[] = []
  let cursor: string | null = null
  for (let pages = 0; pages < 10; pages++) {
    const url: string = `/api/posts/user/${alice.username}?limit=2${cursor ? `&cursor=${cursor}` : ''}`
    const page = expectOk(t, await get(bob, url), 200, PostsReplySchema)
    walked.push(...page.posts.map((p) => p._id))
    cursor = page.nextCursor ?? null
    if (cursor === null) break
  }
  t.strictSame(
    walked,
    whole.map((p) => p._id),
    'paged: the pinned on the first page only, nothing twice or missed',
  )
  const unpinned = expectOk(t, await call(alice, `/api/posts/unpin/${p0._id}`), 200, PostReplySchema, 'unpin')
  t.equal(unpinned.post.pinned, undefined, 'no longer pinned')
  expectOk(t, await call(alice, `/api/posts/pin/${p3._id}`), 200, PostReplySchema, 'room for another')
})
