import './dom.js'
import t from 'tap'
import type * as Tap from 'tap'
import type { User } from '../../client/api/types.js'
import { session } from '../../client/state/session.js'
import { toasts } from '../../client/state/toasts.js'
import { isFollowing, loadSuggestions, queueFollow, users } from '../../client/state/users.js'
import * as MSG from '../../common/messages.js'
import { type ApiReply, fail, makeUser, ok, resetAll, signInAs, stubApi, summary } from './helpers.js'

/**
 * Follows go through the queue likes and bookmarks use: the button follows each click at once, the server
 * is told only the latest intent, and the button ends where the server is. Whom I follow changing on the
 * server (the follow's answer) is what refreshes the screens that depend on it, not a count compared.
 */

t.beforeEach(() => resetAll())
t.afterEach(() => resetAll())

const me = makeUser({ username: 'guest' })
const theo = makeUser({ username: 'theo', firstName: 'Theo', lastName: 'Park' })

function later() {
  let answer: (reply: ApiReply) => void = () => {}
  const reply = new Promise<ApiReply>((resolve) => (answer = resolve))
  return { reply, answer }
}

/** Signed in, with Theo suggested (so the tab holds him) and the API answering from `routes`. */
async function withTheo(t: Tap.Test, routes: Parameters<typeof stubApi>[0]) {
  signInAs(me)
  const api = stubApi({ 'GET /api/users/suggestions': () => ok({ users: [theo] }), ...routes })
  t.teardown(api.restore)
  await loadSuggestions()
  return api
}

const followed = (following: boolean) => ({
  user: { ...me, following: following ? [summary(theo)] : [] },
  followUser: { ...theo, followers: following ? [summary(me)] : [] },
})
const writes = (api: { calls: { method: string; path: string }[] }) =>
  api.calls.filter((call) => call.method === 'POST').map((call) => call.path)

await t.test(
  'a follow that fails while its unfollow waits ends unfollowed, and the unfollow is never sent',
  async (t) => {
    const follow = later()
    const api = await withTheo(t, {
      'POST /api/users/follow/id-theo': () => follow.reply,
      'POST /api/users/unfollow/id-theo': () => fail(400, MSG.notFollowing),
    })
    const first = queueFollow('id-theo')
    t.equal(isFollowing('id-theo'), true, 'the follow shows at once')
    t.same(users.suggestions[0]?.followers, [summary(me)], 'on his record too')
    const second = queueFollow('id-theo')
    t.equal(isFollowing('id-theo'), false, 'and so does the unfollow, while the follow is on its way')
    follow.answer(fail(500, MSG.internal))
    await Promise.all([first, second])
    t.equal(isFollowing('id-theo'), false, 'the button is where the server is: not following')
    t.same(users.suggestions[0]?.followers, [])
    t.same(writes(api), ['/api/users/follow/id-theo'], 'the unfollow would only have been refused')
    t.equal(toasts.items.length, 0, 'no error for a follow nobody wants any more')
    t.equal(users.followsVersion, 0, 'nothing changed on the server: nothing to refresh')
    t.same(users.pending, {})
  },
)

await t.test('follow then unfollow while the follow is on its way: both are made, the last answer shows', async (t) => {
  const follow = later()
  const api = await withTheo(t, {
    'POST /api/users/follow/id-theo': () => follow.reply,
    'POST /api/users/unfollow/id-theo': () => ok(followed(false)),
  })
  const first = queueFollow('id-theo')
  const second = queueFollow('id-theo')
  follow.answer(ok(followed(true)))
  await Promise.all([first, second])
  t.same(writes(api), ['/api/users/follow/id-theo', '/api/users/unfollow/id-theo'])
  t.equal(isFollowing('id-theo'), false)
  t.same(session.user?.following, [])
  t.equal(users.followsVersion, 0, 'followed and unfollowed: whom I follow is as it was')
})

await t.test('a follow that fails alone shows an error and the Follow button again', async (t) => {
  const api = await withTheo(t, { 'POST /api/users/follow/id-theo': () => fail(404, MSG.userNotFound) })
  await queueFollow('id-theo')
  t.equal(isFollowing('id-theo'), false)
  t.same(writes(api), ['/api/users/follow/id-theo'])
  t.same(
    toasts.items.map((toast) => toast.kind),
    ['error'],
    'one error, in a toast',
  )
})

await t.test('a follow refused as already made counts as made', async (t) => {
  await withTheo(t, { 'POST /api/users/follow/id-theo': () => fail(400, MSG.alreadyFollowing) })
  await queueFollow('id-theo')
  t.equal(isFollowing('id-theo'), true)
  t.equal(toasts.items.length, 0)
})

await t.test('the follow’s answer raises the version that refreshes the feed and the suggestions', async (t) => {
  await withTheo(t, { 'POST /api/users/follow/id-theo': () => ok(followed(true)) })
  await queueFollow('id-theo')
  t.equal(isFollowing('id-theo'), true)
  t.equal(users.followsVersion, 1)
})

await t.test('someone the tab holds nowhere else is followed with who they are', async (t) => {
  const stranger: User = makeUser({ username: 'stranger' })
  signInAs(me)
  const held = later()
  const api = stubApi({ 'POST /api/users/follow/id-stranger': () => held.reply })
  t.teardown(api.restore)
  const done = queueFollow(stranger._id, summary(stranger))
  t.equal(isFollowing(stranger._id), true, 'shown at once')
  held.answer(ok({ user: { ...me, following: [summary(stranger)] }, followUser: stranger }))
  await done
  t.same(session.user?.following, [summary(stranger)])
})
