import './dom.js'
import { cleanup, fireEvent, screen, within } from '@testing-library/react'
import t from 'tap'
import { App } from '../../client/app.js'
import { choose, fail, makeComment, makePost, makeUser, ok, renderAt, resetAll, signInAs, stubApi } from './helpers.js'

t.beforeEach(() => resetAll())
t.afterEach(() => {
  cleanup()
  resetAll()
})

/** Signed in as guest, over `routes` and a quiet frame (nobody to follow, nothing new). */
function signedIn(t: { teardown(fn: () => unknown): void }, routes: Parameters<typeof stubApi>[0]) {
  signInAs(makeUser({ username: 'guest' }))
  const api = stubApi({
    'GET /api/users/suggestions': () => ok({ users: [] }),
    'GET /api/notifications': () => ok({ notifications: [], nextCursor: null, unread: 0 }),
    ...routes,
  })
  t.teardown(api.restore)
}
const tryAgain = () => screen.queryByRole('button', { name: 'Try again' })

await t.test('a post that is gone says so and offers no Try again; a failing server does offer it', async (t) => {
  let answer = fail(404, 'Post not found')
  signedIn(t, { 'GET /api/posts/gone': () => answer })
  renderAt('/post-detail/gone', <App />)
  await screen.findByText("This post doesn't exist. It may have been deleted.")
  t.equal(tryAgain(), null, 'asking again would only be told the same')
  t.ok(screen.getByRole('link', { name: 'Back to Home' }))
  cleanup()

  answer = fail(500, 'Internal server error')
  renderAt('/post-detail/gone', <App />)
  await screen.findByText('Something went wrong on our side. Please try again.')
  t.ok(tryAgain(), 'a failure that may pass can be tried again')
})

await t.test(
  'an unknown profile has a heading, says the account does not exist, and offers no Try again',
  async (t) => {
    signedIn(t, {
      'GET /api/users/nobody': () => fail(404, 'User not found'),
      'GET /api/posts/user/nobody': () => fail(404, 'User not found'),
    })
    renderAt('/profile/nobody', <App />)
    t.ok(await screen.findByRole('heading', { level: 1, name: '@nobody' }))
    t.ok(screen.getByText("This account doesn't exist."))
    t.equal(tryAgain(), null)
  },
)

await t.test('a list whose subject is gone offers no Try again', async (t) => {
  signedIn(t, { 'GET /api/posts/tag/gone': () => fail(404, 'Post not found') })
  renderAt('/tag/gone', <App />)
  await screen.findByText("This post doesn't exist. It may have been deleted.")
  t.equal(tryAgain(), null)
})

await t.test('a rate-limited like says that the like was held back, and for how long', async (t) => {
  const post = makePost({ _id: 'p1', id: 'p1', content: 'Worth a like' })
  signedIn(t, {
    'GET /api/posts': () => ok({ posts: [post], nextCursor: null }),
    'POST /api/posts/like/p1': () => ({
      ...fail(429, 'Too many requests, please try again later.'),
      headers: { 'retry-after': '40' },
    }),
  })
  renderAt('/explore', <App />)
  await screen.findByText('Worth a like')
  fireEvent.click(screen.getByRole('button', { name: /^Like/ }))
  t.ok(await screen.findByText("Couldn't like the post: too many actions in a short time. Try again in 40 seconds."))
  t.equal(screen.queryByText(/Too many attempts/), null, 'not the words of a login')
})

await t.test("the post's owner deleting someone else's comment is told whose comment went", async (t) => {
  const post = makePost({
    _id: 'p2',
    id: 'p2',
    username: 'guest',
    comments: [makeComment('Not yours to keep', { _id: 'c2' })],
  })
  signedIn(t, {
    'GET /api/posts/p2': () => ok({ post }),
    'POST /api/comments/delete/p2/c2': () => ({
      status: 201,
      body: { post: { ...post, comments: [] } },
    }),
  })
  renderAt('/post-detail/p2', <App />)
  await screen.findByText('Not yours to keep')
  choose('Comment options', 'Delete')
  const dialog = screen.getByRole('alertdialog', { name: 'Delete comment?' })
  fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }))
  await screen.findByText("@maya's comment was deleted")
  t.equal(screen.queryByText('Your comment was deleted'), null, 'it was not mine')
})
