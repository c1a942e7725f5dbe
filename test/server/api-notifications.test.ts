import t, { type Test } from 'tap'
import { defaultAvatarOf } from '../../common/avatars.js'
import { PRESET_AVATARS } from '../../server/schemas/media.js'
import { NotificationsReplySchema, UnreadReplySchema, type Notification } from '../../server/schemas/notifications.js'
import type { Post } from '../../server/schemas/posts.js'
import {
  buildApiApp,
  expectError,
  expectNoSecrets,
  expectOk,
  freshUsername,
  signup,
  type SignedUp,
} from '../helpers/api.js'

/** Notifications (docs/api-contract.md §8) through the API: who hears of what, taking back, reading and pages. Live events: api-notifications-live. */
// A clock a second further on at every reading: notifications made one after another never share an instant,
// so their order is the order they were made in, whatever the speed of the disk.
let clock = Date.now()
const api = await buildApiApp(t, { options: { now: () => new Date((clock += 1000)) } })
const MINIMAL = { prefer: 'return=minimal' }
const INVALID_TOKEN = 'The token is invalid. Unauthorized access error.'

const write = (who: SignedUp, method: 'POST' | 'DELETE', url: string, payload?: object) =>
  api.as(who.token, { method, url, headers: MINIMAL, ...(payload ? { payload } : {}) })
async function newPost(who: SignedUp, content: string): Promise<Post> {
  const res = await write(who, 'POST', '/api/posts', { content })
  if (res.statusCode !== 201) throw new Error(`post: ${res.statusCode} ${res.body}`)
  return (res.json() as { post: Post }).post
}
async function comment(who: SignedUp, postId: string, text: string): Promise<string> {
  const res = await write(who, 'POST', `/api/comments/add/${postId}`, { text })
  return ((res.json() as { post: Post }).post.comments.at(-1) as { _id: string })._id
}
/** The whole first page of `who`'s notifications, checked against its schema. */
async function inbox(t: Test, who: SignedUp, query = '') {
  return expectOk(
    t,
    await api.as(who.token, { method: 'GET', url: `/api/notifications${query}` }),
    200,
    NotificationsReplySchema,
  )
}
const markRead = (who: SignedUp, payload?: object) =>
  api.as(who.token, { method: 'POST', url: '/api/notifications/read', ...(payload ? { payload } : {}) })
/** Three fresh people with names of their own. */
const people = async () => [await signup(api), await signup(api), await signup(api)] as const
const kinds = (notifications: readonly Notification[]) => notifications.map((n) => n.type)

await t.test('both calls need a token', async (t) => {
  expectError(t, await api.app.inject({ method: 'GET', url: '/api/notifications' }), 401, INVALID_TOKEN)
  expectError(
    t,
    await api.app.inject({ method: 'POST', url: '/api/notifications/read', payload: {} }),
    401,
    INVALID_TOKEN,
  )
})

