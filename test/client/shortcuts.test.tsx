import './dom.js'
import { cleanup, fireEvent, screen, within } from '@testing-library/react'
import t, { type Test } from 'tap'
import { App } from '../../client/app.js'
import { createShortcutMatcher, SHORTCUTS } from '../../client/lib/shortcuts.js'
import { makePost, makeUser, ok, renderAt, resetAll, signInAs, stubApi, until } from './helpers.js'

t.beforeEach(() => resetAll())
t.afterEach(() => {
  cleanup()
  resetAll()
})

const me = makeUser({ username: 'guest' })
const last = (history: string[] | undefined) => history?.[history.length - 1]
/** A key pressed wherever the focus is, as the browser would send it. */
const press = (key: string) => fireEvent.keyDown(document.activeElement ?? document.body, { key })

await t.test('the matcher completes single keys and sequences, and starts over on a stray key', async (t) => {
  const match = createShortcutMatcher()
  t.equal(match('j'), 'next')
  t.equal(match('g'), null, 'g waits for the next key')
  t.equal(match('h'), 'goHome')
  t.equal(match('g'), null)
  t.equal(match('x'), null, 'g x is nothing')
  t.equal(match('h'), null, 'and h alone is nothing either')
  t.equal(match('g'), null)
  t.equal(match('g'), null, 'a second g starts again')
  t.equal(match('e'), 'goExplore')
  t.equal(match('?'), 'help')
  t.equal(match('g'), null)
  t.equal(match('n'), 'goNotifications')
  t.equal(match('/'), 'search')
  const extended = createShortcutMatcher([
    ...SHORTCUTS,
    { keys: ['g', 'z'], action: 'goHome', label: 'Zen', group: 'Go to' },
  ])
  extended('g')
  t.equal(extended('z'), 'goHome', 'a new row is all a new sequence needs')
})

function startExplore(t: Test) {
  signInAs(me)
  const posts = ['First', 'Second', 'Third'].map((content, i) =>
    makePost({ _id: `p${i + 1}`, id: `p${i + 1}`, content: `${content} post` }),
  )
  const api = stubApi({
    'GET /api/users/suggestions': () => ok({ users: [] }),
    'GET /api/posts': () => ok({ posts, nextCursor: null }),
    'GET /api/feed': () => ok({ posts: [], nextCursor: null }),
    'GET /api/posts/p1': () => ok({ post: posts[0] }),
    'GET /api/users/guest': () => ok({ user: me }),
    'GET /api/posts/user/guest': () => ok({ posts: [], nextCursor: null }),
    'POST /api/posts/like/p2': () => ({ status: 201, body: { post: posts[1] } }),
    'POST /api/users/bookmark/p2': () => ok({ bookmarks: [posts[1]] }),
  })
  t.teardown(api.restore)
  return { api, ...renderAt('/explore', <App />) }
}

await t.test('j and k move between posts; l, b and r act on the one in focus; o opens it', async (t) => {
  const { api, location } = startExplore(t)
  await screen.findByText('Third post')
  const articles = () => screen.getAllByRole('article')
  press('j')
  t.equal(document.activeElement, articles()[0], 'j focuses the first post')
  press('j')
  press('j')
  press('j')
  t.equal(document.activeElement, articles()[2], 'and stops at the last')
  press('k')
  t.equal(document.activeElement, articles()[1], 'k goes back')
  press('l')
  await until(() => api.calls.some((c) => c.path === '/api/posts/like/p2'))
  press('b')
  await until(() => api.calls.some((c) => c.path === '/api/users/bookmark/p2'))
  press('r')
  await until(() => document.activeElement === within(articles()[1]!).queryByRole('textbox', { name: 'Reply' }))
  press('j')
  t.equal(
    document.activeElement,
    within(articles()[1]!).getByRole('textbox', { name: 'Reply' }),
    'no shortcut while typing',
  )
  articles()[0]!.focus()
  press('o')
  await until(() => last(location.history) === '/post-detail/p1')
})

await t.test('g h, g e and g p go places; n opens the composer; ? lists the shortcuts', async (t) => {
  const { location } = startExplore(t)
  await screen.findByText('Third post')
  press('g')
  press('p')
  await until(() => last(location.history) === '/profile/guest')
  press('g')
  press('h')
  await until(() => last(location.history) === '/')
  press('g')
  press('e')
  await until(() => last(location.history) === '/explore')

  press('n')
  const composer = screen.getByRole('dialog', { name: 'Create Post' })
  t.equal(document.activeElement, within(composer).getByRole('textbox'), 'the composer opens with the cursor in it')
  fireEvent.keyDown(composer, { key: 'Escape' })
  await until(() => screen.queryByRole('dialog') === null)

  press('?')
  const help = screen.getByRole('dialog', { name: 'Keyboard shortcuts' })
  t.equal(within(help).getAllByRole('term').length, SHORTCUTS.length, 'every shortcut is listed')
  t.ok(within(help).getByText('Next post'))
  press('g')
  press('h')
  t.equal(last(location.history), '/explore', 'none fire while a dialog is open')
})
