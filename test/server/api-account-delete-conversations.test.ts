import t from 'tap'
import { EmptyObjectSchema } from '../../server/schemas/common.js'
import { expectOk, signup, type SignedUp } from '../helpers/api.js'
import { buildLiveApi } from '../helpers/live-api.js'
import { call, commentBy, postBy } from '../helpers/moderation.js'

/**
 * Deleting an account (DECISIONS §9) with the conversations of §10: its reposts, poll votes, replies and
 * the replies to its comments, its pins and the quotes of its posts all follow, and open screens hear of it.
 */
const live = await buildLiveApi(t, { config: { pollDaySeconds: 3600 } })
const { api } = live

interface Post {
  _id: string
  repostCount: number
  commentCount: number
  repostedBy?: { _id: string }
  quote?: { _id: string } | null
  poll?: { votes: number | null; options: { votes: number | null }[] }
}
const read = async (who: SignedUp, postId: string) =>
  ((await call(api, who.token, 'GET', `/api/posts/${postId}`)).json() as { post: Post }).post
const feedOf = async (who: SignedUp) =>
  ((await call(api, who.token, 'GET', '/api/feed?limit=50')).json() as { posts: Post[] }).posts
const reply = async (who: SignedUp, postId: string, replyTo: string) => {
  const res = await call(api, who.token, 'POST', `/api/comments/add/${postId}`, { text: 'a reply', replyTo })
  const comments = (res.json() as { comments: { _id: string }[] }).comments
  return (comments[comments.length - 1] as { _id: string })._id
}

await t.test('its reposts, votes, replies, pins and quoted posts go, with every count', async (t) => {
  const [leaver, bea, cal] = [await signup(api), await signup(api), await signup(api)]
  await call(api, cal.token, 'POST', `/api/users/follow/${leaver.user._id}`)
  // Reposts: bea's post, reposted by the leaver, is in cal's home feed through them.
  const beasPost = await postBy(api, bea.token, 'bea writes')
  await call(api, leaver.token, 'POST', `/api/posts/repost/${beasPost}`)
  await call(api, cal.token, 'POST', `/api/posts/repost/${beasPost}`)
  // A poll both vote in.
  const created = await call(api, bea.token, 'POST', '/api/posts', {
    content: 'Which one?',
    poll: { options: ['tea', 'coffee'], days: 1 },
  })
  const poll = (created.json() as { post: Post }).post._id
  await call(api, leaver.token, 'POST', `/api/polls/${poll}/vote`, { choice: 0 })
  await call(api, bea.token, 'POST', `/api/polls/${poll}/vote`, { choice: 1 })
  // Their comment with cal's reply to it, bea's comment with their reply to it.
  const theirs = await commentBy(api, leaver.token, beasPost, 'the leaver comments')
  await reply(cal, beasPost, theirs)
  const beas = await commentBy(api, bea.token, beasPost, 'bea comments')
  await reply(leaver, beasPost, beas)
  // Their pinned post, quoted by bea.
  const pinned = await postBy(api, leaver.token, 'pinned by the leaver')
  await call(api, leaver.token, 'POST', `/api/posts/pin/${pinned}`)
  const quoted = await call(api, bea.token, 'POST', '/api/posts', { content: 'quoting', quoteOf: pinned })
  const quote = (quoted.json() as { post: Post }).post._id

  const before = await read(bea, beasPost)
  t.equal(before.repostCount, 2, 'two reposts before')
  t.equal(before.commentCount, 4, 'four comments before')
  t.equal((await read(bea, poll)).poll?.votes, 2, 'two votes before')
  t.equal((await read(bea, quote)).quote?._id, pinned, 'the quote shows their post before')
  const reposted = (await feedOf(cal)).filter((post) => post._id === beasPost)
  t.equal(reposted.length, 1, "bea's post is in cal's feed once")

  const stream = await live.stream(t, bea)
  expectOk(
    t,
    await call(api, leaver.token, 'DELETE', '/api/account', { password: leaver.password }),
    200,
    EmptyObjectSchema,
  )
  const deleted = await stream.until((m) => m.event === 'post.deleted' && m.data?.includes(pinned) === true, 3000)
  t.ok(deleted, 'an open screen hears that their pinned post went')
  const gone = await stream.until((m) => m.event === 'user.deleted', 3000)
  t.equal((JSON.parse(gone.data ?? '{}') as { userId: string }).userId, leaver.user._id, 'and that they went')

  const after = await read(bea, beasPost)
  t.equal(after.repostCount, 1, 'their repost is off the count')
  t.equal(after.commentCount, 1, 'their comment, the reply to it and their reply are off the count')
  const comments = (await call(api, bea.token, 'GET', `/api/comments/${beasPost}`)).json() as {
    comments: { _id: string }[]
  }
  t.strictSame(
    comments.comments.map((comment) => comment._id),
    [beas],
    "only bea's comment is left",
  )
  const votes = (await read(bea, poll)).poll
  t.equal(votes?.votes, 1, 'their vote is off the poll')
  t.strictSame(
    votes?.options.map((option) => option.votes),
    [0, 1],
    'and off its option',
  )
  t.equal((await read(bea, quote)).quote, null, 'the quote of their post reads null')
  const feed = await feedOf(cal)
  t.notOk(
    feed.some((post) => post.repostedBy?._id === leaver.user._id),
    "cal's home feed shows none of their reposts",
  )
  t.equal(
    (await call(api, bea.token, 'GET', `/api/posts/${pinned}`)).statusCode,
    404,
    'their pinned post is gone with their posts',
  )
  t.equal(
    (await call(api, bea.token, 'GET', `/api/posts/user/${leaver.username}`)).statusCode,
    404,
    'and their profile with its pins',
  )
})
