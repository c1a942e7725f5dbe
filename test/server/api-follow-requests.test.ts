import t from 'tap'
import * as MSG from '../../common/messages.js'
import { ImportReplySchema } from '../../server/schemas/account.js'
import {
  FollowEventSchema,
  FollowRequestEventSchema,
  NotificationCreatedEventSchema,
  UserUpdatedEventSchema,
} from '../../server/schemas/events.js'
import { NotificationsReplySchema } from '../../server/schemas/notifications.js'
import { FollowReplySchema, UserReplySchema, UsersReplySchema, type User } from '../../server/schemas/users.js'
import { expectError, expectOk, multipart, signup, type SignedUp } from '../helpers/api.js'
import { buildLiveApi } from '../helpers/live-api.js'
import { seedWithStaff } from '../helpers/moderation.js'

/**
 * Locked accounts and follow requests (DECISIONS §12, docs/api.md "Locked accounts"): asking, answering,
 * withdrawing, unlocking, every refusal, the notifications and live events, and what a block or a
 * deletion does to a request.
 */
const { api, write, newPost, stream, expectEvent } = await buildLiveApi(t, { options: { seed: seedWithStaff } })
const moderator = await api.login('theo_park')
const UNKNOWN = '00000000-0000-4000-8000-000000000000'

const get = (who: SignedUp | undefined, url: string) =>
  who ? api.as(who.token, { method: 'GET', url }) : api.app.inject({ method: 'GET', url })
const follow = (who: SignedUp, other: SignedUp) => write(who, 'POST', `/api/users/follow/${other.user._id}`)
const unfollow = (who: SignedUp, other: SignedUp) => write(who, 'POST', `/api/users/unfollow/${other.user._id}`)
const authorize = (who: SignedUp, id: string) => write(who, 'POST', `/api/follow-requests/${id}/authorize`)
const reject = (who: SignedUp, id: string) => write(who, 'POST', `/api/follow-requests/${id}/reject`)
const edit = (who: SignedUp, userData: object) => write(who, 'POST', '/api/users/edit', { userData })
const ids = (people: readonly { _id: string }[]) => people.map((person) => person._id)

async function locked(): Promise<SignedUp> {
  const owner = await signup(api)
  const res = await edit(owner, { locked: true })
  if (res.statusCode !== 201) throw new Error(`lock: ${res.statusCode} ${res.body}`)
  return owner
}
const profile = async (who: SignedUp, viewer?: SignedUp): Promise<User> =>
  (await get(viewer, `/api/users/${who.username}`)).json<{ user: User }>().user
const waiting = async (owner: SignedUp) =>
  ids(expectOk(t, await get(owner, '/api/follow-requests'), 200, UsersReplySchema).users)
const notices = async (who: SignedUp) => {
  const body = expectOk(t, await get(who, '/api/notifications'), 200, NotificationsReplySchema)
  return { types: body.notifications.map((n) => [n.type, n.actor._id]), unread: body.unread }
}

await t.test('the profile edit locks and unlocks an account', async (t) => {
  const owner = await signup(api)
  t.equal((await profile(owner)).locked, false, 'open at first')
  const res = expectOk(t, await edit(owner, { locked: true }), 201, UserReplySchema, 'locking')
  t.equal(res.user.locked, true, 'the answer says so')
  t.equal((await profile(owner)).locked, true, 'and so does the profile, to everyone')
  t.equal((await edit(owner, { locked: 'yes' })).statusCode, 400, 'locked must be a boolean')
  const open = expectOk(t, await edit(owner, { locked: false }), 201, UserReplySchema, 'unlocking')
  t.equal(open.user.locked, false)
})

