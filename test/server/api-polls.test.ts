import t, { type Test } from 'tap'
import { NotificationsReplySchema } from '../../server/schemas/notifications.js'
import { PollVotedEventSchema } from '../../server/schemas/events.js'
import { PostReplySchema, type Post } from '../../server/schemas/posts.js'
import { expectError, expectOk, signup, type SignedUp } from '../helpers/api.js'
import type { TestApp } from '../helpers/app.js'
import { buildLiveApi } from '../helpers/live-api.js'
import { seedWithStaff } from '../helpers/moderation.js'

/** Polls (DECISIONS §10, §11): one vote each, counts only to voters until the poll closes, closing told once. */
const HOUR = 3600
const live = await buildLiveApi(t, { config: { pollDaySeconds: HOUR }, options: { seed: seedWithStaff } })
const { api, stream, expectEvent } = live

const MINIMAL = { prefer: 'return=minimal' }
const create = (app: TestApp, who: SignedUp, payload: object) =>
  app.as(who.token, { method: 'POST', url: '/api/posts', headers: MINIMAL, payload })
const vote = (app: TestApp, who: SignedUp, postId: string, payload: object) =>
  app.as(who.token, { method: 'POST', url: `/api/polls/${postId}/vote`, payload })
const read = async (t: Test, app: TestApp, who: SignedUp, postId: string) =>
  expectOk(t, await app.as(who.token, { method: 'GET', url: `/api/posts/${postId}` }), 200, PostReplySchema).post

async function pollBy(app: TestApp, who: SignedUp, options = ['tea', 'coffee', 'water'], days = 2): Promise<Post> {
  const res = await create(app, who, { content: 'Which one?', poll: { options, days } })
  if (res.statusCode !== 201) throw new Error(`poll: ${res.statusCode} ${res.body}`)
  return (res.json() as { post: Post }).post
}

await t.test('a post carries a poll: its options, when it closes, and no counts to anyone yet', async (t) => {
  const author = await signup(api)
  const res = await create(api, author, { content: 'Which one?', poll: { options: ['tea', 'coffee'], days: 3 } })
  const { post } = expectOk(t, res, 201, PostReplySchema)
  t.strictSame(post.poll, {
    options: [
      { text: 'tea', votes: null },
      { text: 'coffee', votes: null },
    ],
    votes: null,
    closesAt: new Date(Date.parse(post.createdAt) + 3 * HOUR * 1000).toISOString(),
    closed: false,
    voted: null,
  })
  const plain = (await create(api, author, { content: 'no poll' })).json() as { post: Post }
  t.notOk('poll' in plain.post, 'a post without one has no poll field')
})

await t.test('a poll must have 2 to 4 options of 1 to 50 characters and last 1 to 7 days', async (t) => {
  const author = await signup(api)
  const bad = [
    { options: ['only'], days: 1 },
    { options: ['a', 'b', 'c', 'd', 'e'], days: 1 },
    { options: ['a', 'x'.repeat(51)], days: 1 },
    { options: ['a', ''], days: 1 },
    { options: ['a', 'b'], days: 0 },
    { options: ['a', 'b'], days: 8 },
    { options: ['a', 'b'], days: '2' },
    { options: ['a', 'b'] },
  ]
  for (const poll of bad) {
    t.equal((await create(api, author, { content: 'q', poll })).statusCode, 400, JSON.stringify(poll))
  }
  expectError(
    t,
    await create(api, author, { content: 'q', poll: { options: ['a', '   '], days: 1 } }),
    400,
    'poll options must not be blank',
  )
  t.equal(
    (await create(api, author, { content: 'q', poll: { options: ['a', 'x'.repeat(50), 'c', 'd'], days: 7 } }))
      .statusCode,
    201,
    'the limits themselves',
  )
})

