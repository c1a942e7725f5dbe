import './dom.js'
import { cleanup, fireEvent, screen, within } from '@testing-library/react'
import t, { type Test } from 'tap'
import { App } from '../../client/app.js'
import {
  makePost,
  makeUser,
  ok,
  renderAt,
  resetAll,
  signInAs,
  stubApi,
  suggestionTexts,
  summary,
  until,
  type ApiRequest,
  expectTitle,
} from './helpers.js'

t.beforeEach(() => resetAll())
t.afterEach(() => {
  cleanup()
  resetAll()
})

const me = makeUser({ username: 'guest' })
const maya = makeUser({
  username: 'maya.lin',
  firstName: 'Maya',
  lastName: 'Lin',
  _id: 'id-maya',
  bio: 'Ink and paper',
})
const mayan = makeUser({ username: 'mayan', firstName: 'Mayan', lastName: 'Ruins', _id: 'id-mayan' })
const teaPost = makePost({ _id: 'p-tea', id: 'p-tea', content: 'Tea with maya #Tea' })

/** The search the stub answers: posts and people whose text holds `q`, with the query recorded. */
function searchRoute(request: ApiRequest) {
  const q = (request.query.get('q') ?? '').toLowerCase()
  if (request.query.get('type') === 'users') {
    const found = [maya, mayan].filter((u) => u.username.startsWith(q.replace(/^@/, '')))
    return ok({ users: found.map((u) => ({ ...summary(u), bio: u.bio })), nextCursor: null })
  }
  return ok({ posts: teaPost.content.toLowerCase().includes(q) ? [teaPost] : [], nextCursor: null })
}

function start(t: Test, path: string) {
  signInAs(me)
  const api = stubApi({
    'GET /api/users/suggestions': () => ok({ users: [] }),
    'GET /api/notifications': () => ok({ notifications: [], nextCursor: null, unread: 0 }),
    'GET /api/tags/trending': () =>
      ok({
        tags: [
          { tag: 'tea', posts: 3 },
          { tag: 'café', posts: 1 },
        ],
      }),
    'GET /api/posts': () => ok({ posts: [makePost({ content: 'Explore post' })], nextCursor: null }),
    'GET /api/search': searchRoute,
    'GET /api/posts/tag/tea': () => ok({ posts: [teaPost], nextCursor: null }),
    'POST /api/users/follow/id-maya': () => ok({ user: { ...me, following: [summary(maya)] }, followUser: maya }),
  })
  t.teardown(api.restore)
  return { api, ...renderAt(path, <App />) }
}

const searches = (calls: ApiRequest[]) =>
  calls.filter((c) => c.path === '/api/search').map((c) => `${c.query.get('type')}:${c.query.get('q')}`)
const sideBox = () =>
  within(document.querySelector('.app-aside') as HTMLElement).getByRole('combobox', { name: 'Search Chirp' })
const type = (box: HTMLElement, value: string) => fireEvent.change(box, { target: { value } })

