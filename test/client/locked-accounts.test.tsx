import './dom.js'
import { cleanup, fireEvent, screen, within } from '@testing-library/react'
import axe from 'axe-core'
import t from 'tap'
import type { Notification, Post, User } from '../../client/api/types.js'
import { lists } from '../../client/state/lists.js'
import { postCache } from '../../client/state/post-cache.js'
import { session } from '../../client/state/session.js'
import { users } from '../../client/state/users.js'
import { makePost, makeUser, ok, resetAll, summary, until } from './helpers.js'
import { liveApp, samples, type Routes } from './live-app.js'

/**
 * Locked accounts (DECISIONS §12): the lock on a profile, Follow becoming Requested and back, the owner's
 * follow requests with Accept and Reject, their notifications, and what an unfollow hides at once.
 */
t.beforeEach(() => resetAll())
t.afterEach(() => {
  cleanup()
  resetAll()
})

let { me, maya, theo } = samples()
t.beforeEach(() => void ({ me, maya, theo } = samples()))

const NOW = '2026-01-10T12:00:00.000Z'

/** The profile of `user` (as I see it), with `posts`. */
const profileOf = (user: User, posts: Post[] = []): Routes => ({
  [`GET /api/users/${user.username}`]: () => ok({ user }),
  [`GET /api/posts/user/${user.username}`]: () => ok({ posts, nextCursor: null }),
})
const writes = (api: { calls: { method: string; path: string }[] }) =>
  api.calls.filter((c) => c.method === 'POST' && c.path.startsWith('/api/users/')).map((c) => c.path)