await t.test(
  'a vote answers 200 { post } with the counts to the voter, and null counts to who has not voted',
  async (t) => {
    const [author, voter] = [await signup(api), await signup(api)]
    const poll = await pollBy(api, author)
    const { post } = expectOk(t, await vote(api, voter, poll._id, { choice: 1 }), 200, PostReplySchema)
    t.match(post.poll, { voted: 1, votes: 1, closed: false })
    t.strictSame(
      post.poll?.options.map((option) => option.votes),
      [0, 1, 0],
    )
    const asAuthor = await read(t, api, author, poll._id)
    t.strictSame(
      asAuthor.poll?.options.map((option) => option.votes),
      [null, null, null],
      'the author has not voted',
    )
    t.equal(asAuthor.poll?.votes, null)
    t.equal(asAuthor.poll?.voted, null)
    const anonymous = expectOk(
      t,
      await api.as(undefined, { method: 'GET', url: `/api/posts/${poll._id}` }),
      200,
      PostReplySchema,
    )
    t.equal(anonymous.post.poll?.votes, null, 'nor has a visitor')
    const listed = (
      await api.as(voter.token, { method: 'GET', url: `/api/posts/user/${author.username}?compact=1` })
    ).json() as { posts: Post[] }
    t.equal(listed.posts[0]?.poll?.voted, 1, 'lists show the reader their vote too')
    t.equal(listed.posts[0]?.poll?.votes, 1)
  },
)

await t.test('each user votes once: a second vote is a 400', async (t) => {
  const [author, voter] = [await signup(api), await signup(api)]
  const poll = await pollBy(api, author)
  t.equal((await vote(api, voter, poll._id, { choice: 0 })).statusCode, 200)
  expectError(t, await vote(api, voter, poll._id, { choice: 0 }), 400, 'You have already voted.')
  expectError(t, await vote(api, voter, poll._id, { choice: 2 }), 400, 'You have already voted.', 'another choice too')
  t.equal((await read(t, api, voter, poll._id)).poll?.votes, 1, 'counted once')
})

await t.test('a choice that is no option, or no integer, is a 400', async (t) => {
  const [author, voter] = [await signup(api), await signup(api)]
  const poll = await pollBy(api, author)
  expectError(
    t,
    await vote(api, voter, poll._id, { choice: 3 }),
    400,
    "choice must be the index of one of the poll's options",
  )
  for (const choice of [-1, 1.5, '1', null]) {
    t.equal((await vote(api, voter, poll._id, { choice })).statusCode, 400, `choice ${JSON.stringify(choice)}`)
  }
  t.equal((await vote(api, voter, poll._id, {})).statusCode, 400, 'no choice')
  t.equal((await read(t, api, voter, poll._id)).poll?.voted, null, 'none counted')
})

await t.test(
  'a post without a poll is a 404 "Poll not found"; an unknown post "Post not found"; no token a 401',
  async (t) => {
    const [author, voter] = [await signup(api), await signup(api)]
    const plain = (await create(api, author, { content: 'no poll here' })).json() as { post: Post }
    expectError(t, await vote(api, voter, plain.post._id, { choice: 0 }), 404, 'Poll not found')
    expectError(t, await vote(api, voter, '00000000-0000-4000-8000-000000000000', { choice: 0 }), 404, 'Post not found')
    const poll = await pollBy(api, author)
    t.equal(
      (await api.as(undefined, { method: 'POST', url: `/api/polls/${poll._id}/vote`, payload: { choice: 0 } }))
        .statusCode,
      401,
    )
  },
)

await t.test('a vote across a block, either way, is the 403 of §8', async (t) => {
  const [author, voter] = [await signup(api), await signup(api)]
  const poll = await pollBy(api, author)
  const other = await pollBy(api, voter)
  await api.as(author.token, { method: 'POST', url: `/api/users/block/${voter.user._id}` })
  expectError(t, await vote(api, voter, poll._id, { choice: 0 }), 403, 'You cannot interact with this user.', 'blocked')
  expectError(
    t,
    await vote(api, author, other._id, { choice: 0 }),
    403,
    'You cannot interact with this user.',
    'blocker',
  )
})

await t.test(
  'a vote tells every open screen that the poll changed, without counts; each reader reads their own view',
  async (t) => {
    const [author, voter, reader] = [await signup(api), await signup(api), await signup(api)]
    const poll = await pollBy(api, author)
    const theirs = await stream(t, reader)
    await vote(api, voter, poll._id, { choice: 2 })
    const data = await expectEvent(t, theirs, 'poll.voted', PollVotedEventSchema)
    t.strictSame(data, { postId: poll._id }, 'the post, and nothing a non-voter may not see')
    t.equal((await read(t, api, reader, poll._id)).poll?.votes, null, 'the reader who has not voted reads null')
    await vote(api, reader, poll._id, { choice: 2 })
    await expectEvent(t, theirs, 'poll.voted', PollVotedEventSchema)
    t.strictSame(
      (await read(t, api, reader, poll._id)).poll?.options.map((o) => o.votes),
      [0, 0, 2],
      'after voting, both votes',
    )
  },
)

