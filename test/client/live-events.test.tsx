import './dom.js'
import { cleanup, screen } from '@testing-library/react'
import t from 'tap'
import { startLive } from '../../client/live/index.js'
import { session } from '../../client/state/session.js'
import { makePost, ok, resetAll, signInAs, stubApi, until } from './helpers.js'
import { liveApp, samples } from './live-app.js'
import { fakeEnvironment } from './live-fakes.js'

t.beforeEach(() => resetAll())
t.afterEach(() => {
  cleanup()
  resetAll()
})

const bookmarkedElsewhere = () => makePost({ _id: 'p2', id: 'p2', content: 'Bookmarked in another tab' })
let { me, p1 } = samples()
let p2 = bookmarkedElsewhere()
t.beforeEach(() => {
  ;({ me, p1 } = samples())
  p2 = bookmarkedElsewhere()
})

const contents = () => screen.getAllByRole('article').map((a) => a.querySelector('.post-content')?.textContent)

await t.test('my own record lists bookmarks as posts: the tab keeps their ids and marks those posts', async (t) => {
  await liveApp(t, me, '/explore', { 'GET /api/posts': () => ok({ posts: [p1, p2], nextCursor: null }) })
  await screen.findByText('A post to watch')
  t.same(session.user?.bookmarks, ['p1'])
  t.same(
    screen.getAllByRole('button', { name: /bookmark/i }).map((b) => b.getAttribute('aria-pressed')),
    ['true', 'false'],
  )
})

await t.test('bookmark.added and .removed change the bookmark list, its order and the Bookmark buttons', async (t) => {
  const { api, send } = await liveApp(t, me, '/bookmark', {
    'GET /api/users/bookmark': () => ok({ bookmarks: [p1], nextCursor: null }),
    'GET /api/posts/p2': () => ok({ post: p2 }),
  })
  await screen.findByText('A post to watch')
  send('bookmark.added', { postId: 'p2' })
  await screen.findByText('Bookmarked in another tab')
  t.ok(
    api.calls.some((c) => c.path === '/api/posts/p2'),
    'a post this tab had not seen is fetched',
  )
  t.same(contents(), ['Bookmarked in another tab', 'A post to watch'], 'newest bookmark first')
  t.equal(screen.getAllByRole('button', { name: 'Remove bookmark' }).length, 2)
  t.same(session.user?.bookmarks, ['p2', 'p1'])

  send('bookmark.added', { postId: 'p2' })
  t.same(session.user?.bookmarks, ['p2', 'p1'], 'the same bookmark twice is kept once')

  send('bookmark.removed', { postId: 'p1' })
  await until(() => screen.queryByText('A post to watch') === null)
  t.same(contents(), ['Bookmarked in another tab'])
  t.same(session.user?.bookmarks, ['p2'])
})

await t.test('a bookmark made elsewhere presses the Bookmark button of a post shown on another list', async (t) => {
  const { api, send } = await liveApp(t, { ...me, bookmarks: [] }, '/explore', {
    'GET /api/posts': () => ok({ posts: [p1], nextCursor: null }),
  })
  const button = await screen.findByRole('button', { name: 'Bookmark' })
  send('bookmark.added', { postId: 'p1' })
  await until(() => button.getAttribute('aria-pressed') === 'true')
  t.pass('bookmarked here too')
  send('bookmark.removed', { postId: 'p1' })
  await until(() => button.getAttribute('aria-pressed') === 'false')
  t.pass('and no longer')
  t.notOk(
    api.calls.some((c) => c.path === '/api/posts/p1'),
    'a post already shown is not fetched again',
  )
})

await t.test('post.deleted takes the post off the list and out of my bookmarks', async (t) => {
  const { send } = await liveApp(t, me, '/explore', { 'GET /api/posts': () => ok({ posts: [p1], nextCursor: null }) })
  await screen.findByText('A post to watch')
  send('post.deleted', { postId: 'p1' })
  await until(() => screen.queryByText('A post to watch') === null)
  t.ok(screen.getByText('Nobody has posted yet.'), 'the list is empty now')
  t.same(session.user?.bookmarks, [])
})

await t.test('reset refetches what is loaded, my own record with it', async (t) => {
  let version = 0
  const { api, send } = await liveApp(t, { ...me, bookmarks: [] }, '/explore', {
    'GET /api/posts': () => ok({ posts: [{ ...p1, content: `version ${++version}` }], nextCursor: null }),
    'GET /api/users/guest': () => ok({ user: { ...me, bookmarks: [p1] } }),
  })
  await screen.findByText('version 1')
  send('reset', {})
  t.ok(await screen.findByText('version 2'), 'the list came again from the server')
  t.ok(
    api.calls.some((c) => c.path === '/api/users/guest'),
    'and my own record',
  )
  t.ok(await screen.findByRole('button', { name: 'Remove bookmark' }), 'whose bookmarks the tab takes')
})

await t.test('live updates start on login and stop on logout', async (t) => {
  const api = stubApi({
    'POST /api/events/ticket': () => ok({ ticket: 'ticket-1' }),
    'POST /api/auth/logout': () => ok({}),
  })
  t.teardown(api.restore)
  const { env, streams } = fakeEnvironment()
  t.teardown(startLive(env))
  await new Promise((resolve) => setTimeout(resolve, 10))
  t.equal(streams.opened.length, 0, 'nobody signed in: no stream')
  signInAs(me)
  await until(() => streams.opened.length === 1)
  t.equal(streams.last.url, '/api/events?ticket=ticket-1')
  t.equal(api.calls.find((c) => c.path === '/api/events/ticket')?.headers.get('authorization'), 'Bearer test-token')
  session.token = null
  await until(() => streams.last.closed)
  t.pass('signing out closes the stream')
  signInAs(me)
  await until(() => streams.opened.length === 2)
  t.notOk(streams.last.closed, 'signing in again opens a new one')
})
