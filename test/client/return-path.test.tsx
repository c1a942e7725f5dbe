import './dom.js'
import { cleanup, fireEvent, render, screen } from '@testing-library/react'
import t from 'tap'
import { App } from '../../client/app.js'
import { makeUser, ok, resetAll, stubApi, until } from './helpers.js'

/**
 * The real browser location, not wouter's memory one: the crash came from history.pushState refusing a
 * URL on another origin, which only the browser location calls. wouter listens on the global object and
 * dispatches Node's own Event there when it patches history; global-jsdom gives that object no event
 * methods, so it gets a plain EventTarget's.
 */
const events = new EventTarget()
Object.assign(globalThis, {
  addEventListener: events.addEventListener.bind(events),
  removeEventListener: events.removeEventListener.bind(events),
  dispatchEvent: events.dispatchEvent.bind(events),
})

t.beforeEach(() => resetAll())
t.afterEach(() => {
  cleanup()
  resetAll()
  window.history.replaceState(null, '', '/')
})

const guest = makeUser({ username: 'guest' })
const api = {
  'POST /api/auth/login': () => ok({ foundUser: guest, encodedToken: 'tok' }),
  'GET /api/health': () => ok({ status: 'ok', guestLogin: true }),
  'GET /api/users/suggestions': () => ok({ users: [] }),
  'GET /api/feed': () => ok({ posts: [], nextCursor: null }),
  'GET /api/posts': () => ok({ posts: [], nextCursor: null }),
}

async function loginFrom(from: string) {
  window.history.replaceState(null, '', `/login?from=${from}`)
  render(<App />)
  fireEvent.change(await screen.findByLabelText('Username'), { target: { value: 'guest' } })
  fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'guestpassword' } })
  fireEvent.click(screen.getByRole('button', { name: 'Login' }))
  await until(() => window.location.pathname !== '/login')
}

/**
 * A tab or line break the browser drops from a URL, a backslash it reads as a slash: each makes
 * `//evil.example`. wouter decodes the query string once more before the app reads it, so `%2509` is a tab too.
 */
const OFF_SITE = [
  '%2F%09%2Fevil.example',
  '%2F%0A%2Fevil.example',
  '%2F%0D%2Fevil.example',
  '%2F%2509%2Fevil.example',
  '%2F%5C%2Fevil.example',
  '%2F%2Fevil.example',
  'https%3A%2F%2Fevil.example%2F',
]
for (const from of OFF_SITE) {
  await t.test(`after login, ?from=${from} leads home instead of off the site`, async (t) => {
    const stub = stubApi(api)
    t.teardown(stub.restore)
    await loginFrom(from)
    t.ok(await screen.findByRole('heading', { name: 'Latest Posts' }), 'the home page shows')
    t.equal(window.location.href, 'http://localhost:3000/', 'still on this site, at /')
    t.equal(screen.queryByText('Unexpected Application Error!'), null, 'no crash')
  })
}

await t.test('a page on this site is still where login returns', async (t) => {
  const stub = stubApi(api)
  t.teardown(stub.restore)
  await loginFrom('%2Fexplore%3Fq%3D1%23top')
  t.equal(`${window.location.pathname}${window.location.search}${window.location.hash}`, '/explore?q=1#top')
})