await t.test("a suspended voter's vote does not count until the suspension ends", async (t) => {
  const [author, voter, other] = [await signup(api), await signup(api), await signup(api)]
  const admin = await api.login('maya.lin')
  const poll = await pollBy(api, author)
  await vote(api, voter, poll._id, { choice: 0 })
  await vote(api, other, poll._id, { choice: 1 })
  const suspend = await api.as(admin, {
    method: 'POST',
    url: `/api/admin/users/${voter.user._id}/suspend`,
    payload: { reason: 'spam' },
  })
  t.equal(suspend.statusCode, 200, 'suspended')
  t.strictSame(
    (await read(t, api, other, poll._id)).poll?.options.map((o) => o.votes),
    [0, 1, 0],
    'left out',
  )
  await api.as(admin, { method: 'POST', url: `/api/admin/users/${voter.user._id}/unsuspend` })
  t.strictSame(
    (await read(t, api, other, poll._id)).poll?.options.map((o) => o.votes),
    [1, 1, 0],
    'counted again',
  )
})

/** Until `closesAt` has passed on this machine's clock, which the server reads too. */
async function untilClosed(post: Post) {
  const wait = Date.parse(post.poll?.closesAt ?? '') - Date.now() + 10
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait))
}

await t.test('a poll closes by itself: counts to everyone, votes refused, and its author told once', async (t) => {
  const quick = await buildLiveApi(t, { config: { pollDaySeconds: 1 } })
  const [author, voter, late] = [await signup(quick.api), await signup(quick.api), await signup(quick.api)]
  const poll = await pollBy(quick.api, author, ['yes', 'no'], 1)
  const told = await quick.stream(t, author)
  await vote(quick.api, voter, poll._id, { choice: 0 })
  await untilClosed(poll)
  const reads = await Promise.all([late, late, author].map((who) => read(t, quick.api, who, poll._id)))
  for (const post of reads) {
    t.match(post.poll, { closed: true, votes: 1, voted: null }, 'closed, with its counts to everyone')
    t.strictSame(
      post.poll?.options.map((option) => option.votes),
      [1, 0],
    )
  }
  expectError(t, await vote(quick.api, late, poll._id, { choice: 1 }), 400, 'This poll is closed.')
  t.equal((await quick.nextEvent(told)).event, 'poll.voted', 'the vote, first')
  const event = await quick.nextEvent(told)
  t.equal(event.event, 'notification.created', 'the author hears of it live')
  t.match(JSON.parse(event.data ?? '{}'), { type: 'poll', post: { _id: poll._id }, actor: { _id: author.user._id } })
  await read(t, quick.api, voter, poll._id)
  const listed = expectOk(
    t,
    await quick.api.as(author.token, { method: 'GET', url: '/api/notifications' }),
    200,
    NotificationsReplySchema,
  )
  t.equal(listed.notifications.filter((n) => n.type === 'poll').length, 1, 'exactly one, however many read it')
  const voterNotes = (await quick.api.as(voter.token, { method: 'GET', url: '/api/notifications' })).json() as {
    notifications: unknown[]
  }
  t.equal(voterNotes.notifications.length, 0, 'only the author is told')
})

await t.test('a vote on a poll that closed unread is refused, and it is what tells the author', async (t) => {
  const quick = await buildLiveApi(t, { config: { pollDaySeconds: 1 } })
  const [author, voter] = [await signup(quick.api), await signup(quick.api)]
  const poll = await pollBy(quick.api, author, ['yes', 'no'], 1)
  await untilClosed(poll)
  expectError(t, await vote(quick.api, voter, poll._id, { choice: 0 }), 400, 'This poll is closed.')
  const listed = (await quick.api.as(author.token, { method: 'GET', url: '/api/notifications' })).json() as {
    notifications: { type: string }[]
  }
  t.strictSame(
    listed.notifications.map((n) => n.type),
    ['poll'],
  )
})
