import './dom.js'
import { cleanup, fireEvent, screen, within } from '@testing-library/react'
import t from 'tap'
import { App } from '../../client/app.js'
import { makePost, makeUser, ok, renderAt, resetAll, stubApi, until } from './helpers.js'

/**
 * PUBLIC_READ: the server marks post, profile and tag pages as open to visitors, who then read them
 * with a call to join; any action asks them to join first. Unmarked, the auth guard stays.
 */
t.beforeEach(() => resetAll())
t.afterEach(() => {
  cleanup()
  resetAll()
  document.head.querySelector('meta[name="chirp:public-read"]')?.remove()
})

const maya = makeUser({ username: 'maya', firstName: 'Maya', lastName: 'Lin' })
const post = makePost({
  _id: 'p1',
  id: 'p1',
  username: 'maya',
  firstName: 'Maya',
  lastName: 'Lin',
  content: 'Tea time #tea',
})
const api = stubApi({
  'GET /api/posts/p1': () => ok({ post }),
  'GET /api/comments/p1': () => ok({ comments: [], nextCursor: null }),
  'GET /api/users/maya': () => ok({ user: maya }),
  'GET /api/posts/user/maya': () => ok({ posts: [post], nextCursor: null }),
  'GET /api/posts/tag/tea': () => ok({ posts: [post], nextCursor: null }),
  'GET /api/health': () => ok({ status: 'ok', guestLogin: true }),
})
t.teardown(api.restore)
const last = (history: string[] | undefined) => history?.at(-1)

function openToVisitors() {
  const meta = document.createElement('meta')
  meta.name = 'chirp:public-read'
  meta.content = 'true'
  document.head.append(meta)
}

await t.test('without PUBLIC_READ a shared post sends a visitor to log in', async (t) => {
  const { location } = renderAt('/post-detail/p1', <App />)
  await screen.findByRole('heading', { name: 'Log in to Chirp' })
  t.equal(last(location.history), '/login?from=%2Fpost-detail%2Fp1')
})

await t.test('with PUBLIC_READ a visitor reads the post, with a call to join; a like asks them to join', async (t) => {
  openToVisitors()
  const { location } = renderAt('/post-detail/p1', <App />)
  const article = await screen.findByRole('article')
  t.ok(within(article).getByText(/Tea time/), 'the post is shown')
  const bar = screen.getByRole('complementary', { name: 'Join Chirp' })
  t.ok(within(bar).getByRole('link', { name: 'Join Chirp' }), 'with a call to join')
  t.equal(
    screen.getByRole('navigation', { name: 'Account' }).querySelector('a')?.getAttribute('href'),
    '/login?from=%2Fpost-detail%2Fp1',
    'logging in comes back here',
  )
  t.notOk(screen.queryByRole('navigation', { name: 'Main' }), 'no signed-in navigation')
  fireEvent.click(within(article).getByRole('button', { name: /like/i }))
  await until(() => last(location.history) === '/signup?from=%2Fpost-detail%2Fp1')
  t.notOk(
    api.calls.some((c) => c.method === 'POST'),
    'nothing is sent to the server',
  )
})

await t.test("with PUBLIC_READ a visitor reads a profile and a tag's posts; Follow asks them to join", async (t) => {
  openToVisitors()
  const { location } = renderAt('/profile/maya', <App />)
  await screen.findByRole('article')
  fireEvent.click(screen.getByRole('button', { name: /^Follow/ }))
  await until(() => last(location.history) === '/signup?from=%2Fprofile%2Fmaya')
  cleanup()
  renderAt('/tag/tea', <App />)
  t.ok(await screen.findByRole('article'), "the tag's posts")
  t.ok(screen.getByRole('complementary', { name: 'Join Chirp' }))
})

await t.test('with PUBLIC_READ every other page still asks a visitor to log in', async (t) => {
  openToVisitors()
  const { location } = renderAt('/explore', <App />)
  await screen.findByRole('heading', { name: 'Log in to Chirp' })
  t.equal(last(location.history), '/login?from=%2Fexplore')
})
