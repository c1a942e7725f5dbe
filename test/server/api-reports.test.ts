import t, { type Test } from 'tap'
import {
  FiledReportReplySchema,
  ReportCreatedEventSchema,
  ReportReplySchema,
  ReportsReplySchema,
  type Report,
} from '../../server/schemas/moderation.js'
import { buildApiApp, expectError, expectOk, signup, type SignedUp } from '../helpers/api.js'
import { buildLiveApi } from '../helpers/live-api.js'
import { call, commentBy, postBy, seedWithStaff } from '../helpers/moderation.js'
import { snapshotDb } from '../helpers/seeded.js'

/** Reports and the moderation queue (DECISIONS §8 and §11). */
const live = await buildLiveApi(t, { options: { seed: seedWithStaff } })
const { api } = live
const moderator = await api.login('theo_park')
const asSignedUp = (token: string): SignedUp => ({ token, user: { _id: '', username: '' }, username: '', password: '' })
const [reporter, author] = [await signup(api), await signup(api)]
const NOT_ALLOWED = 'You are not allowed to do this.'

const report = (token: string | undefined, body: object) => call(api, token, 'POST', '/api/reports', body)
const queue = async (query = '') =>
  expectOk(t, await call(api, moderator, 'GET', `/api/admin/reports${query}`), 200, ReportsReplySchema, 'the queue')
const resolve = (id: string, body: object, token = moderator) =>
  call(api, token, 'POST', `/api/admin/reports/${id}/resolve`, body)
/** Resolves as the moderator; the report as the answer carries it. */
const resolveOk = async (t: Test, id: string, body: object) =>
  expectOk(t, await resolve(id, body), 200, ReportReplySchema, `resolve ${JSON.stringify(body)}`).report

await t.test('POST /api/reports answers 201 { report } for a post, a comment and a user', async (t) => {
  const postId = await postBy(api, author.token, 'reported post')
  const commentId = await commentBy(api, author.token, postId, 'reported comment')
  const onPost = expectOk(
    t,
    await report(reporter.token, { targetType: 'post', targetId: postId, category: 'spam', comment: 'ads' }),
    201,
    FiledReportReplySchema,
    'a post',
  ).report
  t.match(onPost, {
    reporter: { _id: reporter.user._id, username: reporter.username },
    targetType: 'post',
    targetId: postId,
    category: 'spam',
    comment: 'ads',
    status: 'open',
  })
  t.notOk('action' in onPost || 'resolvedBy' in onPost, 'nothing of a resolution yet')
  t.notOk('target' in onPost || 'subjectId' in onPost || 'removed' in onPost, 'nothing of the reported content')
  const onComment = expectOk(
    t,
    await report(reporter.token, { targetType: 'comment', targetId: commentId, postId, category: 'abuse' }),
    201,
    FiledReportReplySchema,
    'a comment',
  ).report
  t.match(onComment, {
    targetType: 'comment',
    postId,
    comment: '',
  })
  const onUser = expectOk(
    t,
    await report(reporter.token, {
      targetType: 'user',
      targetId: author.user._id,
      category: 'other',
      comment: 'x'.repeat(1000),
    }),
    201,
    FiledReportReplySchema,
    'a user with a comment of 1,000 characters',
  ).report
  t.match(onUser, { targetType: 'user', targetId: author.user._id })
  t.notOk('target' in onComment || 'target' in onUser, 'nor of a reported comment or user')
})

