import 'global-jsdom/register'
import { cleanup, screen, within } from '@testing-library/react'
import t, { type Test } from 'tap'
import type { Comment, Post, User } from '../../client/api/types.js'
import { App } from '../../client/app.js'
import { startLive } from '../../client/live/index.js'
import { session } from '../../client/state/session.js'
import { makePost, makeUser, ok, renderAt, resetAll, signInAs, stubApi, summary, until } from './helpers.js'
import { fakeEnvironment, startFakeLive } from './live-fakes.js'

t.beforeEach(() => resetAll())
t.afterEach(() => {
  cleanup()
  resetAll()
})

// Fresh records for every test: valtio keeps (and mutates) the very objects it is handed.
let me: User
let maya: User
let theo: User
let p1: Post
let base: Parameters<typeof stubApi>[0]
t.beforeEach(() => {
  me = makeUser({ username: 'guest', email: 'guest@example.com', bookmarks: ['p1'] })
  maya = makeUser({ username: 'maya', firstName: 'Maya', lastName: 'Lin', _id: 'id-maya' })
  theo = makeUser({ username: 'theo', firstName: 'Theo', lastName: 'Park', _id: 'id-theo' })
  p1 = makePost({ _id: 'p1', id: 'p1', content: 'A post to watch' })
  base = {
    'POST /api/events/ticket': () => ok({ ticket: 'ticket-1' }),
    'GET /api/users/suggestions': () => ok({ users: [] }),
    'GET /api/posts': () => ok({ posts: [p1], nextCursor: null }),
    'GET /api/posts/p1': () => ok({ post: p1 }),
  }
})

/** Renders the app signed in, starts live updates over a fake EventSource, and returns a way to send events. */
async function live(t: Test, path: string, routes: Parameters<typeof stubApi>[0] = {}) {
  signInAs(me)
  const api = stubApi({ ...base, ...routes })
  t.teardown(api.restore)
  renderAt(path, <App />)
  return { api, ...(await startFakeLive(t)) }
}

const comment = (text: string, overrides: Partial<Comment> = {}): Comment => ({
  _id: `c-${text}`, username: 'maya', firstName: 'Maya', lastName: 'Lin', avatarURL: '/avatars/avatar-2.svg', text,
  votes: { upvotedBy: [], downvotedBy: [] }, createdAt: p1.createdAt, updatedAt: p1.createdAt, ...overrides,
})
const withLikes = (post: Post, n: number): Post => ({ ...post, likes: { ...post.likes, likeCount: n, likedBy: [summary(maya)] } })

t.test('post.liked updates the count on a rendered card; post.updated its text; post.deleted removes it', async (t) => {
  const { api, streams, send } = await live(t, '/explore')
  await screen.findByText('A post to watch')
  t.equal(api.calls.find((c) => c.path === '/api/events/ticket')?.headers.get('authorization'), 'Bearer test-token')
  t.equal(streams.last.url, '/api/events?ticket=ticket-1')

  send('post.liked', { post: withLikes(p1, 1) })
  t.ok(await screen.findByRole('button', { name: 'Like, 1 like' }))
  send('post.updated', { post: { ...withLikes(p1, 1), content: 'Edited elsewhere' } })
  t.ok(await screen.findByText('Edited elsewhere'))
  send('post.deleted', { postId: 'p1' })
  await until(() => screen.queryByText('Edited elsewhere') === null)
  t.ok(screen.getByText('Nobody has posted yet.'), 'the list is empty now')
  t.same(session.user?.bookmarks, [], 'and it left my bookmarks')
})

t.test('comment events add, edit and remove comments on an open post', async (t) => {
  const { send } = await live(t, '/post-detail/p1')
  const comments = await screen.findByRole('region', { name: 'Comments' })
  const first = comment('First from Maya')
  send('comment.added', { postId: 'p1', comment: first, post: { ...p1, comments: [first] } })
  t.ok(await within(comments).findByText('First from Maya'))
  t.ok(screen.getByRole('button', { name: 'Comments, 1 comment' }))
  const edited = { ...first, text: 'Edited by Maya' }
  send('comment.updated', { postId: 'p1', comment: edited, post: { ...p1, comments: [edited] } })
  t.ok(await within(comments).findByText('Edited by Maya'))
  send('comment.deleted', { postId: 'p1', commentId: first._id, post: p1 })
  await until(() => within(comments).queryByText('Edited by Maya') === null)
  t.ok(screen.getByRole('button', { name: 'Comments, 0 comments' }))
})