await t.test('a locked profile shows its lock, and Follow asks: Requested, until pressed again', async (t) => {
  const locked = { ...maya, locked: true }
  const { api } = await liveApp(t, me, '/profile/maya', {
    ...profileOf(locked),
    'POST /api/users/follow/id-maya': () => ok({ user: { ...locked, requested: true }, requested: true }),
    'POST /api/users/unfollow/id-maya': () => ok({ user: me, followUser: locked }),
  })
  t.ok(await screen.findByRole('img', { name: 'Locked account' }), 'the lock, with a name')
  t.ok(screen.getByText('@maya approves who can follow them. Followers-only posts show once they accept.'))
  fireEvent.click(screen.getByRole('button', { name: 'Follow Maya Lin' }))
  const requested = await screen.findByRole('button', { name: 'Requested: follow request to Maya Lin' })
  t.equal(requested.textContent, 'Requested')
  t.equal(requested.getAttribute('aria-pressed'), 'true')
  t.equal(requested.getAttribute('title'), 'Withdraw the follow request to Maya Lin')
  await until(() => users.pending['id-maya'] === undefined)
  t.same(session.user?.following, [], 'a request is not a follow')
  t.ok(screen.getByRole('button', { name: '0 Followers' }), 'nor is she followed by one more')
  t.ok(screen.getByText(/Your request waits for @maya's answer/))

  fireEvent.click(requested)
  t.ok(await screen.findByRole('button', { name: 'Follow Maya Lin' }), 'pressed again, the request is withdrawn')
  await until(() => users.pending['id-maya'] === undefined)
  t.same(writes(api), ['/api/users/follow/id-maya', '/api/users/unfollow/id-maya'])
  t.same(session.user?.following, [])
})

await t.test(
  'a profile whose view says requested shows Requested; an accepted request turns it into Following',
  async (t) => {
    const locked = { ...maya, locked: true, requested: true }
    const mayasPosts = [makePost({ _id: 'mf', username: 'maya', content: 'For my followers', visibility: 'followers' })]
    let accepted = false
    const { api, send } = await liveApp(t, me, '/profile/maya', {
      'GET /api/users/maya': () => ok({ user: locked }),
      'GET /api/posts/user/maya': () => ok({ posts: accepted ? mayasPosts : [], nextCursor: null }),
    })
    t.ok(await screen.findByRole('button', { name: 'Requested: follow request to Maya Lin' }))
    accepted = true
    send('user.followed', { user: summary(me), followUser: summary(maya) })
    t.ok(await screen.findByRole('button', { name: 'Following Maya Lin' }), 'she accepted')
    t.ok(await screen.findByText('For my followers'), 'her followers-only posts are read again and show')
    t.equal(api.calls.filter((c) => c.path === '/api/posts/user/maya').length, 2)
  },
)

await t.test(
  'a follow of an account not known to be locked takes back its Following when a request was made',
  async (t) => {
    const unknown = { ...theo, locked: true }
    await liveApp(t, me, '/search?q=theo&type=users', {
      'GET /api/search': () => ok({ users: [{ ...summary(theo), bio: '' }], nextCursor: null }),
      'POST /api/users/follow/id-theo': () => ok({ user: { ...unknown, requested: true }, requested: true }),
    })
    fireEvent.click(await screen.findByRole('button', { name: 'Follow Theo Park' }))
    t.ok(await screen.findByRole('button', { name: 'Requested: follow request to Theo Park' }))
    t.same(session.user?.following, [], 'not following him')
  },
)

const request = (actor: User, extra: Partial<Notification> = {}): Notification => ({
  _id: `n-${actor.username}`,
  type: 'follow_request',
  actor: summary(actor),
  createdAt: NOW,
  read: false,
  ...extra,
})

await t.test('the owner sees the requests, accepts one and rejects another, and new ones arrive live', async (t) => {
  const owner = makeUser({ ...me, locked: true })
  const asked = [summary(maya), summary(theo)]
  const { api, send } = await liveApp(t, owner, '/follow-requests', {
    'GET /api/follow-requests': () => ok({ users: asked, nextCursor: null }),
    'POST /api/follow-requests/id-maya/authorize': () => ok({ user: summary(maya) }),
    'POST /api/follow-requests/id-theo/reject': () => ok({ user: summary(theo) }),
  })
  const list = await screen.findByRole('list', { name: 'Follow requests' })
  t.same(
    within(list)
      .getAllByRole('link')
      .map((a) => a.textContent),
    ['Maya Lin@maya', 'Theo Park@theo'],
    'the oldest request first',
  )
  t.ok(screen.getByText(/Your account is locked/))
  const results = await axe.run(document.querySelector('main') ?? document.body)
  t.strictSame(
    results.violations.map((v) => v.id),
    [],
    'axe finds nothing',
  )

  fireEvent.click(screen.getByRole('button', { name: 'Accept @maya' }))
  t.ok(await screen.findByText('@maya now follows you'))
  t.equal(screen.queryByRole('button', { name: 'Accept @maya' }), null, 'she leaves the list')
  t.same(session.user?.followers, [summary(maya)], 'and shows among my followers at once')
  await until(() => document.activeElement === screen.getByRole('button', { name: 'Accept @theo' }))
  t.pass('the focus goes on to the next request')

  fireEvent.click(screen.getByRole('button', { name: 'Reject @theo' }))
  t.ok(await screen.findByText("You rejected @theo's request"))
  t.ok(await screen.findByText('Nobody is asking to follow you.'))
  await until(() => document.activeElement === screen.getByRole('heading', { name: 'Follow requests' }))
  t.pass('with none left, the focus goes to the heading')
  t.same(
    api.calls.filter((c) => c.method === 'POST' && c.path.startsWith('/api/follow-requests')).map((c) => c.path),
    ['/api/follow-requests/id-maya/authorize', '/api/follow-requests/id-theo/reject'],
  )

  send('follow_request.created', { user: summary(theo) })
  t.ok(await screen.findByRole('button', { name: 'Accept @theo' }), 'a new request shows live')
  send('follow_request.created', { user: summary(theo) })
  t.equal(screen.getAllByRole('button', { name: 'Accept @theo' }).length, 1, 'once')
})

await t.test('the account menu and Notifications lead to the requests while some wait', async (t) => {
  const owner = makeUser({ ...me, locked: true })
  await liveApp(t, owner, '/notifications', {
    'GET /api/follow-requests': () => ok({ users: [summary(maya)], nextCursor: null }),
    'GET /api/notifications': () => ok({ notifications: [request(maya)], nextCursor: null, unread: 1 }),
    'POST /api/notifications/read': () => ok({ unread: 0 }),
  })
  const link = await screen.findByRole('link', { name: 'Follow requests (1)' })
  t.equal(link.getAttribute('href'), '/follow-requests')
  const row = (await screen.findByText('asked to follow you')).closest('a')
  t.equal(row?.getAttribute('href'), '/follow-requests', 'the notification leads there too')
  t.match(row?.textContent, /Maya Lin @maya asked to follow you/)
  fireEvent.click(screen.getByRole('button', { name: /^Account menu/ }))
  const item = within(screen.getByRole('menu', { name: 'Account menu' })).getByRole('menuitem', {
    name: 'Follow requests (1)',
  })
  t.equal(item.getAttribute('href'), '/follow-requests')
})

await t.test('an open account has no follow requests item, and asks for none', async (t) => {
  const { api } = await liveApp(t, me, '/notifications', {
    'GET /api/notifications': () => ok({ notifications: [], nextCursor: null, unread: 0 }),
  })
  await screen.findByText(/Nothing yet/)
  fireEvent.click(screen.getByRole('button', { name: /^Account menu/ }))
  t.equal(screen.queryByRole('menuitem', { name: /Follow requests/ }), null)
  t.notOk(api.calls.some((c) => c.path === '/api/follow-requests'))
})

await t.test('a follow notification from an account that accepted my request says so', async (t) => {
  const mine = makeUser({ ...me, following: [summary(maya)], followers: [summary(theo)] })
  const follow = (actor: User, id: string): Notification => ({
    _id: id,
    type: 'follow',
    actor: summary(actor),
    createdAt: NOW,
    read: true,
  })
  await liveApp(t, mine, '/notifications', {
    'GET /api/notifications': () =>
      ok({ notifications: [follow(maya, 'n1'), follow(theo, 'n2')], nextCursor: null, unread: 0 }),
  })
  const accepted = (await screen.findByText('accepted your follow request')).closest('li')
  t.match(accepted?.textContent, /Maya Lin @maya accepted your follow request/)
  t.equal(within(accepted as HTMLElement).queryByRole('button'), null, 'no follow back: I follow her')
  t.ok(screen.getByText('followed you'), "Theo's follow is a follow")
})

await t.test("my unfollow takes that person's followers-only posts off the screen at once", async (t) => {
  const mine = makeUser({ ...me, following: [summary(maya)] })
  const posts = [
    makePost({ _id: 'open', username: 'maya', content: 'For everyone', visibility: 'public' }),
    makePost({ _id: 'closed', username: 'maya', content: 'For followers', visibility: 'followers' }),
    makePost({ _id: 'to-me', username: 'maya', content: 'For followers and @guest', visibility: 'followers' }),
    makePost({
      _id: 'quoting',
      username: 'maya',
      content: 'Quoting myself',
      quoteOf: 'closed',
      quote: makePost({ _id: 'closed', username: 'maya', visibility: 'followers' }),
    }),
  ]
  const { api } = await liveApp(t, mine, '/profile/maya', {
    ...profileOf({ ...maya, followers: [summary(mine)] }, posts),
    'POST /api/users/unfollow/id-maya': () => ok({ user: { ...mine, following: [] }, followUser: maya }),
  })
  await screen.findByText('For followers')
  fireEvent.click(screen.getByRole('button', { name: 'Following Maya Lin' }))
  await until(() => screen.queryByText('For followers') === null)
  t.same(lists.profile.items, ['open', 'to-me', 'quoting'], 'the followers-only post left her profile')
  t.notOk(postCache.byId.closed, 'and the cache')
  t.equal(postCache.byId.quoting?.quote, null, 'a quote of it reads as unavailable')
  t.ok(screen.getByText('This post is unavailable'))
  t.ok(screen.getByText(/^For followers and/), 'one addressed to me stays')
  t.equal(api.calls.filter((c) => c.path === '/api/posts/user/maya').length, 1, 'without reading the list again')
})

await t.test('an unfollow of someone else, or a follow, hides nothing; my own posts never go', async (t) => {
  const mine = makeUser({ ...me, following: [summary(maya)] })
  const posts = [
    makePost({ _id: 'hers', username: 'maya', content: 'Hers, for followers', visibility: 'followers' }),
    makePost({ ...summary(me), _id: 'mine', content: 'Mine, for my followers', visibility: 'followers' }),
  ]
  const { send } = await liveApp(t, mine, '/', { 'GET /api/feed': () => ok({ posts, nextCursor: null }) })
  await screen.findByText('Mine, for my followers')
  send('user.unfollowed', { user: summary(theo), followUser: summary(maya) })
  send('user.unfollowed', { user: summary(mine), followUser: summary(mine) })
  send('user.followed', { user: summary(mine), followUser: summary(theo) })
  await until(() => session.user?.following.length === 2)
  t.same(Object.keys(postCache.byId).sort(), ['hers', 'mine'], 'both stay')
})

await t.test("an unfollow made in another tab hides the person's followers-only posts too", async (t) => {
  const mine = makeUser({ ...me, following: [summary(maya)] })
  const { send } = await liveApp(t, mine, '/profile/maya', {
    ...profileOf(maya, [
      makePost({ _id: 'a', username: 'maya', content: 'Everyone sees this', visibility: 'unlisted' }),
      makePost({ _id: 'b', username: 'maya', content: 'Only followers see this', visibility: 'followers' }),
    ]),
  })
  await screen.findByText('Only followers see this')
  send('user.unfollowed', { user: summary(mine), followUser: summary(maya) })
  await until(() => screen.queryByText('Only followers see this') === null)
  t.ok(screen.getByText('Everyone sees this'))
  t.same(lists.profile.items, ['a'])
})

await t.test('the removal the server sends instead (post.deleted) takes a post off as well', async (t) => {
  const mine = makeUser({ ...me, following: [summary(maya)] })
  const { send } = await liveApp(t, mine, '/', {
    'GET /api/feed': () =>
      ok({ posts: [makePost({ _id: 'f', username: 'maya', content: 'Followers', visibility: 'followers' })] }),
  })
  await screen.findByText('Followers')
  send('post.deleted', { postId: 'f' })
  await until(() => screen.queryByText('Followers') === null)
  t.same(lists.home.items, [])
})