await t.test('a report hands back nothing of what its reporter may not read', async (t) => {
  const [blocker, blocked] = [await signup(api), await signup(api)]
  const hers = await postBy(api, blocker.token, 'only for those she lets read it')
  await call(api, blocker.token, 'POST', `/api/users/block/${blocked.user._id}`)
  const across = await report(blocked.token, { targetType: 'post', targetId: hers, category: 'abuse' })
  t.notMatch(across.body, /only for those she lets read it/, "the blocked person does not read the blocker's post")
  const suspended = await signup(api)
  const theirs = await postBy(api, suspended.token, 'words of a suspended person')
  const commentId = await commentBy(api, suspended.token, theirs, 'a comment of a suspended person')
  const res = await call(api, moderator, 'POST', `/api/admin/users/${suspended.user._id}/suspend`, { reason: 'spam' })
  t.equal(res.statusCode, 200, 'suspended')
  const onPost = await report(reporter.token, { targetType: 'post', targetId: theirs, category: 'spam' })
  const onComment = await report(reporter.token, {
    targetType: 'comment',
    targetId: commentId,
    postId: theirs,
    category: 'spam',
  })
  t.notMatch(onPost.body + onComment.body, /of a suspended person/, "nobody reads a suspended person's content")
  t.equal(onPost.statusCode, 201, 'the report is taken all the same')
})

await t.test('a refused report is a clear 4xx and changes nothing', async (t) => {
  const postId = await postBy(api, author.token)
  const commentId = await commentBy(api, author.token, postId)
  const own = await postBy(api, reporter.token)
  const ownComment = await commentBy(api, reporter.token, postId)
  const before = await snapshotDb(api)
  const cases: [string, string | undefined, object, number, string][] = [
    [
      'no token',
      undefined,
      { targetType: 'post', targetId: postId, category: 'spam' },
      401,
      'The token is invalid. Unauthorized access error.',
    ],
    [
      'an unknown category',
      reporter.token,
      { targetType: 'post', targetId: postId, category: 'rude' },
      400,
      'category must be one of "spam", "abuse", "illegal", "other"',
    ],
    [
      'an unknown target type',
      reporter.token,
      { targetType: 'tag', targetId: postId, category: 'spam' },
      400,
      'targetType must be one of "post", "comment", "user"',
    ],
    [
      'a comment of 1,001 characters',
      reporter.token,
      { targetType: 'post', targetId: postId, category: 'spam', comment: 'x'.repeat(1001) },
      400,
      'comment must NOT have more than 1000 characters',
    ],
    [
      'a comment report without its post',
      reporter.token,
      { targetType: 'comment', targetId: commentId, category: 'spam' },
      400,
      'postId is required when targetType is comment',
    ],
    [
      'oneself',
      reporter.token,
      { targetType: 'user', targetId: reporter.user._id, category: 'spam' },
      400,
      'You cannot report yourself or your own content.',
    ],
    [
      'one’s own post',
      reporter.token,
      { targetType: 'post', targetId: own, category: 'spam' },
      400,
      'You cannot report yourself or your own content.',
    ],
    [
      'one’s own comment',
      reporter.token,
      { targetType: 'comment', targetId: ownComment, postId, category: 'spam' },
      400,
      'You cannot report yourself or your own content.',
    ],
    [
      'an unknown post',
      reporter.token,
      { targetType: 'post', targetId: '00000000-0000-4000-8000-000000000000', category: 'spam' },
      404,
      'Post not found',
    ],
    [
      'an unknown comment',
      reporter.token,
      { targetType: 'comment', targetId: '00000000-0000-4000-8000-000000000000', postId, category: 'spam' },
      404,
      'Comment not found',
    ],
    [
      'an unknown user',
      reporter.token,
      { targetType: 'user', targetId: '00000000-0000-4000-8000-000000000000', category: 'spam' },
      404,
      'User not found',
    ],
  ]
  for (const [what, token, body, status, message] of cases) {
    const res = await report(token, body)
    t.equal(res.statusCode, status, `${what}: ${status}`)
    t.match((res.json() as { errors: string[] }).errors.join(' '), message, `${what}: says why`)
  }
  t.strictSame(await snapshotDb(api), before, 'nothing stored')
})

