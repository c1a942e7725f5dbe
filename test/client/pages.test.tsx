import './dom.js'
import { cleanup, fireEvent, screen, within } from '@testing-library/react'
import t from 'tap'
import { App } from '../../client/app.js'
import { ErrorBoundary } from '../../client/components/error-boundary.js'
import {
  fakeIntersectionObserver,
  makePost,
  makeUser,
  ok,
  fail,
  renderAt,
  resetAll,
  signInAs,
  stubApi,
  summary,
  until,
} from './helpers.js'

t.beforeEach(() => resetAll())
t.afterEach(() => {
  cleanup()
  resetAll()
})

const me = makeUser({ username: 'guest' })
const maya = makeUser({ username: 'maya', firstName: 'Maya', lastName: 'Lin', _id: 'id-maya' })
const base = {
  'GET /api/users/suggestions': () => ok({ users: [] }),
  'GET /api/feed': () => ok({ posts: [], nextCursor: null }),
  'GET /api/posts': () => ok({ posts: [], nextCursor: null }),
  'GET /api/users/bookmark': () => ok({ bookmarks: [], nextCursor: null }),
  'GET /api/users/guest': () => ok({ user: me }),
  'GET /api/posts/user/guest': () => ok({ posts: [], nextCursor: null }),
}

function start(path: string, extra: Parameters<typeof stubApi>[0] = {}) {
  signInAs(me)
  const api = stubApi({ ...base, ...extra })
  return { api, ...renderAt(path, <App />) }
}

await t.test('home: the empty text, and Who to follow has no more suggestions', async (t) => {
  const { api } = start('/')
  t.teardown(api.restore)
  t.ok(await screen.findByText('No posts to show yet. Follow people to see their posts here.'))
  t.ok(await screen.findByText('No more suggestions!'))
})

await t.test('an empty home offers people to follow and the way to Explore, in the page itself', async (t) => {
  const { api } = start('/', {
    'GET /api/users/suggestions': () => ok({ users: [maya] }),
    'POST /api/users/follow/id-maya': () => ok({ user: { ...me, following: [summary(maya)] }, followUser: maya }),
  })
  t.teardown(api.restore)
  const main = await screen.findByRole('main')
  const follow = await within(main).findByRole('button', { name: 'Follow Maya Lin' })
  t.equal(within(main).getByRole('link', { name: 'Explore posts' }).getAttribute('href'), '/explore')
  fireEvent.click(follow)
  await until(() => api.calls.some((c) => c.path === '/api/users/follow/id-maya'))
  await until(() => within(main).queryByRole('button', { name: 'Follow Maya Lin' }) === null)
  t.pass('a followed person leaves the suggestions')
})

await t.test('bookmark: the empty text', async (t) => {
  const { api } = start('/bookmark')
  t.teardown(api.restore)
  t.ok(await screen.findByText('You have not added any Bookmarks!'))
})

await t.test('explore: placeholders, then pages of 10 as the sentinel shows, then the end text', async (t) => {
  const observers = fakeIntersectionObserver(t)
  const firstPage = Array.from({ length: 10 }, (_, i) => makePost({ content: `first page ${i}` }))
  let release: () => void = () => {}
  const held = new Promise<void>((resolve) => (release = resolve))
  const { api } = start('/explore', {
    'GET /api/posts': async (req) => {
      if (req.query.get('cursor') === 'next')
        return ok({ posts: [makePost({ content: 'the last post' })], nextCursor: null })
      await held
      return ok({ posts: firstPage, nextCursor: 'next' })
    },
  })
  t.teardown(api.restore)
  t.ok(await screen.findByText('Loading posts'), 'said while loading')
  t.ok(
    document.querySelectorAll('.skeleton-card').length > 0,
    'with placeholder posts rather than a spinner on the first load',
  )
  t.equal(document.querySelector('.spinner'), null)
  release()
  await screen.findByText('first page 9')
  t.equal(screen.queryByText("You're all caught up"), null, 'not at the end yet')
  // The sentinel is watched once the page has drawn it, an effect later than the posts themselves.
  await until(() => observers.watching().length > 0).catch(() => undefined)
  t.equal(observers.watching().length, 1, 'one sentinel watching')
  observers.scrollToEnd()
  await screen.findByText('the last post')
  t.ok(await screen.findByText("You're all caught up"))
  const pages = api.calls.filter((c) => c.path === '/api/posts')
  t.same(
    pages.map((c) => [c.query.get('limit'), c.query.get('cursor')]),
    [
      ['10', null],
      ['10', 'next'],
    ],
  )
  t.equal(screen.getAllByRole('article').length, 11, 'the second page is appended')
})

await t.test('own profile: details, empty posts, empty follow lists, Edit Profile', async (t) => {
  const { api } = start('/profile/guest')
  t.teardown(api.restore)
  await screen.findByRole('heading', { name: 'Guest User' })
  t.ok(screen.getByText('Joined Jan 10, 2026'))
  t.ok(await screen.findByText('You have not added any posts!'))
  t.ok(screen.getByRole('button', { name: 'Edit Profile' }))
  t.equal(screen.queryByRole('button', { name: /^Follow/ }), null, 'no follow button on oneself')
  fireEvent.click(screen.getByRole('button', { name: '0 Following' }))
  t.ok(within(screen.getByRole('dialog', { name: 'Following' })).getByText('Not following anyone!'))
  fireEvent.keyDown(screen.getByRole('dialog'), { key: 'Escape' })
  fireEvent.click(screen.getByRole('button', { name: '0 Followers' }))
  t.ok(within(screen.getByRole('dialog', { name: 'Followers' })).getByText('No followers'))
})