await t.test(
  'typing in the side column searches as the typing pauses, and the address follows with replace',
  async (t) => {
    const { api, location } = start(t, '/explore')
    await screen.findByText('Explore post')
    const box = sideBox()
    box.focus()
    for (const text of ['t', 'te', 'tea']) type(box, text)
    await until(() => location.history?.at(-1) === '/search?q=tea')
    t.same(location.history, ['/explore', '/search?q=tea'], 'one new entry for the search, so Back returns to Explore')
    t.ok(await screen.findByText('Tea with maya'), 'the posts found')
    t.same(
      searches(api.calls).filter((s) => s.startsWith('posts:')),
      ['posts:tea'],
      'one search for what was typed when the typing paused: as nobody matches "tea", posts',
    )
    t.equal(document.activeElement, box, 'the caret stays in the box')

    type(box, 'maya tea')
    await until(() => location.history?.at(-1) === '/search?q=maya+tea')
    t.equal(location.history?.length, 2, 'later searches replace it')
    await expectTitle(t, 'maya tea - Search / Chirp')

    fireEvent.click(screen.getByRole('tab', { name: 'People' }))
    await until(() => location.history?.at(-1) === '/search?q=maya+tea&type=users')
    t.ok(await screen.findByText('Nobody matches “maya tea”.'), 'the no-result state')
    type(box, 'maya')
    await until(() => location.history?.at(-1) === '/search?q=maya&type=users')
    const people = await screen.findByRole('list', { name: 'People found' })
    t.ok(within(people).getByText('Ink and paper'), 'a person with their bio')
    fireEvent.click(within(people).getByRole('button', { name: 'Follow Maya Lin' }))
    await until(() => api.calls.some((c) => c.path === '/api/users/follow/id-maya'))
    t.ok(await within(people).findByRole('button', { name: 'Following Maya Lin' }))

    fireEvent.keyDown(screen.getByRole('tab', { name: 'People' }), { key: 'ArrowLeft' })
    await until(() => location.history?.at(-1) === '/search?q=maya')
    t.equal(
      screen.getByRole('tab', { name: 'Posts' }).getAttribute('aria-selected'),
      'true',
      'arrow keys move between the tabs',
    )
  },
)

await t.test('a search address opens as it says, with the box filled in; an empty query asks for one', async (t) => {
  const { api, location } = start(t, '/search?q=maya&type=users')
  t.ok(await screen.findByRole('link', { name: /Maya Lin/ }))
  t.equal(screen.getByRole('tab', { name: 'People' }).getAttribute('aria-selected'), 'true')
  t.equal((sideBox() as HTMLInputElement).value, 'maya')
  t.same(searches(api.calls), ['users:maya'])

  type(sideBox(), '   ')
  await until(() => location.history?.at(-1) === '/search?type=users')
  t.ok(await screen.findByText('Search for people, posts and #tags.'), 'the empty-query state')
  t.same(searches(api.calls), ['users:maya'], 'no search for nothing')
})

await t.test('from another page, @name looks for a person; Enter searches at once', async (t) => {
  const { location } = start(t, '/explore')
  await screen.findByText('Explore post')
  type(sideBox(), '@may')
  fireEvent.submit(sideBox())
  t.equal(location.history?.at(-1), '/search?q=%40may&type=users')
  t.ok(await screen.findByText('@mayan'))
})

await t.test('on a phone the box at the top of Explore stays, with its text, while the results come', async (t) => {
  const { location } = start(t, '/explore')
  await screen.findByText('Explore post')
  const top = within(document.querySelector('.top-bar') as HTMLElement).getByRole('combobox')
  top.focus()
  type(top, 'tea')
  await until(() => location.history?.at(-1) === '/search?q=tea')
  t.ok(await screen.findByText(/Tea with maya/))
  t.equal(document.activeElement, top, 'the same field, still focused')
  t.equal((top as HTMLInputElement).value, 'tea')
})

await t.test('/ focuses the search box and g n goes to notifications', async (t) => {
  const { location } = start(t, '/explore')
  await screen.findByText('Explore post')
  fireEvent.keyDown(document.body, { key: '/' })
  t.equal(document.activeElement?.getAttribute('type'), 'search', 'the search box has the focus')
  fireEvent.keyDown(document.activeElement!, { key: 'g' })
  fireEvent.keyDown(document.activeElement!, { key: 'n' })
  t.equal(location.history?.at(-1), '/explore', 'typing in the box is not a shortcut')
  ;(document.activeElement as HTMLElement).blur()
  fireEvent.keyDown(document.body, { key: 'g' })
  fireEvent.keyDown(document.body, { key: 'n' })
  await until(() => location.history?.at(-1) === '/notifications')
})