await t.test('a post or comment its reporter may not see is a 404, as its page is, and changes nothing', async (t) => {
  const [writer, follower, stranger] = [await signup(api), await signup(api), await signup(api)]
  await call(api, follower.token, 'POST', `/api/users/follow/${writer.user._id}`)
  const written = await call(api, writer.token, 'POST', '/api/posts', {
    content: 'for my followers',
    visibility: 'followers',
  })
  const postId = (written.json() as { post: { _id: string } }).post._id
  const commentId = await commentBy(api, follower.token, postId, 'a follower answers')
  const onPost = { targetType: 'post', targetId: postId, category: 'abuse' }
  const onComment = { targetType: 'comment', targetId: commentId, postId, category: 'abuse' }
  expectError(t, await call(api, stranger.token, 'GET', `/api/posts/${postId}`), 404, 'Post not found', 'its page')
  const before = await snapshotDb(api)
  expectError(t, await report(stranger.token, onPost), 404, 'Post not found', 'the post, by a stranger')
  expectError(t, await report(stranger.token, onComment), 404, 'Post not found', 'a comment on it, by a stranger')
  t.strictSame(await snapshotDb(api), before, 'nothing stored')
  t.equal((await report(follower.token, onPost)).statusCode, 201, 'a follower reports the post')
  await call(api, follower.token, 'POST', `/api/users/unfollow/${writer.user._id}`)
  const after = await snapshotDb(api)
  const again = await report(follower.token, { ...onPost, category: 'spam' })
  expectError(t, again, 404, 'Post not found', 'no longer, once they unfollowed')
  t.strictSame(await snapshotDb(api), after, 'and that refusal stores nothing either')
})

await t.test('the queue lists open reports newest first with the open count, and pages', async (t) => {
  const { reports, open, nextCursor } = await queue()
  t.ok(open >= 3, 'the open count')
  t.equal(reports.length, Math.min(open, 20), '20 a page unless limit says otherwise')
  t.ok(reports.every((r) => r.status === 'open'))
  const times = reports.map((r) => r.createdAt)
  t.strictSame(times, [...times].sort().reverse(), 'newest first')
  t.equal(nextCursor, null)
  const first = await queue('?limit=1')
  t.equal(first.reports.length, 1)
  t.type(first.nextCursor, 'string')
  const second = await queue(`?limit=1&cursor=${first.nextCursor ?? ''}`)
  t.not(second.reports[0]?._id, first.reports[0]?._id, 'the cursor moves on')
  expectError(t, await call(api, moderator, 'GET', '/api/admin/reports?cursor=bm9wZQ'), 400, 'cursor is invalid')
  expectError(
    t,
    await call(api, moderator, 'GET', '/api/admin/reports?status=closed'),
    400,
    'status must be one of "open", "resolved"',
  )
  expectError(t, await call(api, reporter.token, 'GET', '/api/admin/reports'), 403, NOT_ALLOWED, 'a user')
})

