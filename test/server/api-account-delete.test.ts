import type { AddressInfo } from 'node:net'
import path from 'node:path'
import t, { type Test } from 'tap'
import { MSG } from '../../server/errors.js'
import { EmptyObjectSchema } from '../../server/schemas/common.js'
import { TicketReplySchema } from '../../server/schemas/events.js'
import { buildApiApp, expectError, expectOk, signup, type SignedUp } from '../helpers/api.js'
import { buildModerationApp, call, commentBy, imageBy, postBy } from '../helpers/moderation.js'
import { untilMediaDeleted } from '../helpers/jobs.js'
import { snapshotDb } from '../helpers/seeded.js'
import { openSse, within, type SseClient } from '../helpers/sse.js'
import { postgresOnly } from '../helpers/store-under-test.js'

/**
 * DELETE /api/account (DECISIONS §9): everything the user made goes, counts everywhere drop, open screens
 * hear of it, the username is held, and the account's tokens and streams end.
 */
const { api, admin } = await buildModerationApp(t)
await api.app.listen({ host: '127.0.0.1', port: 0 })

const remove = (token: string, payload: object) => call(api, token, 'DELETE', '/api/account', payload)
const json = async <T>(token: string, url: string) => (await call(api, token, 'GET', url)).json() as T
type Post = { _id: string; likes: { likeCount: number }; commentCount: number }
type Person = { _id: string; username: string; followers: unknown[]; following: unknown[] }

async function streamOf(t: Test, token: string): Promise<SseClient> {
  const { ticket } = expectOk(t, await call(api, token, 'POST', '/api/events/ticket'), 200, TicketReplySchema)
  const port = (api.app.server.address() as AddressInfo).port
  const client = await openSse(port, `/api/events?ticket=${encodeURIComponent(ticket)}`)
  t.teardown(() => client.close())
  return client
}

const exists = async (url: string) => (await api.media.read(path.basename(url))) !== undefined

await t.test('everything the user made goes, and every count drops', async (t) => {
  const [leaver, bea, cal] = await Promise.all([signup(api), signup(api), signup(api)])
  const id = (who: SignedUp) => who.user._id
  // What the leaver made on others' things, and others made on theirs.
  const beasPost = await postBy(api, bea.token, 'bea writes')
  await call(api, leaver.token, 'POST', `/api/posts/like/${beasPost}`)
  await commentBy(api, leaver.token, beasPost, `hello @${cal.username}`)
  await call(api, leaver.token, 'POST', `/api/users/bookmark/${beasPost}`)
  await call(api, leaver.token, 'POST', `/api/users/follow/${id(bea)}`)
  await call(api, bea.token, 'POST', `/api/users/follow/${id(leaver)}`)
  const image = await imageBy(api, leaver.token)
  const shared = await imageBy(api, leaver.token)
  const created = await call(api, leaver.token, 'POST', '/api/posts', { content: 'mine', mediaUrl: image })
  const leaversPost = (created.json() as { post: Post }).post._id
  await call(api, leaver.token, 'POST', '/api/posts', { content: 'shared', mediaUrl: shared })
  await call(api, bea.token, 'POST', '/api/posts', { content: 'bea uses it too', mediaUrl: shared })
  await call(api, bea.token, 'POST', `/api/posts/like/${leaversPost}`)
  const beasComment = await commentBy(api, bea.token, leaversPost, `and @${cal.username}`)
  await call(api, bea.token, 'POST', `/api/users/bookmark/${leaversPost}`)
  await call(api, cal.token, 'POST', `/api/users/block/${id(leaver)}`)
  await call(api, bea.token, 'POST', `/api/users/mute/${id(leaver)}`)
  await call(api, leaver.token, 'POST', `/api/users/mute/${id(cal)}`)
  await call(api, leaver.token, 'POST', '/api/reports', { targetType: 'post', targetId: beasPost, category: 'spam' })
  t.equal(
    (await json<{ unread: number }>(bea.token, '/api/notifications')).unread,
    3,
    'bea had a like, a comment and a follow',
  )
  t.equal(
    (await json<{ unread: number }>(cal.token, '/api/notifications')).unread,
    1,
    'cal had a mention on their post (the block took back theirs)',
  )
  const openBefore = (await json<{ open: number }>(admin, '/api/admin/reports?status=open')).open

  const beas = await streamOf(t, bea.token)
  const leavers = await streamOf(t, leaver.token)
  const res = await remove(leaver.token, { password: leaver.password })
  t.strictSame(expectOk(t, res, 200, EmptyObjectSchema), {})

  const deleted = await beas.until((m) => m.event === 'post.deleted' && m.data?.includes(leaversPost) === true)
  t.ok(deleted, "an open screen hears of each of the user's posts")
  const gone = await beas.until((m) => m.event === 'user.deleted')
  t.strictSame(JSON.parse(gone.data ?? '{}'), { userId: id(leaver), username: leaver.username }, 'and of the user')
  await within(leavers.ended, 2000, "the user's own stream to end")

  expectError(t, await call(api, bea.token, 'GET', `/api/posts/${leaversPost}`), 404, MSG.postNotFound)
  const after = (await json<{ post: Post }>(bea.token, `/api/posts/${beasPost}`)).post
  t.equal(after.likes.likeCount, 0, 'their like is off the count')
  t.equal(after.commentCount, 0, 'their comment is off the count')
  const beaNow = (await json<{ user: Person }>(bea.token, `/api/users/${bea.username}`)).user
  t.equal(beaNow.followers.length, 0, 'they follow nobody any more')
  t.equal(beaNow.following.length, 0, 'nobody follows them any more')
  t.strictSame(
    (await json<{ bookmarks: Post[] }>(bea.token, '/api/users/bookmark')).bookmarks,
    [],
    'bookmarks of their posts go',
  )
  t.equal(
    (await json<{ unread: number }>(bea.token, '/api/notifications')).unread,
    0,
    "bea's notifications from them go",
  )
  t.equal((await json<{ unread: number }>(cal.token, '/api/notifications')).unread, 0, 'mentions in what they made go')
  t.strictSame((await json<{ users: Person[] }>(cal.token, '/api/users/blocks')).users, [], 'blocks of them go')
  t.strictSame((await json<{ users: Person[] }>(bea.token, '/api/users/mutes')).users, [], 'mutes of them go')
  t.equal(
    (await json<{ open: number }>(admin, '/api/admin/reports?status=open')).open,
    openBefore - 1,
    'their reports go',
  )
  const comments = (await json<{ comments: { _id: string }[] }>(bea.token, `/api/comments/${beasPost}`)).comments
  t.notOk(
    comments.some((comment) => comment._id === beasComment),
    'comments on their posts go',
  )
  await untilMediaDeleted(api, admin)
  t.equal(await exists(image), false, 'an upload only they used is deleted, by a job')
  t.equal(await exists(shared), true, 'an upload someone else shows stays')
  expectError(t, await call(api, bea.token, 'GET', `/api/users/${leaver.username}`), 404, MSG.userNotFound)
})