t.test("user.followed and user.unfollowed update a profile's counts and my own Follow button", async (t) => {
  const { send } = await live(t, '/profile/maya', {
    'GET /api/users/maya': () => ok({ user: maya }),
    'GET /api/posts/user/maya': () => ok({ posts: [], nextCursor: null }),
  })
  t.ok(await screen.findByRole('button', { name: '0 Followers' }))
  send('user.followed', { user: { ...theo, following: [summary(maya)] }, followUser: { ...maya, followers: [summary(theo)] } })
  t.ok(await screen.findByRole('button', { name: '1 Follower' }), 'someone else followed Maya')

  // The same follow, made by me in another browser: the event carries my public record.
  const publicMe = { ...me, email: undefined, bookmarks: [], following: [summary(maya)] }
  send('user.followed', { user: publicMe, followUser: { ...maya, followers: [summary(theo), summary(me)] } })
  t.ok(await screen.findByRole('button', { name: 'Following Maya Lin' }))
  t.ok(screen.getByRole('button', { name: '2 Followers' }))
  t.same(session.user?.bookmarks, ['p1'], 'a public record does not wipe my bookmarks')
  t.equal(session.user?.email, 'guest@example.com')

  send('user.unfollowed', { user: { ...publicMe, following: [] }, followUser: { ...maya, followers: [summary(theo)] } })
  t.ok(await screen.findByRole('button', { name: 'Follow Maya Lin' }))
  t.ok(screen.getByRole('button', { name: '1 Follower' }))
})

t.test('user.updated renames the author on posts and comments', async (t) => {
  const withComment = { ...p1, comments: [comment('Nice one')] }
  const { send } = await live(t, '/post-detail/p1', { 'GET /api/posts/p1': () => ok({ post: withComment }) })
  await screen.findByText('Nice one')
  send('user.updated', { user: { ...maya, firstName: 'Mae', avatarURL: '/avatars/avatar-3.svg' } })
  await until(() => screen.queryAllByText('Mae Lin').length === 2)
  t.equal(screen.queryByText('Maya Lin'), null, 'the post and the comment both show the new name')
})

t.test('bookmark events update the bookmark list and the Bookmark buttons', async (t) => {
  const p2 = makePost({ _id: 'p2', id: 'p2', content: 'Bookmarked in another tab' })
  const { api, send } = await live(t, '/bookmark', {
    'GET /api/users/bookmark': () => ok({ bookmarks: [p1], nextCursor: null }),
    'GET /api/posts/p2': () => ok({ post: p2 }),
  })
  await screen.findByText('A post to watch')
  send('bookmark.added', { postId: 'p2', bookmarks: ['p1', 'p2'] })
  await screen.findByText('Bookmarked in another tab')
  t.ok(api.calls.some((c) => c.path === '/api/posts/p2'), 'a post this tab had not seen is fetched')
  const contents = () => screen.getAllByRole('article').map((a) => a.querySelector('.post-content')?.textContent)
  t.same(contents(), ['Bookmarked in another tab', 'A post to watch'], 'newest bookmark first')
  t.equal(screen.getAllByRole('button', { name: 'Remove bookmark' }).length, 2)

  send('bookmark.removed', { postId: 'p1', bookmarks: ['p2'] })
  await until(() => screen.queryByText('A post to watch') === null)
  t.same(session.user?.bookmarks, ['p2'])
})

t.test('reset refetches what is loaded', async (t) => {
  let version = 0
  const { api, send } = await live(t, '/explore', {
    'GET /api/posts': () => ok({ posts: [{ ...p1, content: `version ${++version}` }], nextCursor: null }),
  })
  await screen.findByText('version 1')
  send('reset', {})
  t.ok(await screen.findByText('version 2'), 'the list came again from the server')
  t.ok(api.calls.some((c) => c.path === '/api/users/guest'), 'and my own record')
})

t.test('live updates start on login and stop on logout', async (t) => {
  const api = stubApi({ ...base, 'POST /api/auth/logout': () => ok({}) })
  t.teardown(api.restore)
  const { env, streams } = fakeEnvironment()
  t.teardown(startLive(env))
  await new Promise((resolve) => setTimeout(resolve, 10))
  t.equal(streams.opened.length, 0, 'nobody signed in: no stream')
  signInAs(me)
  await until(() => streams.opened.length === 1)
  session.token = null
  await until(() => streams.last.closed)
  t.pass('signing out closes the stream')
  signInAs(me)
  await until(() => streams.opened.length === 2)
  t.notOk(streams.last.closed, 'signing in again opens a new one')
})