await t.test(
  'trending tags link to their pages; a tag page lists its posts, whatever the case of the link',
  async (t) => {
    const { api, location } = start(t, '/explore')
    const trending = await screen.findByRole('region', { name: 'Trending' })
    await within(trending).findByText('#tea')
    t.same(
      within(trending)
        .getAllByRole('link')
        .map((a) => [a.textContent, a.getAttribute('href')]),
      [
        ['#tea3 posts', '/tag/tea'],
        ['#café1 post', '/tag/caf%C3%A9'],
      ],
    )
    fireEvent.click(within(trending).getByRole('link', { name: /#tea/ }))
    t.ok(await screen.findByRole('heading', { level: 1, name: '#tea' }))
    t.ok(await screen.findByText('Tea with maya'))
    await expectTitle(t, '#tea / Chirp')
    t.equal(location.history?.at(-1), '/tag/tea')

    t.equal(
      screen.getByRole('link', { name: '#Tea' }).getAttribute('href'),
      '/tag/tea',
      'the tag as written links to the same page',
    )
    cleanup()
    api.calls.length = 0
    renderAt('/tag/TEA', <App />)
    t.ok(await screen.findByRole('heading', { level: 1, name: '#tea' }), 'a link in capitals shows the same tag')
    t.same(
      api.calls.filter((c) => c.path.startsWith('/api/posts/tag/')).map((c) => c.path),
      ['/api/posts/tag/tea'],
    )
  },
)

await t.test('a tag page for what cannot be a tag says so without asking the server', async (t) => {
  const { api } = start(t, '/tag/2026')
  t.ok(await screen.findByText(/is not a hashtag/))
  t.notOk(api.calls.some((c) => c.path.startsWith('/api/posts/tag/')))
})

await t.test(
  'a query typed in the box that matches people shows People first; a link shows what it says',
  async (t) => {
    const { location } = start(t, '/explore')
    await screen.findByText('Explore post')
    type(sideBox(), 'maya')
    await until(() => location.history?.at(-1) === '/search?q=maya&type=users')
    t.equal(screen.getByRole('tab', { name: 'People' }).getAttribute('aria-selected'), 'true')
    t.ok(await within(await screen.findByRole('list', { name: 'People found' })).findByText('Ink and paper'))
    t.same(location.history, ['/explore', '/search?q=maya&type=users'], 'Back still returns to Explore')
    cleanup()
    resetAll()

    start(t, '/search?q=maya')
    t.ok(await screen.findByText('Tea with maya'), 'an address with no tab is Posts, as it always was')
  },
)

await t.test('the search box is a combobox: people and tags as they are typed, picked with the keys', async (t) => {
  const { location } = start(t, '/explore')
  await screen.findByText('Explore post')
  const box = sideBox()
  box.focus()
  type(box, 'may')
  const list = await screen.findByRole('listbox', { name: 'Suggestions' })
  t.equal(box.getAttribute('aria-expanded'), 'true')
  t.equal(box.getAttribute('aria-controls'), list.id)
  t.same(
    within(list)
      .getAllByRole('option')
      .map((o) => o.textContent),
    ['Maya Lin@maya.lin', 'Mayan Ruins@mayan'],
  )
  fireEvent.keyDown(box, { key: 'ArrowDown' })
  fireEvent.keyDown(box, { key: 'ArrowDown' })
  const active = within(list).getAllByRole('option')[1]!
  t.equal(box.getAttribute('aria-activedescendant'), active.id, 'the field points at the chosen option')
  t.equal(active.getAttribute('aria-selected'), 'true')
  fireEvent.keyDown(box, { key: 'Enter' })
  await until(() => location.history?.at(-1) === '/profile/mayan')
  t.equal(screen.queryByRole('listbox'), null, 'picked, the list closes')

  type(sideBox(), '#t')
  t.same(await suggestionTexts(), ['#tea3 posts this week'], "this week's tags that begin so")
  fireEvent.keyDown(sideBox(), { key: 'Escape' })
  t.equal(screen.queryByRole('listbox'), null, 'Escape closes it')
  t.equal(sideBox().getAttribute('aria-expanded'), 'false')
})