await t.test("another user's profile: Follow turns into Following", async (t) => {
  const followed = { ...me, following: [summary(maya)] }
  const { api } = start('/profile/maya', {
    'GET /api/users/maya': () => ok({ user: { ...maya, bio: 'Designer', website: 'https://maya.example' } }),
    'GET /api/posts/user/maya': () => ok({ posts: [makePost({ content: 'Maya writes' })], nextCursor: null }),
    'POST /api/users/follow/id-maya': () => ok({ user: followed, followUser: { ...maya, followers: [summary(me)] } }),
  })
  t.teardown(api.restore)
  await screen.findByText('Maya writes')
  t.ok(screen.getByText('Designer'))
  t.equal(screen.getByRole('link', { name: 'maya.example' }).getAttribute('href'), 'https://maya.example/')
  fireEvent.click(screen.getByRole('button', { name: 'Follow Maya Lin' }))
  const following = await screen.findByRole('button', { name: 'Following Maya Lin' })
  t.equal(following.getAttribute('aria-pressed'), 'true')
  t.ok(screen.getByRole('button', { name: '1 Follower' }))
})

await t.test('post detail: the post with its comments open, or the server message', async (t) => {
  const { api } = start('/post-detail/p1', {
    'GET /api/posts/p1': () => ok({ post: makePost({ _id: 'p1', id: 'p1', content: 'Detailed post' }) }),
    'GET /api/posts/gone': () => fail(404, 'Post not found'),
  })
  t.teardown(api.restore)
  await screen.findByText('Detailed post')
  t.ok(screen.getByPlaceholderText('Post your reply'), 'comments open')
  const article = screen.getByRole('article')
  t.ok(within(article).getByText(/^\d{1,2}:\d{2} [AP]M · Jan (9|10|11), 2026$/), 'the full date')
  t.equal(within(article).queryByRole('link', { name: /^\d+[smhd]$/ }), null, 'instead of the time ago')
  fireEvent.click(screen.getByRole('button', { name: 'Back' }))
  await screen.findByRole('heading', { name: 'Latest Posts' })
  t.pass('Back from a page opened directly leads home')
  cleanup()
  renderAt('/post-detail/gone', <App />)
  t.ok(
    await screen.findByText("This post doesn't exist. It may have been deleted."),
    'the server message in plain words',
  )
  t.equal(screen.queryAllByText(/doesn't exist/).length, 1, 'said once, not again in a toast')
})

await t.test('the error boundary shows the heading and the error text', async (t) => {
  const Broken = () => {
    throw new Error('Something broke in render')
  }
  const quiet = console.error
  console.error = () => {}
  t.teardown(() => void (console.error = quiet))
  renderAt(
    '/',
    <ErrorBoundary>
      <Broken />
    </ErrorBoundary>,
  )
  t.ok(screen.getByRole('heading', { name: 'Unexpected Application Error!' }))
  t.ok(screen.getByText('Something broke in render'))
})

await t.test('the Post button opens the create-post modal; Escape closes it and focus returns', async (t) => {
  const { api } = start('/')
  t.teardown(api.restore)
  const nav = await screen.findByRole('navigation', { name: 'Main' })
  const tweet = within(nav).getByRole('button', { name: 'Post' })
  tweet.focus()
  fireEvent.click(tweet)
  const dialog = screen.getByRole('dialog', { name: 'Create Post' })
  t.equal(document.activeElement, within(dialog).getByPlaceholderText('What is happening?!'))
  fireEvent.keyDown(dialog, { key: 'Escape' })
  await until(() => screen.queryByRole('dialog') === null)
  t.equal(document.activeElement, tweet)
})

await t.test('a list that fails to load says so once, in plain words, and Try again loads it', async (t) => {
  let failing = true
  const { api } = start('/explore', {
    'GET /api/posts': () =>
      failing
        ? fail(500, 'Internal server error')
        : ok({ posts: [makePost({ content: 'Back again' })], nextCursor: null }),
  })
  t.teardown(api.restore)
  await screen.findByText('Something went wrong on our side. Please try again.')
  t.equal(screen.getAllByText(/went wrong/).length, 1, 'not again in a toast')
  failing = false
  fireEvent.click(screen.getByRole('button', { name: 'Try again' }))
  t.ok(await screen.findByText('Back again'))
})

await t.test('in a list, the first image loads at once and the rest lazily', async (t) => {
  const posts = [
    makePost({ content: 'words only' }),
    makePost({ content: 'first picture', mediaUrl: '/media/1.png', type: 'image' }),
    makePost({ content: 'second picture', mediaUrl: '/media/2.png', type: 'image' }),
  ]
  const { api } = start('/explore', { 'GET /api/posts': () => ok({ posts, nextCursor: null }) })
  t.teardown(api.restore)
  await screen.findByText('second picture')
  const loading = screen
    .getAllByRole('img', { name: 'Image posted by Maya Lin' })
    .map((img) => img.getAttribute('loading'))
  t.same(loading, ['eager', 'lazy'])
})