await t.test('afterwards the tokens are a 401, and the username is held', async (t) => {
  const leaver = await signup(api)
  const other = await api.login(leaver.username, leaver.password)
  expectOk(t, await remove(leaver.token, { password: leaver.password }), 200, EmptyObjectSchema)
  expectError(t, await call(api, leaver.token, 'GET', '/api/feed'), 401, MSG.invalidToken, 'the token that asked')
  expectError(t, await call(api, other, 'GET', '/api/feed'), 401, MSG.invalidToken, 'any other token')
  const login = await api.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { username: leaver.username, password: leaver.password },
  })
  expectError(t, login, 404, MSG.userNotRegistered)
  for (const username of [leaver.username, leaver.username.toUpperCase()]) {
    const res = await api.app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      payload: { username, password: 'a long password', email: 'x@example.com', firstName: 'A', lastName: 'B' },
    })
    expectError(t, res, 400, MSG.usernameNotAvailable, username)
  }
})

await t.test('a wrong password, the guest and a missing password change nothing', async (t) => {
  const me = await signup(api)
  const guest = await api.login('guest')
  const before = await snapshotDb(api)
  expectError(t, await remove(me.token, { password: 'not the password' }), 400, MSG.passwordIncorrect)
  expectError(t, await remove(me.token, {}), 400, 'password is required')
  expectError(t, await remove(guest, { password: 'guestpassword' }), 403, MSG.guestUnchangeable)
  expectError(t, await remove('nonsense', { password: 'whatever' }), 401, MSG.invalidToken)
  t.strictSame(await snapshotDb(api), before, 'nothing stored changed')
  t.equal((await call(api, me.token, 'GET', '/api/feed')).statusCode, 200, 'the token still works')
})

await t.test('the only admin cannot go; once there is another, they can', async (t) => {
  expectError(t, await remove(admin, { password: 'mayapassword' }), 400, MSG.onlyAdmin)
  const other = await signup(api)
  const promoted = await call(api, admin, 'POST', `/api/admin/users/${other.user._id}/role`, { role: 'admin' })
  t.equal(promoted.statusCode, 200)
  expectOk(t, await remove(admin, { password: 'mayapassword' }), 200, EmptyObjectSchema)
  expectError(
    t,
    await remove(other.token, { password: other.password }),
    400,
    MSG.onlyAdmin,
    'now the other is the only one',
  )
})

await t.test('the username is free again after 30 days', async (t) => {
  let clock = Date.parse('2026-01-01T00:00:00.000Z')
  const timed = await buildApiApp(t, { options: { now: () => new Date(clock) } })
  const leaver = await signup(timed)
  expectOk(
    t,
    await call(timed, leaver.token, 'DELETE', '/api/account', { password: leaver.password }),
    200,
    EmptyObjectSchema,
  )
  clock += 29 * 24 * 60 * 60 * 1000
  await t.rejects(signup(timed, { username: leaver.username }), /400/, 'held on day 29')
  clock += 2 * 24 * 60 * 60 * 1000
  t.equal((await signup(timed, { username: leaver.username })).username, leaver.username, 'free on day 31')
})

await t.test(
  'on PostgreSQL, a deletion through one instance ends the streams and tokens on another',
  { skip: postgresOnly },
  async (t) => {
    const second = await buildApiApp(t, { sharedSchema: api.schema as string })
    await second.app.listen({ host: '127.0.0.1', port: 0 })
    const leaver = await signup(api)
    const { ticket } = expectOk(
      t,
      await call(second, leaver.token, 'POST', '/api/events/ticket'),
      200,
      TicketReplySchema,
    )
    const port = (second.app.server.address() as AddressInfo).port
    const there = await openSse(port, `/api/events?ticket=${encodeURIComponent(ticket)}`)
    t.teardown(() => there.close())
    expectOk(t, await remove(leaver.token, { password: leaver.password }), 200, EmptyObjectSchema)
    await within(there.ended, 3000, 'the stream on the other instance to end')
    t.equal((await call(second, leaver.token, 'GET', '/api/feed')).statusCode, 401, 'refused there too')
  },
)