await t.test('following a locked account asks, and a request is no follow', async (t) => {
  const [owner, asker, other] = [await locked(), await signup(api), await signup(api)]
  const post = await newPost(owner, 'for my followers to see in their feeds')
  const res = expectOk(t, await follow(asker, owner), 200, FollowReplySchema, 'the request')
  t.equal(res.requested, true, 'requested: true')
  t.equal(res.user._id, owner.user._id, 'user is the locked account')
  t.equal(res.user.requested, true, 'whose view says the caller waits')
  t.notOk('followUser' in res, 'no followUser: nobody follows anyone yet')
  t.strictSame(ids((await profile(owner)).followers), [], 'the owner has no follower')
  t.strictSame(ids((await profile(asker)).following), [], 'the asker follows nobody')
  const feed = (await get(asker, '/api/feed')).json<{ posts: { _id: string }[] }>().posts
  t.notOk(ids(feed).includes(post._id), "the owner's posts are not in the asker's home feed")
  t.equal((await profile(owner, asker)).requested, true, 'the profile tells the asker the request waits')
  t.notOk('requested' in (await profile(owner, other)), 'but nobody else')
  t.notOk('requested' in (await profile(owner)), 'nor a reader not signed in')
  t.notOk('requested' in (await profile(owner, owner)), 'nor the owner')
  const listed = (await get(asker, '/api/users')).json<{ users: User[] }>().users
  t.equal(listed.find((user) => user._id === owner.user._id)?.requested, true, 'the list of people says it too')
  expectError(t, await follow(asker, owner), 400, MSG.alreadyRequested, 'asking again')
  t.strictSame(await waiting(owner), [asker.user._id], 'one request waits')
  t.strictSame(await notices(owner), { types: [['follow_request', asker.user._id]], unread: 1 }, 'the owner is told')
})

await t.test('the owner lists the requests, the oldest first, a page at a time', async (t) => {
  const owner = await locked()
  const askers = [await signup(api), await signup(api), await signup(api)]
  for (const asker of askers) await follow(asker, owner)
  const all = expectOk(t, await get(owner, '/api/follow-requests'), 200, UsersReplySchema, 'the list')
  t.strictSame(ids(all.users), ids(askers.map((asker) => asker.user)), 'oldest first')
  t.equal(all.nextCursor, null, 'one page')
  t.notOk(
    all.users.some((user) => 'email' in user || 'postCount' in user),
    "others' views, without what only they see",
  )
  const first = expectOk(t, await get(owner, '/api/follow-requests?limit=2'), 200, UsersReplySchema)
  t.strictSame(ids(first.users), ids(askers.slice(0, 2).map((asker) => asker.user)), 'a page of two')
  const rest = expectOk(
    t,
    await get(owner, `/api/follow-requests?limit=2&cursor=${first.nextCursor}`),
    200,
    UsersReplySchema,
  )
  t.strictSame(ids(rest.users), [askers[2]?.user._id], 'then the last')
  t.equal(rest.nextCursor, null, 'the end')
  expectError(t, await get(owner, '/api/follow-requests?cursor=nope'), 400, MSG.badCursor, 'a forged cursor')
  t.strictSame(await waiting(askers[0] as SignedUp), [], "an asker's own list is theirs, and empty")
})

await t.test('authorizing makes the follow, tells the follower and every stream', async (t) => {
  const [owner, asker] = [await locked(), await signup(api)]
  const hers = await stream(t, owner)
  const his = await stream(t, asker)
  await follow(asker, owner)
  const asked = await expectEvent(t, hers, 'follow_request.created', FollowRequestEventSchema)
  t.strictSame(asked.user._id, asker.user._id, 'follow_request.created names the asker, to the owner')
  const told = await expectEvent(t, hers, 'notification.created', NotificationCreatedEventSchema)
  t.strictSame([told.type, told.actor._id, told.unread], ['follow_request', asker.user._id, 1], 'and the notification')
  const res = expectOk(t, await authorize(owner, asker.user._id), 200, UserReplySchema, 'authorize')
  t.equal(res.user._id, asker.user._id, 'answers the follower')
  t.strictSame(ids((await profile(owner)).followers), [asker.user._id], 'the owner has a follower')
  t.strictSame(ids((await profile(asker)).following), [owner.user._id], 'who follows the owner')
  t.notOk('requested' in (await profile(owner, asker)), 'no request waits')
  t.strictSame(await waiting(owner), [], 'the list is empty')
  t.strictSame(await notices(owner), { types: [], unread: 0 }, "the request's notification went with it")
  t.strictSame(await notices(asker), { types: [['follow', owner.user._id]], unread: 1 }, 'the follower is told')
  const followed = await expectEvent(t, his, 'user.followed', FollowEventSchema)
  t.strictSame([followed.user._id, followed.followUser._id], [asker.user._id, owner.user._id], 'user.followed')
  const accepted = await expectEvent(t, his, 'notification.created', NotificationCreatedEventSchema)
  t.strictSame([accepted.type, accepted.actor._id], ['follow', owner.user._id], "the follower's notification")
  expectError(t, await authorize(owner, asker.user._id), 404, MSG.followRequestNotFound, 'authorizing again')
  expectError(t, await follow(asker, owner), 400, MSG.alreadyFollowing, 'asking once following')
})

