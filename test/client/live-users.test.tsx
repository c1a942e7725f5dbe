import './dom.js'
import { cleanup, fireEvent, screen, within } from '@testing-library/react'
import t from 'tap'
import type { User } from '../../client/api/types.js'
import { postCache } from '../../client/state/post-cache.js'
import { session } from '../../client/state/session.js'
import { makeComment, makePost, ok, resetAll, summary, until } from './helpers.js'
import { LATER, liveApp, samples, type Routes } from './live-app.js'

t.beforeEach(() => resetAll())
t.afterEach(() => {
  cleanup()
  resetAll()
})

let { me, maya, theo, p1 } = samples()
t.beforeEach(() => void ({ me, maya, theo, p1 } = samples()))

/** The profile of `user`, with no posts. */
const profileOf = (user: User): Routes => ({
  [`GET /api/users/${user.username}`]: () => ok({ user }),
  [`GET /api/posts/user/${user.username}`]: () => ok({ posts: [], nextCursor: null }),
})
const follows = (follower: User, followed: User) => ({ user: summary(follower), followUser: summary(followed) })
const edited = (user: User, changes: Partial<User>) => {
  const { _id, username, firstName, lastName, avatarURL, bio, website } = { ...user, ...changes }
  return { user: { _id, username, firstName, lastName, avatarURL, bio, website, updatedAt: LATER } }
}
const dialog = (name: string) => screen.getByRole('dialog', { name })

await t.test(
  "user.followed and .unfollowed change a shown profile's counts, its lists and my Follow button",
  async (t) => {
    const { send } = await liveApp(t, me, '/profile/maya', profileOf(maya))
    fireEvent.click(await screen.findByRole('button', { name: '0 Followers' }))
    send('user.followed', follows(theo, maya))
    t.ok(await screen.findByRole('button', { name: '1 Follower' }), 'someone else followed Maya')
    t.ok(within(dialog('Followers')).getByText('Theo Park'), 'and shows in her open Followers list')

    send('user.followed', follows(me, maya))
    t.ok(await screen.findByRole('button', { name: 'Following Maya Lin' }), 'my follow from another tab')
    t.ok(screen.getByRole('button', { name: '2 Followers' }))
    t.same(
      within(dialog('Followers'))
        .getAllByRole('link')
        .map((a) => a.textContent),
      ['Theo Park@theo', 'Guest User@guest'],
    )
    t.same(session.user?.following, [summary(maya)], 'my own record follows her')
    t.same(session.user?.bookmarks, ['p1'], 'and keeps my bookmarks')
    t.equal(session.user?.email, 'guest@example.com')

    send('user.followed', follows(maya, theo))
    t.ok(await screen.findByRole('button', { name: '1 Following' }), 'whom she follows counts too')
    send('user.unfollowed', follows(me, maya))
    t.ok(await screen.findByRole('button', { name: 'Follow Maya Lin' }))
    t.ok(screen.getByRole('button', { name: '1 Follower' }))
    t.equal(within(dialog('Followers')).queryByText('Guest User'), null)
    send('user.unfollowed', follows(me, maya))
    t.ok(screen.getByRole('button', { name: '1 Follower' }), 'an unfollow seen twice takes one away')
    t.same(session.user?.following, [])
  },
)

await t.test(
  'a follow made in another tab takes the person out of Who to follow and refreshes the home feed',
  async (t) => {
    const { api, send } = await liveApp(t, me, '/', {
      'GET /api/users/suggestions': () => ok({ users: [theo] }),
      'GET /api/feed': () => ok({ posts: [], nextCursor: null }),
    })
    await screen.findByRole('button', { name: 'Follow Theo Park' })
    const feeds = () => api.calls.filter((c) => c.path === '/api/feed').length
    const before = feeds()
    send('user.followed', follows(me, theo))
    await until(() => screen.queryByRole('button', { name: 'Follow Theo Park' }) === null)
    t.pass('Theo is no longer suggested')
    await until(() => feeds() === before + 1)
    t.pass('the feed was fetched again, now with his posts in scope')
  },
)

await t.test('user.updated renames the person on posts, comments and in Who to follow', async (t) => {
  const withComment = { ...p1, comments: [makeComment('Nice one')] }
  const { send } = await liveApp(t, me, '/post-detail/p1', {
    'GET /api/posts/p1': () => ok({ post: withComment }),
    'GET /api/users/suggestions': () => ok({ users: [maya] }),
  })
  await screen.findByText('Nice one')
  await until(() => screen.queryAllByText('Maya Lin').length === 3)
  send('user.updated', edited(maya, { firstName: 'Mae', avatarURL: '/avatars/avatar-3.svg' }))
  await until(() => screen.queryAllByText('Mae Lin').length === 3)
  t.equal(screen.queryByText('Maya Lin'), null, 'the post, the comment and the suggestion all show the new name')
  t.equal(postCache.byId.p1?.avatarURL, '/avatars/avatar-3.svg')
  t.equal(postCache.byId.p1?.comments[0]?.avatarURL, '/avatars/avatar-3.svg')
})

