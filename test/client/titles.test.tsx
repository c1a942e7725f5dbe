import './dom.js'
import { cleanup, fireEvent, screen, within } from '@testing-library/react'
import t from 'tap'
import { App } from '../../client/app.js'
import { makePost, makeUser, ok, renderAt, resetAll, signInAs, stubApi, until, expectTitle } from './helpers.js'

t.beforeEach(() => resetAll())
t.afterEach(() => {
  cleanup()
  resetAll()
})

const me = makeUser({ username: 'guest' })
const maya = makeUser({ username: 'maya.lin', firstName: 'Maya', lastName: 'Lin', _id: 'id-maya' })

function start(path: string) {
  signInAs(me)
  const api = stubApi({
    'GET /api/users/suggestions': () => ok({ users: [] }),
    'GET /api/feed': () => ok({ posts: [], nextCursor: null }),
    'GET /api/posts': () =>
      ok({ posts: [makePost({ _id: 'p1', id: 'p1', content: 'Ink, paper, tea' })], nextCursor: null }),
    'GET /api/posts/p1': () => ok({ post: makePost({ _id: 'p1', id: 'p1', content: 'Ink, paper, tea' }) }),
    'GET /api/users/maya.lin': () => ok({ user: maya }),
    'GET /api/posts/user/maya.lin': () => ok({ posts: [], nextCursor: null }),
  })
  return { api, ...renderAt(path, <App />) }
}

const live = () => document.querySelector('[role="status"][aria-live="polite"][aria-atomic="true"]')

await t.test('each page names itself in the tab title', async (t) => {
  const { api } = start('/explore')
  t.teardown(api.restore)
  await screen.findByText('Ink, paper, tea')
  await expectTitle(t, 'Explore / Chirp')
  cleanup()
  renderAt('/profile/maya.lin', <App />)
  await screen.findByRole('heading', { name: 'Maya Lin' })
  await until(() => document.title === 'Maya Lin (@maya.lin) / Chirp')
  cleanup()
  renderAt('/post-detail/p1', <App />)
  await screen.findByText('Ink, paper, tea')
  await until(() => document.title === 'Maya Lin on Chirp: "Ink, paper, tea" / Chirp')
  cleanup()
  renderAt('/bookmark', <App />)
  await until(() => document.title === 'Bookmarks / Chirp')
  t.pass('home, explore, bookmarks, profile and post titles')
})

await t.test(
  'after a navigation the focus is on the new heading and the page is announced; not on the first page',
  async (t) => {
    const { api } = start('/')
    t.teardown(api.restore)
    await screen.findByRole('heading', { name: 'Latest Posts' })
    await expectTitle(t, 'Home / Chirp')
    t.notOk(document.activeElement?.matches('h1'), 'the first page leaves the focus alone')
    t.equal(live()?.textContent, '')
    fireEvent.click(within(screen.getByRole('navigation', { name: 'Main' })).getByRole('link', { name: 'Explore' }))
    await until(() => document.activeElement === screen.queryByRole('heading', { level: 1, name: 'Explore' }))
    await until(() => live()?.textContent === 'Explore / Chirp')
    t.pass('focus on "Explore", "Explore / Chirp" announced')
  },
)