await t.test('rejecting makes no follow, and the asker may ask again', async (t) => {
  const [owner, asker] = [await locked(), await signup(api)]
  await follow(asker, owner)
  const res = expectOk(t, await reject(owner, asker.user._id), 200, UserReplySchema, 'reject')
  t.equal(res.user._id, asker.user._id, 'answers the asker')
  t.strictSame(ids((await profile(owner)).followers), [], 'no follower')
  t.strictSame(await waiting(owner), [], 'no request')
  t.strictSame(await notices(owner), { types: [], unread: 0 }, 'no notification left')
  t.strictSame(await notices(asker), { types: [], unread: 0 }, 'the asker is not told')
  expectError(t, await reject(owner, asker.user._id), 404, MSG.followRequestNotFound, 'rejecting again')
  expectOk(t, await follow(asker, owner), 200, FollowReplySchema, 'asking again')
  t.strictSame(await waiting(owner), [asker.user._id], 'waits again')
})

await t.test('unfollowing withdraws a waiting request', async (t) => {
  const [owner, asker] = [await locked(), await signup(api)]
  await follow(asker, owner)
  const res = expectOk(t, await unfollow(asker, owner), 200, FollowReplySchema, 'withdrawal')
  t.equal(res.requested, false, 'requested: false')
  t.equal(res.user._id, owner.user._id, 'user is the locked account')
  t.notOk('requested' in res.user, 'whose view no longer says the caller waits')
  t.strictSame(await waiting(owner), [], 'gone from the list')
  t.strictSame(await notices(owner), { types: [], unread: 0 }, 'and from the notifications, unread count too')
  expectError(t, await unfollow(asker, owner), 400, MSG.notFollowing, 'withdrawing again')
  expectError(t, await authorize(owner, asker.user._id), 404, MSG.followRequestNotFound, 'nothing to authorize')
})

await t.test('unlocking accepts every request waiting, in one go', async (t) => {
  const owner = await locked()
  const askers = [await signup(api), await signup(api), await signup(api)]
  const theirs = await stream(t, askers[0] as SignedUp)
  for (const asker of askers) await follow(asker, owner)
  const res = expectOk(t, await edit(owner, { locked: false }), 201, UserReplySchema, 'unlocking')
  t.strictSame(ids(res.user.followers), ids(askers.map((asker) => asker.user)), 'every asker follows, oldest first')
  t.strictSame(await waiting(owner), [], 'nothing waits')
  t.strictSame(await notices(owner), { types: [], unread: 0 }, "the requests' notifications went")
  for (const asker of askers) {
    t.strictSame(await notices(asker), { types: [['follow', owner.user._id]], unread: 1 }, 'each follower is told')
    t.strictSame(ids((await profile(asker)).following), [owner.user._id], 'and follows')
  }
  const updated = await expectEvent(t, theirs, 'user.updated', UserUpdatedEventSchema)
  t.strictSame([updated.user._id, updated.user.locked], [owner.user._id, false], 'the profile is open, on every stream')
  for (const asker of askers) {
    const followed = await expectEvent(t, theirs, 'user.followed', FollowEventSchema)
    t.strictSame([followed.user._id, followed.followUser._id], [asker.user._id, owner.user._id], 'user.followed')
  }
  const told = await expectEvent(t, theirs, 'notification.created', NotificationCreatedEventSchema)
  t.strictSame([told.type, told.actor._id], ['follow', owner.user._id], "the first asker's notification")
  const late = await signup(api)
  const open = expectOk(t, await follow(late, owner), 200, FollowReplySchema, 'following the open account')
  t.strictSame([open.user._id, open.followUser?._id, 'requested' in open], [late.user._id, owner.user._id, false])
})

