import './dom.js'
import { cleanup, fireEvent, screen } from '@testing-library/react'
import t from 'tap'
import { SortDropdown } from '../../client/components/sort-dropdown.js'
import { HomePage } from '../../client/pages/home-page.js'
import { reset as resetLists } from '../../client/state/lists.js'
import { makePost, makeUser, ok, renderAt, resetAll, signInAs, stubApi, until } from './helpers.js'

t.beforeEach(() => resetAll())
t.afterEach(() => {
  cleanup()
  resetAll()
})

await t.test('the dropdown offers Trending, Oldest and Latest and reports the choice', async (t) => {
  const chosen: string[] = []
  renderAt(
    '/',
    <SortDropdown
      options={['Trending', 'Oldest', 'Latest'] as const}
      value="Latest"
      onChange={(s) => chosen.push(s)}
    />,
  )
  const select = screen.getByLabelText('Sort by') as HTMLSelectElement
  t.same(
    [...select.options].map((o) => o.value),
    ['Trending', 'Oldest', 'Latest'],
  )
  t.equal(select.value, 'Latest')
  fireEvent.change(select, { target: { value: 'Oldest' } })
  t.same(chosen, ['Oldest'])
})

await t.test('home defaults to Latest, asks the feed in the chosen order, and remembers it', async (t) => {
  signInAs(makeUser())
  const api = stubApi({
    'GET /api/feed': (req) =>
      ok({ posts: [makePost({ content: `sorted by ${req.query.get('sort')}` })], nextCursor: null }),
  })
  t.teardown(api.restore)
  const view = renderAt('/', <HomePage />)
  t.ok(screen.getByRole('heading', { name: 'Latest Posts' }))
  await screen.findByText('sorted by latest')
  fireEvent.change(screen.getByLabelText('Sort by'), { target: { value: 'Trending' } })
  await screen.findByRole('heading', { name: 'Trending Posts' })
  await screen.findByText('sorted by trending')
  t.equal(localStorage.getItem('feedSort'), 'Trending', 'kept in local storage')
  const feed = api.calls.filter((c) => c.path === '/api/feed').map((c) => c.query.get('sort'))
  t.same(feed, ['latest', 'trending'])

  view.unmount()
  resetLists()
  renderAt('/', <HomePage />)
  t.ok(screen.getByRole('heading', { name: 'Trending Posts' }), 'read back after a reload')
  t.equal((screen.getByLabelText('Sort by') as HTMLSelectElement).value, 'Trending')
  await until(() => api.calls.at(-1)?.query.get('sort') === 'trending')
})

await t.test('an unknown stored sort falls back to Latest', async (t) => {
  localStorage.setItem('feedSort', 'Random')
  resetLists()
  signInAs(makeUser())
  const api = stubApi({ 'GET /api/feed': () => ok({ posts: [], nextCursor: null }) })
  t.teardown(api.restore)
  renderAt('/', <HomePage />)
  t.ok(screen.getByRole('heading', { name: 'Latest Posts' }))
  await screen.findByText('No posts to show yet. Follow people to see their posts here.')
})
