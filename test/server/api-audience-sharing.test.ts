import t from 'tap'
import type { Visibility } from '../../common/audience.js'
import { MSG } from '../../server/errors.js'
import { PostReplySchema, type Post } from '../../server/schemas/posts.js'
import { buildApiApp, expectError, expectOk, signup, type SignedUp } from '../helpers/api.js'
import { call } from '../helpers/moderation.js'

/**
 * What may be shared (DECISIONS §12): a `followers` or `direct` post cannot be reposted, by anyone, nor
 * quoted by anyone but its author; its author may pin a `followers` post, not a `direct` one. Each
 * refusal changes nothing.
 */
const api = await buildApiApp(t)
const [author, follower, mentioned, stranger] = [
  await signup(api),
  await signup(api),
  await signup(api),
  await signup(api),
]
await call(api, follower.token, 'POST', `/api/users/follow/${author.user._id}`)

const post = async (who: SignedUp, visibility: Visibility, content = `hello @${mentioned.username}`) =>
  ((await call(api, who.token, 'POST', '/api/posts', { content, visibility })).json() as { post: Post }).post
const read = async (postId: string) =>
  ((await call(api, author.token, 'GET', `/api/posts/${postId}`)).json() as { post: Post }).post
const postCount = async (who: SignedUp) =>
  ((await call(api, who.token, 'GET', `/api/posts/user/${who.username}`)).json() as { posts: Post[] }).posts.length
const unread = async (who: SignedUp) =>
  ((await call(api, who.token, 'GET', '/api/notifications')).json() as { unread: number }).unread

await t.test('a followers or direct post cannot be reposted, not even by its author', async (t) => {
  for (const visibility of ['followers', 'direct'] as const) {
    const closed = await post(author, visibility)
    const before = await unread(author)
    const readers = visibility === 'followers' ? ([[follower, 'a follower']] as const) : []
    for (const [who, by] of [[author, 'its author'], ...readers, [mentioned, 'the person it mentions']] as const) {
      const res = await call(api, who.token, 'POST', `/api/posts/repost/${closed._id}`)
      expectError(t, res, 400, MSG.postNotRepostable, `${visibility}, by ${by}`)
      t.equal(res.json<{ code: string }>().code, 'post_not_repostable', 'its code')
    }
    const outsiders = visibility === 'direct' ? ([[follower, 'a follower']] as const) : []
    for (const [who, by] of [...outsiders, [stranger, 'a stranger']] as const) {
      const res = await call(api, who.token, 'POST', `/api/posts/repost/${closed._id}`)
      expectError(t, res, 404, MSG.postNotFound, `${visibility}, by ${by} who may not read it`)
    }
    const now = await read(closed._id)
    t.equal(now.repostCount, 0, `${visibility}: no repost counted`)
    t.equal(now.reposted, false, `${visibility}: not reposted`)
    t.equal(await unread(author), before, `${visibility}: nobody notified`)
  }
})

await t.test('a public or unlisted post may be reposted', async (t) => {
  for (const visibility of ['public', 'unlisted'] as const) {
    const open = await post(author, visibility)
    const res = await call(api, stranger.token, 'POST', `/api/posts/repost/${open._id}`)
    t.equal(expectOk(t, res, 201, PostReplySchema, visibility).post.repostCount, 1, `${visibility}: reposted`)
  }
})

await t.test('a followers or direct post cannot be quoted by others; its author may quote it', async (t) => {
  for (const visibility of ['followers', 'direct'] as const) {
    const closed = await post(author, visibility)
    const readers = visibility === 'followers' ? ([[follower, 'a follower']] as const) : []
    for (const [who, by] of [...readers, [mentioned, 'the person it mentions']] as const) {
      const before = await postCount(who)
      const res = await call(api, who.token, 'POST', '/api/posts', { content: 'look', quoteOf: closed._id })
      expectError(t, res, 400, MSG.postNotQuotable, `${visibility}, by ${by}`)
      t.equal(await postCount(who), before, `${visibility}, by ${by}: no post written`)
    }
    // Whoever may not read it learns nothing of it: not there, as its page says.
    const outsiders = visibility === 'direct' ? ([[follower, 'a follower']] as const) : []
    for (const [who, by] of [...outsiders, [stranger, 'a stranger']] as const) {
      const before = await postCount(who)
      const res = await call(api, who.token, 'POST', '/api/posts', { content: 'look', quoteOf: closed._id })
      expectError(t, res, 404, MSG.postNotFound, `${visibility}, by ${by} who may not read it`)
      t.equal(await postCount(who), before, `${visibility}, by ${by}: no post written`)
    }
    const own = await call(api, author.token, 'POST', '/api/posts', { content: 'again', quoteOf: closed._id })
    t.equal(own.statusCode, 201, `${visibility}: its author quotes it`)
  }
  const open = await post(author, 'unlisted')
  const quote = await call(api, stranger.token, 'POST', '/api/posts', { content: 'look', quoteOf: open._id })
  t.equal(quote.statusCode, 201, 'an unlisted post may be quoted by anyone')
})

await t.test('its author may pin a followers post, not a direct one', async (t) => {
  const closed = await post(author, 'followers')
  const pinned = await call(api, author.token, 'POST', `/api/posts/pin/${closed._id}`)
  t.equal(expectOk(t, pinned, 200, PostReplySchema, 'a followers post').post.pinned, true, 'pinned')
  const direct = await post(author, 'direct')
  const res = await call(api, author.token, 'POST', `/api/posts/pin/${direct._id}`)
  expectError(t, res, 400, MSG.directNotPinnable, 'a direct post')
  t.notOk((await read(direct._id)).pinned, 'not pinned')
  const unpinned = await call(api, author.token, 'POST', `/api/posts/unpin/${closed._id}`)
  t.equal(unpinned.statusCode, 200, 'unpinning stays open')
})
