import './dom.js'
import { cleanup, fireEvent, screen } from '@testing-library/react'
import t, { type Test } from 'tap'
import type { Post, User } from '../../client/api/types.js'
import { App } from '../../client/app.js'
import type { SortLabel } from '../../client/state/early-home.js'
import { lists } from '../../client/state/lists.js'
import { makePost, makeUser, ok, renderAt, resetAll, signInAs, stubApi, summary, until } from './helpers.js'
import { startFakeLive } from './live-fakes.js'

t.beforeEach(() => resetAll())
t.afterEach(() => {
  cleanup()
  resetAll()
})

// jsdom has no layout to scroll; the button's scroll to the top is recorded instead.
const scrolls: unknown[] = []
window.scrollTo = ((options: unknown) => void scrolls.push(options)) as typeof window.scrollTo

const maya = makeUser({ username: 'maya', firstName: 'Maya', lastName: 'Lin', _id: 'id-maya' })
const byMaya = (content: string, id: string): Post => makePost({ _id: id, id, content, username: 'maya' })
const byTheo = (content: string, id: string): Post =>
  makePost({ _id: id, id, content, username: 'theo', firstName: 'Theo', lastName: 'Park' })
const byMe = (content: string, id: string): Post =>
  makePost({ _id: id, id, content, username: 'guest', firstName: 'Guest', lastName: 'User' })

/** Signed in as guest, who follows Maya, on `path`, with live updates over a fake stream. */
async function live(t: Test, path: string, feed: Post[], options: { sort?: SortLabel } = {}) {
  const me: User = makeUser({ username: 'guest', following: [summary(maya)] })
  signInAs(me)
  if (options.sort) lists.sort = options.sort
  const api = stubApi({
    'POST /api/events/ticket': () => ok({ ticket: 'tk' }),
    'GET /api/users/suggestions': () => ok({ users: [] }),
    'GET /api/feed': () => ok({ posts: feed, nextCursor: null }),
    'GET /api/posts': () => ok({ posts: feed, nextCursor: null }),
  })
  t.teardown(api.restore)
  renderAt(path, <App />)
  const { send } = await startFakeLive(t)
  return { created: (post: Post) => send('post.created', { post }), send }
}

const contents = () => screen.getAllByRole('article').map((a) => a.querySelector('.post-content')?.textContent)

await t.test("home: a followed user's new posts wait behind 'N new posts'; a click shows them on top", async (t) => {
  const { created } = await live(t, '/', [byMaya('Already here', 'old')])
  await screen.findByText('Already here')
  created(byMaya('Fresh one', 'n1'))
  t.ok(await screen.findByRole('button', { name: '1 new post' }))
  t.same(contents(), ['Already here'], 'the list did not move')
  created(byMaya('Fresh two', 'n2'))
  const button = await screen.findByRole('button', { name: '2 new posts' })
  fireEvent.click(button)
  await until(() => screen.queryByText('Fresh two') !== null)
  t.same(contents(), ['Fresh two', 'Fresh one', 'Already here'], 'newest first, on top')
  t.equal(screen.queryByRole('button', { name: /new posts?$/ }), null, 'the button is gone')
  t.match(scrolls.at(-1), { top: 0 }, 'and the page went to the top to show them')
})

await t.test('home: my own new post (from another tab) appears at once', async (t) => {
  const { created } = await live(t, '/', [byMaya('Already here', 'old')])
  await screen.findByText('Already here')
  created(byMe('Mine from the other tab', 'm1'))
  await until(() => screen.queryByText('Mine from the other tab') !== null)
  t.same(contents(), ['Mine from the other tab', 'Already here'])
  t.equal(screen.queryByRole('button', { name: /new posts?$/ }), null)
})

await t.test('home: a post by someone I do not follow stays out; explore offers it behind the button', async (t) => {
  const { created } = await live(t, '/', [byMaya('Already here', 'old')])
  await screen.findByText('Already here')
  created(byTheo('Theo speaks', 't1'))
  await new Promise((resolve) => setTimeout(resolve, 20))
  t.equal(screen.queryByRole('button', { name: /new posts?$/ }), null, 'not in my home feed')
  cleanup()
  renderAt('/explore', <App />)
  await screen.findByText('Already here')
  created(byTheo('Theo again', 't2'))
  fireEvent.click(await screen.findByRole('button', { name: '1 new post' }))
  await until(() => screen.queryByText('Theo again') !== null)
  t.same(contents(), ['Theo again', 'Already here'])
})

await t.test('home sorted Oldest: a new post belongs at the end, so it is added there, with no button', async (t) => {
  const { created } = await live(t, '/', [byMaya('Oldest post', 'old')], { sort: 'Oldest' })
  await screen.findByText('Oldest post')
  created(byMaya('Newest post', 'n1'))
  await until(() => screen.queryByText('Newest post') !== null)
  t.same(contents(), ['Oldest post', 'Newest post'])
  t.equal(screen.queryByRole('button', { name: /new posts?$/ }), null)
})

await t.test('an empty home feed shows the button instead of the empty text', async (t) => {
  const { created } = await live(t, '/', [])
  await screen.findByText('No posts to show yet. Follow people to see their posts here.')
  created(byMaya('First ever', 'n1'))
  created(byMaya('Second ever', 'n2'))
  fireEvent.click(await screen.findByRole('button', { name: '2 new posts' }))
  await until(() => screen.queryByText('First ever') !== null)
  t.same(contents(), ['Second ever', 'First ever'])
  t.equal(screen.queryByText(/No posts to show yet/), null)
})

await t.test('a waiting post that is deleted no longer counts', async (t) => {
  const { created, send } = await live(t, '/', [byMaya('Already here', 'old')])
  await screen.findByText('Already here')
  created(byMaya('Here and gone', 'n1'))
  created(byMaya('Here to stay', 'n2'))
  await screen.findByRole('button', { name: '2 new posts' })
  send('post.deleted', { postId: 'n1' })
  fireEvent.click(await screen.findByRole('button', { name: '1 new post' }))
  await until(() => screen.queryByText('Here to stay') !== null)
  t.same(contents(), ['Here to stay', 'Already here'])
})
