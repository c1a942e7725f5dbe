import t from 'tap'
import type { Test } from 'tap'
import * as MSG from '../../common/messages.js'
import { PostReplySchema, PostsReplySchema, type Post } from '../../server/schemas/posts.js'
import { UserReplySchema } from '../../server/schemas/users.js'
import { statusIdOf } from '../../server/services/status-ids.js'
import { buildApiApp, expectError, expectOk, signup, type SignedUp } from '../helpers/api.js'

/** Quote controls (DECISIONS §15): who may quote a person's posts, on every path that quotes. */
const api = await buildApiApp(t)
const MINIMAL = { prefer: 'return=minimal' }

const call = (who: SignedUp, method: 'GET' | 'POST', url: string, payload?: object) =>
  api.as(who.token, { method, url, headers: MINIMAL, ...(payload ? { payload } : {}) })
const setPolicy = (who: SignedUp, quotePolicy: unknown) =>
  call(who, 'POST', '/api/users/edit', { userData: { quotePolicy } })
async function newPost(who: SignedUp, content: string, extra: object = {}): Promise<Post> {
  const res = await call(who, 'POST', '/api/posts', { content, ...extra })
  if (res.statusCode !== 201) throw new Error(`post: ${res.statusCode} ${res.body}`)
  return (res.json() as { post: Post }).post
}
const quote = (who: SignedUp, post: Post) => call(who, 'POST', '/api/posts', { content: 'look', quoteOf: post._id })
/** A quote through the Mastodon API, where a Chirp session token is a bearer token. */
const mastodonQuote = (who: SignedUp, post: Post) =>
  api.app.inject({
    method: 'POST',
    url: '/api/v1/statuses',
    headers: { authorization: `Bearer ${who.token}` },
    payload: { status: 'look', quoted_status_id: statusIdOf({ at: post.createdAt, postId: post._id }) },
  })
const own = async (t: Test, who: SignedUp) =>
  expectOk(t, await call(who, 'GET', `/api/users/${who.username}`), 200, UserReplySchema).user

await t.test('anyone may quote until the author says otherwise', async (t) => {
  const [alice, bob] = [await signup(api), await signup(api)]
  t.equal((await own(t, alice)).quotePolicy, 'anyone', 'the default')
  const post = await newPost(alice, 'open')
  t.equal(post.quotePolicy, undefined, 'an open post says nothing of it')
  t.equal(expectOk(t, await quote(bob, post), 201, PostReplySchema).post.quoteOf, post._id, 'quoted')
})

await t.test('nobody: every path refuses everyone but the author, for old posts too', async (t) => {
  const [alice, bob] = [await signup(api), await signup(api)]
  const old = await newPost(alice, 'written before')
  const saved = expectOk(t, await setPolicy(alice, 'nobody'), 201, UserReplySchema)
  t.equal(saved.user.quotePolicy, 'nobody', 'the answer says it')
  t.equal((await own(t, alice)).quotePolicy, 'nobody', 'kept')
  const seen = expectOk(t, await call(bob, 'GET', `/api/users/${alice.username}`), 200, UserReplySchema)
  t.equal(seen.user.quotePolicy, 'nobody', 'others see it on the profile')
  const read = expectOk(t, await call(bob, 'GET', `/api/posts/${old._id}`), 200, PostReplySchema)
  t.equal(read.post.quotePolicy, 'nobody', 'and on the post')
  expectError(t, await quote(bob, old), 403, MSG.quoteNotAllowed, 'an old post')
  const fresh = await newPost(alice, 'written after')
  expectError(t, await quote(bob, fresh), 403, MSG.quoteNotAllowed, 'a new post')
  const viaMastodon = await mastodonQuote(bob, fresh)
  t.equal(viaMastodon.statusCode, 403, 'the Mastodon API refuses it too')
  t.strictSame(viaMastodon.json(), { error: MSG.quoteNotAllowed }, 'with the same words')
  const bobs = expectOk(t, await call(bob, 'GET', `/api/posts/user/${bob.username}`), 200, PostsReplySchema)
  t.strictSame(bobs.posts, [], 'and nothing was posted')
  t.equal(expectOk(t, await quote(alice, old), 201, PostReplySchema).post.quoteOf, old._id, 'the author may')
})

await t.test('followers: only an accepted follow may quote', async (t) => {
  const [alice, bob, carol, dan] = [await signup(api), await signup(api), await signup(api), await signup(api)]
  const post = await newPost(alice, 'for my followers to quote')
  expectOk(t, await setPolicy(alice, 'followers'), 201, UserReplySchema)
  await call(bob, 'POST', `/api/users/follow/${alice.user._id}`)
  t.equal(expectOk(t, await quote(bob, post), 201, PostReplySchema).post.quoteOf, post._id, 'a follower may')
  expectError(t, await quote(carol, post), 403, MSG.quoteNotAllowed, 'a stranger')
  t.equal((await mastodonQuote(carol, post)).statusCode, 403, 'a stranger through the Mastodon API')
  // A request waiting for approval is no follow.
  expectOk(t, await call(alice, 'POST', '/api/users/edit', { userData: { locked: true } }), 201, UserReplySchema)
  await call(dan, 'POST', `/api/users/follow/${alice.user._id}`)
  expectError(t, await quote(dan, post), 403, MSG.quoteNotAllowed, 'a follow request waiting')
  await call(bob, 'POST', `/api/users/unfollow/${alice.user._id}`)
  expectError(t, await quote(bob, post), 403, MSG.quoteNotAllowed, 'no more once unfollowed')
  expectOk(t, await setPolicy(alice, 'anyone'), 201, UserReplySchema)
  t.equal((await own(t, alice)).quotePolicy, 'anyone', 'open again')
  t.equal(expectOk(t, await quote(carol, post), 201, PostReplySchema).post.quoteOf, post._id, 'then anyone may')
})

await t.test('a policy that is none of the three is refused and changes nothing', async (t) => {
  const alice = await signup(api)
  expectOk(t, await setPolicy(alice, 'followers'), 201, UserReplySchema)
  for (const bad of ['everyone', '', 3, null]) t.equal((await setPolicy(alice, bad)).statusCode, 400, `${String(bad)}`)
  t.equal((await own(t, alice)).quotePolicy, 'followers', 'kept as it was')
  expectOk(
    t,
    await call(alice, 'POST', '/api/users/edit', { userData: { bio: 'another change' } }),
    201,
    UserReplySchema,
  )
  t.equal((await own(t, alice)).quotePolicy, 'followers', 'an edit of something else keeps it')
})
