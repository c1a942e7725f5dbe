import './dom.js'
import { cleanup, fireEvent, render, screen } from '@testing-library/react'
import t from 'tap'
import { App } from '../../client/app.js'
import { returnPath } from '../../client/paths.js'
import { session } from '../../client/state/session.js'
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

/** Opens the login page at `/login?from=` + `query` (written into the address as it is) and logs in. */
async function loginFrom(query: string, as: 'form' | 'guest' = 'form') {
  window.history.replaceState(null, '', `/login?from=${query}`)
  // What /api/health tells the login page on a real start.
  session.guestLogin = true
  render(<App />)
  if (as === 'guest') {
    fireEvent.click(await screen.findByRole('button', { name: 'Login as a Guest' }))
  } else {
    fireEvent.change(await screen.findByLabelText('Username'), { target: { value: 'guest' } })
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'guestpassword' } })
    fireEvent.click(screen.getByRole('button', { name: 'Login' }))
  }
  await until(() => window.location.pathname !== '/login')
}

/**
 * `?from=` values that lead off the site once a browser has parsed them: `..` and `.` resolved away (also
 * spelt `%2e`), leaving `//host`; a tab or line break dropped, a backslash read as a slash; another scheme
 * or host outright. Each is written as a link to the login page would carry it: wouter decodes the query
 * string once more before the app reads it, so `%2509` is a tab too.
 */
const HOSTILE = [
  '/..//evil.example',
  '%2F..%2F%2Fevil.example',
  '/%2e%2e//evil.example',
  '/.//evil.example',
  '/a/../..//evil.example',
  '//evil.example',
  '%2F%2Fevil.example',
  '/\\evil.example',
  '%5C%5Cevil.example',
  '%2F%5C%2Fevil.example',
  '/%09/evil.example',
  '%2F%09%2Fevil.example',
  '%2F%2509%2Fevil.example',
  '/%0A/evil.example',
  '%2F%0D%2Fevil.example',
  '%09%2F%2Fevil.example',
  'https://evil.example',
  'https%3A%2F%2Fevil.example%2F',
  'https:/evil.example',
  '//localhost:3000@evil.example',
  'javascript:alert(1)',
  'javascript%3Aalert(1)',
  'data:text/html,hi',
]

/** Such values as the app reads them (decoded), given to returnPath itself. */
const HOSTILE_DECODED = [
  '/..//evil.example',
  '/%2e%2e//evil.example',
  '/.//evil.example',
  '//evil.example',
  '/\\evil.example',
  '\\\\evil.example',
  '/\t/evil.example',
  '/\n/evil.example',
  '/\r/evil.example',
  '\t//evil.example',
  ' //evil.example',
  'https://evil.example',
  'https:/evil.example',
  'javascript:alert(1)',
]

await t.test('returnPath leads home for every value that resolves off the site', async (t) => {
  const origin = 'http://localhost:3000'
  for (const from of HOSTILE_DECODED) t.equal(returnPath(from, origin), '/', JSON.stringify(from))
  t.equal(returnPath('/explore?q=1#top', origin), '/explore?q=1#top', 'a page of this site is kept')
  t.equal(returnPath('/tag/caf%C3%A9', origin), '/tag/caf%C3%A9', 'as it is spelt')
  t.equal(returnPath('/login', origin), '/', 'never back to login')
})

for (const from of HOSTILE) {
  await t.test(`after Login as a Guest, ?from=${from} leads home instead of off the site`, async (t) => {
    const stub = stubApi(api)
    t.teardown(stub.restore)
    await loginFrom(from, 'guest')
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