await t.test('resolve: dismiss, remove a post or a comment, suspend the author; each only once', async (t) => {
  const postId = await postBy(api, author.token, 'to be removed')
  const commentId = await commentBy(api, author.token, postId, 'comment to be removed')
  const make = async (body: object) => ((await report(reporter.token, body)).json() as { report: Report }).report._id
  const dismissed = await make({ targetType: 'post', targetId: postId, category: 'spam' })
  const onComment = await make({ targetType: 'comment', targetId: commentId, postId, category: 'abuse' })
  const onPost = await make({ targetType: 'post', targetId: postId, category: 'spam' })
  const onUser = await make({ targetType: 'user', targetId: author.user._id, category: 'abuse' })
  const openBefore = (await queue()).open

  const dismiss = await resolveOk(t, dismissed, { action: 'dismiss', note: 'fine' })
  t.match(dismiss, { status: 'resolved', action: 'dismiss', note: 'fine', resolvedBy: { username: 'theo_park' } })
  t.type(dismiss.resolvedAt, 'string')
  t.equal(
    (await call(api, reporter.token, 'GET', `/api/posts/${postId}`)).statusCode,
    200,
    'a dismissal removes nothing',
  )
  expectError(t, await resolve(dismissed, { action: 'remove' }), 400, 'This report is resolved already.', 'twice')
  expectError(t, await resolve('00000000-0000-4000-8000-000000000000', { action: 'dismiss' }), 404, 'Report not found')
  expectError(
    t,
    await resolve(onUser, { action: 'remove' }),
    400,
    'There is nothing to remove: suspend the user instead.',
  )
  expectError(t, await resolve(onPost, { action: 'ban' }), 400, 'action must be one of "dismiss", "remove", "suspend"')
  expectError(t, await resolve(onPost, { action: 'dismiss' }, reporter.token), 403, NOT_ALLOWED, 'a user')

  const removedComment = await resolveOk(t, onComment, { action: 'remove' })
  t.match(removedComment, {
    action: 'remove',
    removed: true,
    target: { _id: commentId, text: 'comment to be removed' },
  })
  const comments = (await call(api, undefined, 'GET', `/api/comments/${postId}`)).json() as {
    comments: { _id: string }[]
  }
  t.notOk(
    comments.comments.some((c) => c._id === commentId),
    'the comment is gone',
  )

  const removedPost = await resolveOk(t, onPost, { action: 'remove', note: 'spam' })
  t.match(removedPost, { action: 'remove', removed: true, target: { _id: postId, content: 'to be removed' } })
  expectError(
    t,
    await call(api, reporter.token, 'GET', `/api/posts/${postId}`),
    404,
    'Post not found',
    'the post is gone',
  )

  const suspended = await resolveOk(t, onUser, { action: 'suspend', note: 'abusive' })
  t.match(suspended, { action: 'suspend', status: 'resolved' })
  expectError(
    t,
    await call(api, author.token, 'GET', '/api/feed'),
    401,
    'The token is invalid. Unauthorized access error.',
    'the author’s token',
  )
  const login = await call(api, undefined, 'POST', '/api/auth/login', {
    username: author.username,
    password: author.password,
  })
  expectError(t, login, 403, 'This account is suspended.', 'the author’s login')
  t.equal((await queue()).open, openBefore - 4, 'the open count fell by the four resolved')
  const resolved = await queue('?status=resolved')
  t.ok(
    [dismissed, onComment, onPost, onUser].every((id) => resolved.reports.some((r) => r._id === id)),
    'listed as resolved',
  )
})

await t.test('report.created reaches moderators’ streams only, with the open count', async (t) => {
  const [someone, target] = [await signup(api), await signup(api)]
  const modStream = await live.stream(t, asSignedUp(moderator))
  const userStream = await live.stream(t, someone)
  const postId = await postBy(api, target.token, 'live report')
  await live.nextEvent(modStream)
  await live.nextEvent(userStream)
  const res = await report(someone.token, { targetType: 'post', targetId: postId, category: 'illegal' })
  const made = (res.json() as { report: Report }).report
  const data = await live.expectEvent(t, modStream, 'report.created', ReportCreatedEventSchema)
  t.equal(data.report._id, made._id, 'the report')
  t.equal(data.open, (await queue()).open, 'and the open count after it')
  await postBy(api, target.token, 'after the report')
  t.equal((await live.nextEvent(userStream)).event, 'post.created', 'a plain user’s stream never hears of it')
})

await t.test('the 11th report within an hour is a 429, and changes nothing', async (t) => {
  const limited = await buildApiApp(t, { config: { rateLimit: true }, options: { seed: seedWithStaff } })
  const [me, them] = [await signup(limited), await signup(limited)]
  const postId = await postBy(limited, them.token)
  for (let i = 0; i < 10; i++) {
    const res = await call(limited, me.token, 'POST', '/api/reports', {
      targetType: 'post',
      targetId: postId,
      category: 'spam',
    })
    t.equal(res.statusCode, 201, `report ${i + 1}`)
  }
  const before = await snapshotDb(limited)
  const eleventh = await call(limited, me.token, 'POST', '/api/reports', {
    targetType: 'post',
    targetId: postId,
    category: 'spam',
  })
  expectError(t, eleventh, 429, 'Too many requests, please try again later.', 'the 11th')
  t.strictSame(await snapshotDb(limited), before, 'nothing stored')
  const other = await signup(limited)
  const res = await call(limited, other.token, 'POST', '/api/reports', {
    targetType: 'post',
    targetId: postId,
    category: 'spam',
  })
  t.equal(res.statusCode, 201, 'another reporter is not held back')
})
