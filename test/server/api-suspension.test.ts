import t from 'tap'
import { EmptyObjectSchema } from '../../server/schemas/common.js'
import { AuditLogReplySchema, ModeratedUserReplySchema } from '../../server/schemas/moderation.js'
import { expectError, expectOk, signup } from '../helpers/api.js'
import { buildLiveApi } from '../helpers/live-api.js'
import { call, commentBy, postBy, seedWithStaff } from '../helpers/moderation.js'
import { snapshotDb } from '../helpers/seeded.js'

/** Suspensions and the moderator's removals (DECISIONS §8 and §11), with a clock the test moves. */
let ahead = 0
const live = await buildLiveApi(t, { options: { seed: seedWithStaff, now: () => new Date(Date.now() + ahead) } })
const { api } = live
const [admin, moderator] = [await api.login('maya.lin'), await api.login('theo_park')]
const INVALID_TOKEN = 'The token is invalid. Unauthorized access error.'
const DAY = 86_400_000

const login = (who: { username: string; password: string }) =>
  call(api, undefined, 'POST', '/api/auth/login', { username: who.username, password: who.password })
const suspend = (id: string, body: object, token = moderator) =>
  call(api, token, 'POST', `/api/admin/users/${id}/suspend`, body)

await t.test(
  'a suspension ends every token and stream at once, refuses logins, and old tokens stay void',
  async (t) => {
    const target = await signup(api)
    const second = await api.login(target.username, target.password)
    const stream = await live.stream(t, target)
    const res = expectOk(
      t,
      await suspend(target.user._id, { reason: 'spam' }),
      200,
      ModeratedUserReplySchema,
      'suspend',
    )
    t.match(res.user, { _id: target.user._id, suspension: { reason: 'spam', until: null } })
    await stream.ended
    t.pass('the open stream closed')
    for (const token of [target.token, second])
      expectError(t, await call(api, token, 'GET', '/api/feed'), 401, INVALID_TOKEN)
    expectError(t, await login(target), 403, 'This account is suspended.', 'login')
    expectError(
      t,
      await login({ ...target, password: 'wrong password!' }),
      401,
      'The credentials you entered are invalid. Unauthorized access error.',
      'a wrong password learns nothing',
    )
    const lifted = expectOk(
      t,
      await call(api, moderator, 'POST', `/api/admin/users/${target.user._id}/unsuspend`),
      200,
      ModeratedUserReplySchema,
    )
    t.equal(lifted.user.suspension, null)
    t.equal((await login(target)).statusCode, 200, 'login works again')
    expectError(
      t,
      await call(api, target.token, 'GET', '/api/feed'),
      401,
      INVALID_TOKEN,
      'a token from before stays void',
    )
  },
)

await t.test('a suspension with days ends by itself', async (t) => {
  const target = await signup(api)
  const res = expectOk(
    t,
    await suspend(target.user._id, { reason: 'cool off', days: 2 }),
    200,
    ModeratedUserReplySchema,
  )
  t.equal(
    Date.parse(res.user.suspension?.until ?? '') - Date.parse(res.user.suspension?.at ?? ''),
    2 * DAY,
    'until is 2 days on',
  )
  expectError(t, await login(target), 403, 'This account is suspended.')
  ahead += 2 * DAY + 1000
  t.equal((await login(target)).statusCode, 200, 'two days later the login works')
  expectError(
    t,
    await call(api, moderator, 'POST', `/api/admin/users/${target.user._id}/unsuspend`),
    400,
    'This account is not suspended.',
    'and there is nothing to lift',
  )
})

await t.test('refused suspensions are clear 4xx and change nothing', async (t) => {
  const target = await signup(api)
  const before = await snapshotDb(api)
  expectError(t, await suspend(target.user._id, {}), 400, 'reason is required')
  expectError(t, await suspend(target.user._id, { reason: '' }), 400, 'reason must NOT have fewer than 1 characters')
  expectError(t, await suspend(target.user._id, { reason: 'x', days: 0 }), 400, 'days must be >= 1')
  expectError(t, await suspend('00000000-0000-4000-8000-000000000000', { reason: 'x' }), 404, 'User not found')
  expectError(
    t,
    await call(api, moderator, 'POST', `/api/admin/users/${target.user._id}/unsuspend`),
    400,
    'This account is not suspended.',
  )
  t.strictSame(await snapshotDb(api), before)
  t.equal((await call(api, target.token, 'GET', '/api/feed')).statusCode, 200, 'the user is untouched')
})