await t.test("user.updated changes a shown profile's header, and the person's name in its follow lists", async (t) => {
  const { send } = await liveApp(t, me, '/profile/theo', profileOf({ ...theo, followers: [summary(maya)] }))
  await screen.findByRole('heading', { name: 'Theo Park' })
  send('user.updated', edited(theo, { firstName: 'Theodore', bio: 'Sky watcher', website: 'https://theo.example' }))
  t.ok(await screen.findByRole('heading', { name: 'Theodore Park' }))
  t.ok(screen.getByText('Sky watcher'))
  t.ok(screen.getByRole('link', { name: /theo\.example/ }))

  fireEvent.click(screen.getByRole('button', { name: '1 Follower' }))
  t.ok(within(dialog('Followers')).getByText('Maya Lin'))
  send('user.updated', edited(maya, { lastName: 'Lin-Park' }))
  t.ok(await within(dialog('Followers')).findByText('Maya Lin-Park'))
})

await t.test('user.updated of my own profile, from another tab, keeps my email and bookmarks', async (t) => {
  const { send } = await liveApp(t, me, '/explore', { 'GET /api/posts': () => ok({ posts: [], nextCursor: null }) })
  await screen.findByText('Nobody has posted yet.')
  send('user.updated', edited(me, { firstName: 'Guesty', bio: 'Just visiting' }))
  t.match(session.user, {
    firstName: 'Guesty',
    bio: 'Just visiting',
    updatedAt: LATER,
    email: 'guest@example.com',
    bookmarks: ['p1'],
  })
})

await t.test("user.deleted takes the person's comments and rows off the screen", async (t) => {
  const theos = { username: 'theo', firstName: 'Theo', lastName: 'Park' }
  let deleted = false
  const post = () => {
    const comments = [...(deleted ? [] : [makeComment('Nice one')]), makeComment('Me too', theos)]
    return { ...p1, ...theos, comments }
  }
  const { send } = await liveApp(t, me, '/post-detail/p1', {
    'GET /api/posts/p1': () => ok({ post: post() }),
    'GET /api/users/suggestions': () => ok({ users: deleted ? [] : [maya] }),
  })
  await screen.findByText('Nice one')
  await until(() => screen.queryAllByText('Maya Lin').length === 2)
  deleted = true
  send('user.deleted', { userId: maya._id, username: maya.username })
  await until(() => screen.queryByText('Nice one') === null)
  t.equal(screen.queryAllByText('Maya Lin').length, 0, 'her comment and her suggestion are gone')
  t.ok(screen.getByText('Me too'), "others' comments stay")
})

await t.test(
  'user.deleted reads the open post again: the reposts and replies of the person leave its counts',
  async (t) => {
    let gone = false
    const post = () => ({ ...p1, repostCount: gone ? 1 : 2 })
    const { send } = await liveApp(t, me, '/post-detail/p1', { 'GET /api/posts/p1': () => ok({ post: post() }) })
    t.ok(await screen.findByText('Repost, 2 reposts'), 'two reposts before')
    gone = true
    send('user.deleted', { userId: maya._id, username: maya.username })
    t.ok(await screen.findByText('Repost, 1 repost'), 'one after the account went')
  },
)

await t.test(
  "post.pinned reorders an open profile's first page: pinned first, an unpinned one back in its place",
  async (t) => {
    const at = (day: number) => new Date(Date.UTC(2026, 0, day)).toISOString()
    const posts = [3, 2, 1].map((day) =>
      makePost({ _id: `d${day}`, id: `d${day}`, content: `Day ${day}`, createdAt: at(day) }),
    )
    const { send } = await liveApp(t, me, '/profile/maya', {
      [`GET /api/users/${maya.username}`]: () => ok({ user: maya }),
      [`GET /api/posts/user/${maya.username}`]: () => ok({ posts: structuredClone(posts), nextCursor: null }),
    })
    await screen.findByText('Day 1')
    const order = () => screen.queryAllByText(/^Day \d$/).map((node) => node.textContent)
    t.strictSame(order(), ['Day 3', 'Day 2', 'Day 1'], 'newest first')
    send('post.pinned', { postId: 'd1', pinned: true })
    await until(() => order()[0] === 'Day 1')
    t.strictSame(order(), ['Day 1', 'Day 3', 'Day 2'], 'the pinned post leads')
    send('post.pinned', { postId: 'd2', pinned: true })
    await until(() => order()[0] === 'Day 2')
    t.strictSame(order(), ['Day 2', 'Day 1', 'Day 3'], 'the latest pin on top')
    send('post.pinned', { postId: 'd2', pinned: false })
    await until(() => order()[0] === 'Day 1')
    t.strictSame(order(), ['Day 1', 'Day 3', 'Day 2'], 'an unpinned post goes back to its place by time')
  },
)