await t.test('a like, a comment, a mention and a follow each notify the person acted on, newest first', async (t) => {
  const [alice, bob] = await people()
  t.strictSame(await inbox(t, alice), { notifications: [], nextCursor: null, unread: 0 }, 'nothing yet')
  const post = await newPost(alice, 'A picture of the sea')
  await write(bob, 'POST', `/api/posts/like/${post._id}`)
  const commentId = await comment(bob, post._id, 'Lovely!')
  const mention = await newPost(bob, `Look at this, @${alice.username}`)
  await write(bob, 'POST', `/api/users/follow/${alice.user._id}`)

  const res = await api.as(alice.token, { method: 'GET', url: '/api/notifications' })
  expectNoSecrets(t, res, 'GET /api/notifications')
  const body = await inbox(t, alice)
  t.strictSame(kinds(body.notifications), ['follow', 'mention', 'comment', 'like'])
  t.equal(body.unread, 4)
  t.equal(body.nextCursor, null)
  const [follow, mentioned, commented, liked] = body.notifications as [
    Notification,
    Notification,
    Notification,
    Notification,
  ]
  const actor = {
    _id: bob.user._id,
    username: bob.username,
    firstName: 'Test',
    lastName: 'User',
    avatarURL: defaultAvatarOf(bob.username, PRESET_AVATARS),
  }
  t.strictSame(liked.actor, actor, 'the actor as a user summary')
  t.strictSame(liked.post, { _id: post._id, content: 'A picture of the sea', mediaUrl: '' })
  t.notOk('comment' in liked, 'a like names no comment')
  t.strictSame(commented.comment, { _id: commentId, text: 'Lovely!' })
  t.equal(commented.post?._id, post._id)
  t.strictSame(
    mentioned.post,
    { _id: mention._id, content: mention.content, mediaUrl: '' },
    'a mention names the post that mentions',
  )
  t.notOk('post' in follow || 'comment' in follow, 'a follow names neither')
  t.ok(
    body.notifications.every((n) => n.read === false),
    'all unread',
  )
  t.strictSame(await inbox(t, bob), { notifications: [], nextCursor: null, unread: 0 }, 'the actor hears of none of it')
})

await t.test('your own actions never notify you, and names that match nobody mention nobody', async (t) => {
  const [alice, bob] = await people()
  const own = await newPost(alice, `Notes to self, @${alice.username}, and to @nobody_${Date.now()}`)
  await write(alice, 'POST', `/api/posts/like/${own._id}`)
  await comment(alice, own._id, `a reply to myself @${alice.username}`)
  await newPost(bob, `Mail ${alice.username}@example.com, or write to@${alice.username} or @${alice.username}x`)
  t.strictSame((await inbox(t, alice)).notifications, [], 'no notification at all')
  const post = ((await api.as(undefined, { method: 'GET', url: `/api/posts/${own._id}` })).json() as { post: Post })
    .post
  t.match(post.content, /@nobody_\d+/, 'an unknown name stays plain text')
})

await t.test(
  'mentions match names without regard to case, in posts and in comments; a comment on your post notifies you once',
  async (t) => {
    const [alice, bob, carol] = await people()
    await newPost(bob, `Shouting for @${alice.username.toUpperCase()}.`)
    const bobs = await newPost(bob, 'A post of my own')
    const commentId = await comment(carol, bobs._id, `@${alice.username} you should see this`)
    const hers = await newPost(alice, 'A post of hers')
    await comment(carol, hers._id, `Hey @${alice.username}, nice post`)
    const { notifications } = await inbox(t, alice)
    t.strictSame(
      kinds(notifications),
      ['comment', 'mention', 'mention'],
      'the comment on her own post notifies her as a comment only',
    )
    t.strictSame(notifications[1]?.comment, { _id: commentId, text: `@${alice.username} you should see this` })
    t.equal(notifications[1]?.post?._id, bobs._id, 'a mention in a comment names its post and the comment')
    t.equal(notifications[2]?.actor.username, bob.username)
  },
)