await t.test('a moderator removes any post or comment; open screens hear of it', async (t) => {
  const [author, reader] = [await signup(api), await signup(api)]
  const postId = await postBy(api, author.token, 'to be removed by a moderator')
  const commentId = await commentBy(api, author.token, postId)
  const stream = await live.stream(t, reader)
  const comment = expectOk(
    t,
    await call(api, moderator, 'DELETE', `/api/admin/comments/${postId}/${commentId}`),
    200,
    EmptyObjectSchema,
  )
  t.strictSame(comment, {})
  t.match(await live.nextEvent(stream), { event: 'comment.deleted' })
  const post = expectOk(t, await call(api, moderator, 'DELETE', `/api/admin/posts/${postId}`), 200, EmptyObjectSchema)
  t.strictSame(post, {})
  t.match(await live.nextEvent(stream), { event: 'post.deleted' })
  expectError(t, await call(api, reader.token, 'GET', `/api/posts/${postId}`), 404, 'Post not found')
  const before = await snapshotDb(api)
  expectError(t, await call(api, moderator, 'DELETE', `/api/admin/posts/${postId}`), 404, 'Post not found')
  expectError(
    t,
    await call(api, moderator, 'DELETE', `/api/admin/comments/${postId}/${commentId}`),
    404,
    'Post not found',
  )
  const other = await postBy(api, author.token)
  const withOther = await snapshotDb(api)
  expectError(
    t,
    await call(api, moderator, 'DELETE', `/api/admin/comments/${other}/${commentId}`),
    404,
    'Comment not found',
  )
  t.strictSame(await snapshotDb(api), withOther, 'refusals change nothing')
  t.not(before, withOther)
})

await t.test('the audit log keeps every action, newest first, with who, what and why', async (t) => {
  const target = await signup(api)
  await suspend(target.user._id, { reason: 'logged' }, admin)
  await call(api, admin, 'POST', `/api/admin/users/${target.user._id}/unsuspend`)
  const { entries, nextCursor } = expectOk(
    t,
    await call(api, moderator, 'GET', '/api/admin/log?limit=2'),
    200,
    AuditLogReplySchema,
  )
  const named = { _id: target.user._id, username: target.user.username }
  t.match(entries, [
    {
      actor: { username: 'maya.lin' },
      action: 'unsuspend',
      targetType: 'user',
      targetId: target.user._id,
      target: named,
    },
    {
      actor: { username: 'maya.lin' },
      action: 'suspend',
      targetType: 'user',
      targetId: target.user._id,
      target: named,
      reason: 'logged',
    },
  ])
  t.type(nextCursor, 'string')
  const next = expectOk(
    t,
    await call(api, moderator, 'GET', `/api/admin/log?limit=100&cursor=${nextCursor ?? ''}`),
    200,
    AuditLogReplySchema,
  )
  t.ok(
    next.entries.some((entry) => entry.action === 'remove-post'),
    'older pages hold the removals',
  )
  t.ok(next.entries.some((entry) => entry.action === 'remove-comment'))
  t.ok(
    next.entries.every((entry) => entry.targetType === 'user' || entry.target === undefined),
    'only a person is named as the target',
  )
})

await t.test(
  'a suspended user’s posts and comments are hidden from everyone until it ends, then come back unchanged',
  async (t) => {
    const [target, reader] = [await signup(api), await signup(api)]
    await call(api, reader.token, 'POST', `/api/users/follow/${target.user._id}`)
    const postId = await postBy(api, target.token, 'hidden while suspended')
    const readerPost = await postBy(api, reader.token, 'a post of the reader')
    const commentId = await commentBy(api, target.token, readerPost, 'a comment hidden while suspended')
    const ids = (res: { json(): unknown }) =>
      ((res.json() as { posts: { _id: string }[] }).posts ?? []).map((p) => p._id)
    const commentIds = async () =>
      (
        (await call(api, reader.token, 'GET', `/api/comments/${readerPost}`)).json() as { comments: { _id: string }[] }
      ).comments.map((c) => c._id)
    const reads = async () => ({
      feed: ids(await call(api, reader.token, 'GET', '/api/feed')).includes(postId),
      explore: ids(await call(api, undefined, 'GET', '/api/posts?limit=50')).includes(postId),
      profile:
        (await call(api, undefined, 'GET', `/api/posts/user/${target.username}`)).statusCode === 200 &&
        ids(await call(api, undefined, 'GET', `/api/posts/user/${target.username}`)).includes(postId),
      detail: (await call(api, reader.token, 'GET', `/api/posts/${postId}`)).statusCode === 200,
      comment: (await commentIds()).includes(commentId),
    })
    t.strictSame(
      await reads(),
      { feed: true, explore: true, profile: true, detail: true, comment: true },
      'seen before',
    )
    const stream = await live.stream(t, reader)
    await suspend(target.user._id, { reason: 'hidden' })
    t.strictSame(
      await reads(),
      { feed: false, explore: false, profile: false, detail: false, comment: false },
      'hidden while suspended',
    )
    const moderatorView = await call(api, moderator, 'GET', `/api/admin/users/${target.user._id}`)
    t.equal(moderatorView.statusCode, 200, 'moderators still find the user')
    t.match(await live.nextEvent(stream), { event: 'user.suspended' }, 'open screens hear of the suspension')
    const other = await signup(api)
    await call(api, other.token, 'POST', `/api/comments/add/${readerPost}`, { text: 'after the suspension' })
    t.match(await live.nextEvent(stream), { event: 'comment.added' }, 'the stream goes on for everyone else')
    await call(api, moderator, 'POST', `/api/admin/users/${target.user._id}/unsuspend`)
    t.strictSame(
      await reads(),
      { feed: true, explore: true, profile: true, detail: true, comment: true },
      'back, unchanged',
    )
    const post = (await call(api, reader.token, 'GET', `/api/posts/${postId}`)).json() as { post: { content: string } }
    t.equal(post.post.content, 'hidden while suspended')
  },
)