await t.test('the refusals: no token, nobody, oneself, a block, a suspension', async (t) => {
  const [owner, asker, blocked, blocker] = [await locked(), await signup(api), await signup(api), await signup(api)]
  const bare = (method: 'GET' | 'POST', url: string) => api.app.inject({ method, url })
  t.equal((await bare('GET', '/api/follow-requests')).statusCode, 401, 'the list needs a token')
  t.equal((await bare('POST', `/api/follow-requests/${asker.user._id}/authorize`)).statusCode, 401, 'authorize too')
  t.equal((await bare('POST', `/api/follow-requests/${asker.user._id}/reject`)).statusCode, 401, 'reject too')
  t.equal((await bare('POST', `/api/users/follow/${owner.user._id}`)).statusCode, 401, 'and asking')
  expectError(t, await write(asker, 'POST', `/api/users/follow/${UNKNOWN}`), 404, MSG.userNotFound, 'nobody')
  expectError(t, await follow(owner, owner), 404, MSG.selfFollow, 'oneself')
  for (const id of [UNKNOWN, owner.user._id, asker.user._id]) {
    expectError(t, await authorize(owner, id), 404, MSG.followRequestNotFound, 'no such request: authorize')
    expectError(t, await reject(owner, id), 404, MSG.followRequestNotFound, 'no such request: reject')
  }
  await write(owner, 'POST', `/api/users/block/${blocked.user._id}`)
  expectError(t, await follow(blocked, owner), 403, MSG.cannotInteract, 'asking someone who blocks you')
  await write(blocker, 'POST', `/api/users/block/${owner.user._id}`)
  expectError(t, await follow(blocker, owner), 403, MSG.cannotInteract, 'asking someone you block')
  const suspend = (who: SignedUp) =>
    api.as(moderator, {
      method: 'POST',
      url: `/api/admin/users/${who.user._id}/suspend`,
      payload: { reason: 'spam' },
    })
  const other = await locked()
  t.equal((await suspend(other)).statusCode, 200, 'a locked account suspended')
  expectError(t, await follow(asker, other), 404, MSG.userNotFound, 'asking a suspended account')
  await follow(asker, owner)
  t.equal((await suspend(asker)).statusCode, 200, 'an asker suspended')
  t.strictSame(await waiting(owner), [], "a suspended asker's request is not listed")
  expectError(t, await authorize(owner, asker.user._id), 404, MSG.followRequestNotFound, 'nor authorized')
  expectError(t, await reject(owner, asker.user._id), 404, MSG.followRequestNotFound, 'nor rejected')
  t.strictSame(await waiting(owner), [], 'nothing changed')
})

await t.test('a block ends a waiting request, its notification with it', async (t) => {
  const [owner, asker] = [await locked(), await signup(api)]
  await follow(asker, owner)
  await write(owner, 'POST', `/api/users/block/${asker.user._id}`)
  t.strictSame(await waiting(owner), [], 'the request is gone')
  t.strictSame(await notices(owner), { types: [], unread: 0 }, 'and its notification')
  await write(owner, 'POST', `/api/users/unblock/${asker.user._id}`)
  t.strictSame(await waiting(owner), [], 'an unblock does not bring it back')
  expectOk(t, await follow(asker, owner), 200, FollowReplySchema, 'asking again after the unblock')
})

await t.test("an account's deletion takes its requests, both ways", async (t) => {
  const [owner, leaver, asker] = [await locked(), await signup(api), await signup(api)]
  await edit(leaver, { locked: true })
  await follow(leaver, owner)
  await follow(asker, leaver)
  t.strictSame(await waiting(owner), [leaver.user._id], 'the leaver asked the owner')
  const gone = await write(leaver, 'DELETE', '/api/account', { password: leaver.password })
  t.equal(gone.statusCode, 200, 'the account is deleted')
  t.strictSame(await waiting(owner), [], "the leaver's request went")
  t.strictSame(await notices(owner), { types: [], unread: 0 }, 'with its notification')
  expectError(t, await authorize(owner, leaver.user._id), 404, MSG.followRequestNotFound, 'nothing to authorize')
  expectOk(t, await follow(asker, owner), 200, FollowReplySchema, 'the other asker asks on elsewhere')
  t.strictSame(await waiting(owner), [asker.user._id], 'and only that request waits')
})

await t.test('an imported follow of a locked account comes in as a request, telling nobody', async (t) => {
  const [owner, importer] = [await locked(), await signup(api)]
  const res = await api.as(importer.token, {
    method: 'POST',
    url: '/api/account/import',
    ...multipart('file', 'following_accounts.csv', 'text/csv', Buffer.from(`${owner.username}\n`)),
  })
  t.match(expectOk(t, res, 200, ImportReplySchema).imported, { following: 1 }, 'counted as imported')
  t.strictSame(await waiting(owner), [importer.user._id], 'a request waits')
  t.strictSame(ids((await profile(importer)).following), [], 'no follow')
  t.strictSame(await notices(owner), { types: [], unread: 0 }, 'and nobody was told')
})