await t.test('undoing an action takes its notification back', async (t) => {
  const [alice, bob] = await people()
  const post = await newPost(alice, 'Undo me')
  await write(bob, 'POST', `/api/posts/like/${post._id}`)
  await write(bob, 'POST', `/api/users/follow/${alice.user._id}`)
  const commentId = await comment(bob, post._id, 'first comment')
  const mention = await newPost(bob, `Hello @${alice.username}`)
  const elsewhere = await newPost(bob, 'a thread')
  const mentionInComment = await comment(bob, elsewhere._id, `cc @${alice.username}`)
  t.equal((await inbox(t, alice)).unread, 5)

  await write(bob, 'POST', `/api/posts/dislike/${post._id}`)
  t.notOk(kinds((await inbox(t, alice)).notifications).includes('like'), 'unlike: the like is gone')
  await write(bob, 'POST', `/api/users/unfollow/${alice.user._id}`)
  t.notOk(kinds((await inbox(t, alice)).notifications).includes('follow'), 'unfollow: the follow is gone')
  await write(bob, 'POST', `/api/comments/delete/${post._id}/${commentId}`)
  t.notOk(kinds((await inbox(t, alice)).notifications).includes('comment'), 'deleting the comment: gone')
  await write(bob, 'POST', `/api/comments/edit/${elsewhere._id}/${mentionInComment}`, { text: 'cc nobody' })
  t.strictSame(
    (await inbox(t, alice)).notifications.map((n) => n.post?._id),
    [mention._id],
    'editing the mention out of a comment: gone',
  )
  await write(bob, 'POST', `/api/posts/edit/${mention._id}`, { content: 'Hello everyone' })
  t.strictSame(
    await inbox(t, alice),
    { notifications: [], nextCursor: null, unread: 0 },
    'editing it out of the post: gone',
  )
  await write(bob, 'POST', `/api/posts/edit/${mention._id}`, { content: `Hello again @${alice.username}` })
  t.strictSame(kinds((await inbox(t, alice)).notifications), ['mention'], 'editing it back in mentions her again')
  await write(bob, 'POST', `/api/posts/edit/${mention._id}`, { content: `Hello again @${alice.username}, edited` })
  t.equal((await inbox(t, alice)).notifications.length, 1, 'an edit that keeps the mention does not repeat it')

  await write(bob, 'POST', `/api/posts/like/${post._id}`)
  await comment(bob, post._id, 'second comment')
  t.equal((await inbox(t, alice)).unread, 3)
  await write(alice, 'DELETE', `/api/posts/${post._id}`)
  await write(bob, 'DELETE', `/api/posts/${mention._id}`)
  t.strictSame(
    await inbox(t, alice),
    { notifications: [], nextCursor: null, unread: 0 },
    'deleting the posts takes their likes, comments and mentions',
  )
})

await t.test("a post's content and a comment's text are cut to 140 characters, never inside one", async (t) => {
  const [alice, bob] = await people()
  const long = `@${alice.username} ${'🐦'.repeat(200)}`
  const post = await newPost(bob, long)
  await comment(bob, post._id, `@${alice.username} ${'é'.repeat(300)}`)
  const [inComment, inPost] = (await inbox(t, alice)).notifications
  t.equal(inPost?.post?.content, [...long].slice(0, 140).join(''))
  t.equal([...(inPost?.post?.content ?? '')].length, 140, '140 characters, each whole')
  t.equal([...(inComment?.comment?.text ?? '')].length, 140)
})

/** `alice`'s post, liked by each of `count` new people in turn: `count` notifications, oldest first. */
async function likedBy(count: number) {
  const alice = await signup(api)
  const post = await newPost(alice, 'Popular')
  for (let i = 0; i < count; i++) await write(await signup(api), 'POST', `/api/posts/like/${post._id}`)
  return alice
}

await t.test(
  'POST /api/notifications/read marks every one, or one and all older, and answers the unread count',
  async (t) => {
    const alice = await likedBy(5)
    const before = (await inbox(t, alice)).notifications
    const third = before[2] as Notification
    const marked = expectOk(t, await markRead(alice, { before: third._id }), 200, UnreadReplySchema)
    t.strictSame(marked, { unread: 2 }, 'the third newest and the two older ones')
    const after = await inbox(t, alice)
    t.strictSame(
      after.notifications.map((n) => n.read),
      [false, false, true, true, true],
    )
    t.equal(after.unread, 2)
    t.strictSame(
      expectOk(t, await markRead(alice, { before: third._id }), 200, UnreadReplySchema),
      { unread: 2 },
      'again: nothing more',
    )
    t.strictSame(expectOk(t, await markRead(alice), 200, UnreadReplySchema), { unread: 0 }, 'no body: all of them')
    t.ok((await inbox(t, alice)).notifications.every((n) => n.read))
    t.strictSame(expectOk(t, await markRead(alice, {}), 200, UnreadReplySchema), { unread: 0 }, '{} on nothing unread')
  },
)

await t.test("marking read refuses what is not the caller's, with the 4xx and no change", async (t) => {
  const alice = await likedBy(2)
  const bob = await likedBy(1)
  const bobs = (await inbox(t, bob)).notifications[0] as Notification
  expectError(
    t,
    await markRead(alice, { before: bobs._id }),
    404,
    'Notification not found',
    "another user's notification",
  )
  expectError(t, await markRead(alice, { before: crypto.randomUUID() }), 404, 'Notification not found', 'an unknown id')
  expectError(
    t,
    await markRead(alice, { before: 'no-such-id' }),
    404,
    'Notification not found',
    'an id of no notification',
  )
  const wrongType = await markRead(alice, { before: 12 })
  t.equal(wrongType.statusCode, 400, 'a number is not coerced to an id')
  t.match(wrongType.json(), { errors: [/before/] }, 'the error names before')
  t.equal((await inbox(t, alice)).unread, 2, 'nothing was marked')
  t.equal((await inbox(t, bob)).unread, 1, "and bob's stays unread")
  t.strictSame(
    expectOk(t, await markRead(alice, { everything: true }), 200, UnreadReplySchema),
    { unread: 0 },
    'an unknown field is ignored',
  )
})

await t.test(
  'pages follow nextCursor, newest first, each notification once; limit and cursor are checked',
  async (t) => {
    const alice = await likedBy(7)
    const whole = (await inbox(t, alice)).notifications.map((n) => n._id)
    t.equal(whole.length, 7)
    const seen: string[] = []
    let cursor: string | null = null
    for (let page = 0; page < 10; page++) {
      const body = await inbox(t, alice, `?limit=3${cursor ? `&cursor=${cursor}` : ''}`)
      t.ok(body.notifications.length <= 3)
      t.equal(body.unread, 7, 'every page carries the unread count')
      seen.push(...body.notifications.map((n) => n._id))
      cursor = body.nextCursor
      if (cursor === null) break
    }
    t.strictSame(seen, whole, 'every notification once, in order')
    const times = (await inbox(t, alice)).notifications.map((n) => Date.parse(n.createdAt))
    t.ok(
      times.every((time, i) => i === 0 || time <= (times[i - 1] as number)),
      'newest first',
    )
    for (const query of [
      '?limit=0',
      '?limit=101',
      '?limit=two',
      '?cursor=!!',
      `?cursor=${Buffer.from('[1]').toString('base64url')}`,
    ]) {
      const res = await api.as(alice.token, { method: 'GET', url: `/api/notifications${query}` })
      t.equal(res.statusCode, 400, `${query} is refused`)
      t.match(res.json(), { errors: [/limit|cursor/] }, `${query}: the error names the field`)
    }
    t.equal((await inbox(t, alice, '?foo=bar')).notifications.length, 7, 'an unknown query field is ignored')
  },
)

await t.test('a notification keeps up with what it shows: the actor renamed, the post edited', async (t) => {
  const [alice, bob] = await people()
  const post = await newPost(alice, 'Before')
  await write(bob, 'POST', `/api/posts/like/${post._id}`)
  await write(bob, 'POST', '/api/users/edit', { firstName: 'Robert' })
  await write(alice, 'POST', `/api/posts/edit/${post._id}`, { content: 'After' })
  const [liked] = (await inbox(t, alice)).notifications
  t.equal(liked?.actor.firstName, 'Robert')
  t.equal(liked?.post?.content, 'After')
})

await t.test('someone signing up later under a name mentioned before is not notified of it', async (t) => {
  const [bob] = await people()
  const name = freshUsername('later')
  await newPost(bob, `Waiting for @${name}`)
  const later = await signup(api, { username: name })
  t.strictSame((await inbox(t, later)).notifications, [])
})
