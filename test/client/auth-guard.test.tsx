import './dom.js'
import { cleanup, fireEvent, screen, within } from '@testing-library/react'
import t from 'tap'
import { PRESET_AVATARS, defaultAvatarOf } from '../../common/avatars.js'
import { App } from '../../client/app.js'
import { AppShell } from '../../client/pages/app-shell.js'
import { ToastHost } from '../../client/pages/toast-host.js'
import { loadHealth, session, startSession } from '../../client/state/session.js'
import { clearState, logout } from '../../client/state/sign-out.js'
import {
  fail,
  fillSignupForm,
  makePost,
  makeUser,
  ok,
  renderAt,
  resetAll,
  signInAs,
  stubApi,
  until,
} from './helpers.js'

t.beforeEach(() => resetAll())
t.afterEach(() => {
  cleanup()
  resetAll()
})

const guest = makeUser({ username: 'guest' })
const signedInApi = {
  'GET /api/users/suggestions': () => ok({ users: [] }),
  'GET /api/posts': () => ok({ posts: [makePost({ content: 'An explored post' })], nextCursor: null }),
  'GET /api/feed': () => ok({ posts: [], nextCursor: null }),
  'GET /api/health': () => ok({ status: 'ok', guestLogin: true }),
}

const last = (history: string[] | undefined) => history?.[history.length - 1]

await t.test('a visitor is sent to /login, and returns to the page they asked for after login', async (t) => {
  const api = stubApi({
    ...signedInApi,
    'POST /api/auth/login': (req) => {
      const body = req.body as { username: string; password: string }
      return body.password === 'secret-password'
        ? ok({ foundUser: guest, encodedToken: 'tok-1' })
        : fail(401, 'The credentials you entered are invalid. Unauthorized access error.')
    },
  })
  t.teardown(api.restore)
  const { location } = renderAt('/explore', <App />)
  await screen.findByRole('heading', { name: 'Log in to Chirp' })
  t.equal(last(location.history), '/login?from=%2Fexplore', 'the guard remembers /explore')

  fireEvent.change(screen.getByLabelText('Username'), { target: { value: 'guest' } })
  fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'wrong-password' } })
  fireEvent.click(screen.getByRole('button', { name: 'Login' }))
  t.ok(
    await screen.findByText('The credentials you entered are invalid. Check the username and password.'),
    'the server message, in plain words, in a toast',
  )
  t.equal(last(location.history), '/login?from=%2Fexplore', 'still on login')

  fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'secret-password' } })
  fireEvent.click(screen.getByRole('button', { name: 'Login' }))
  await screen.findByText('An explored post')
  t.equal(last(location.history), '/explore', 'back where they came from')
  t.equal(localStorage.getItem('token'), 'tok-1')
  t.equal(localStorage.getItem('username'), 'guest')
  const explore = api.calls.find((c) => c.path === '/api/posts')
  t.equal(explore?.headers.get('authorization'), 'Bearer tok-1', 'later calls carry the token')
})

await t.test('without a remembered page, login leads to /', async (t) => {
  const api = stubApi({ ...signedInApi, 'POST /api/auth/login': () => ok({ foundUser: guest, encodedToken: 'tok' }) })
  t.teardown(api.restore)
  const { location } = renderAt('/login', <App />)
  fireEvent.change(screen.getByLabelText('Username'), { target: { value: 'guest' } })
  fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'guestpassword' } })
  fireEvent.click(screen.getByRole('button', { name: 'Login' }))
  await screen.findByRole('heading', { name: 'Latest Posts' })
  t.equal(last(location.history), '/')
})

await t.test('signup returns to the remembered page and sends the preset avatar its username picks', async (t) => {
  const api = stubApi({
    ...signedInApi,
    'POST /api/auth/signup': () => ({ status: 201, body: { createdUser: guest, encodedToken: 'tok' } }),
  })
  t.teardown(api.restore)
  const { location } = renderAt('/signup?from=%2Fexplore', <App />)
  await screen.findByLabelText('First Name')
  fillSignupForm()
  t.equal(screen.getByLabelText('Email').getAttribute('type'), 'email')
  t.equal(screen.getByLabelText('Password').getAttribute('minlength'), '8')
  fireEvent.click(screen.getByRole('button', { name: 'Create Account' }))
  await screen.findByText('An explored post')
  t.equal(last(location.history), '/explore')
  const signup = api.calls.find((c) => c.path === '/api/auth/signup')
  t.same(signup?.body, {
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: 'ada@example.com',
    username: 'ada',
    password: 'analytical',
    avatarURL: defaultAvatarOf('ada', PRESET_AVATARS),
  })
})

await t.test('a signup that waits for approval says so and signs nobody in', async (t) => {
  const api = stubApi({
    ...signedInApi,
    'POST /api/auth/signup': () => ({ status: 201, body: { createdUser: guest, pending: true } }),
  })
  t.teardown(api.restore)
  const { location } = renderAt('/signup', <App />)
  await screen.findByLabelText('First Name')
  fillSignupForm()
  fireEvent.click(screen.getByRole('button', { name: 'Create Account' }))
  await screen.findByText(/Your account is waiting for approval/)
  t.equal(last(location.history), '/signup', 'still on the signup page')
})

await t.test('Login as a Guest shows only when the server allows it, and logs in as guest', async (t) => {
  let allowed = false
  const api = stubApi({
    ...signedInApi,
    'GET /api/health': () => ok({ status: 'ok', guestLogin: allowed }),
    'POST /api/auth/login': () => ok({ foundUser: guest, encodedToken: 'tok' }),
  })
  t.teardown(api.restore)
  await loadHealth()
  renderAt('/login', <App />)
  t.equal(screen.queryByRole('button', { name: 'Login as a Guest' }), null, 'hidden when GUEST_LOGIN=false')
  allowed = true
  await loadHealth()
  fireEvent.click(await screen.findByRole('button', { name: 'Login as a Guest' }))
  await until(() => session.username === 'guest')
  t.same(api.calls.find((c) => c.path === '/api/auth/login')?.body, { username: 'guest', password: 'guestpassword' })
})

await t.test(
  'the guest button is asked about on a signed-out start, or once a signed-in start signs out',
  async (t) => {
    const api = stubApi({ ...signedInApi, 'GET /api/users/guest': () => ok({ user: guest }) })
    t.teardown(api.restore)
    const healthCalls = () => api.calls.filter((c) => c.path === '/api/health').length
    startSession(clearState)
    await until(() => session.guestLogin === true)
    t.equal(healthCalls(), 1, 'signed out: asked at once')

    resetAll()
    api.calls.length = 0
    localStorage.setItem('token', 'stored')
    localStorage.setItem('username', 'guest')
    startSession(clearState)
    await until(() => session.user?.username === 'guest')
    t.equal(healthCalls(), 0, 'signed in: not asked, as nothing shows it')
    logout()
    await until(() => session.guestLogin === true)
    t.equal(healthCalls(), 1, 'asked once signed out, for the login page')
    logout()
    t.equal(healthCalls(), 1, 'and not again')
  },
)

await t.test('on start a stored session fetches its user; a rejected token ends it', async (t) => {
  localStorage.setItem('token', 'stored')
  localStorage.setItem('username', 'guest')
  let valid = true
  const api = stubApi({
    ...signedInApi,
    'GET /api/users/guest': () =>
      valid ? ok({ user: guest }) : fail(401, 'The token is invalid. Unauthorized access error.'),
  })
  t.teardown(api.restore)
  startSession(clearState)
  await until(() => session.user?.username === 'guest')
  t.equal(api.calls.find((c) => c.path === '/api/users/guest')?.headers.get('authorization'), 'Bearer stored')

  session.user = null
  valid = false
  startSession(clearState)
  await until(() => session.token === null)
  t.equal(localStorage.getItem('token'), null, 'storage cleared')
})

await t.test(
  'logout lives in the account menu with the profile; it clears the session, tells the server, and goes to /login',
  async (t) => {
    signInAs(guest)
    const api = stubApi({
      ...signedInApi,
      'POST /api/auth/logout': () => ok({}),
    })
    t.teardown(api.restore)
    const { location } = renderAt('/', <App />)
    t.equal(
      within(await screen.findByRole('navigation', { name: 'Main' })).queryByRole('button', { name: /log ?out/i }),
      null,
      'not among the places',
    )
    fireEvent.click(await screen.findByRole('button', { name: /^Account menu/ }))
    const menu = screen.getByRole('menu', { name: 'Account menu' })
    t.same(
      within(menu)
        .getAllByRole('menuitem')
        .map((item) => item.textContent),
      ['Profile', 'Settings', 'Keyboard shortcuts', 'Log out @guest'],
    )
    t.equal(within(menu).getByRole('menuitem', { name: 'Profile' }).getAttribute('href'), '/profile/guest')
    t.equal(within(menu).getByRole('menuitem', { name: 'Settings' }).getAttribute('href'), '/settings')
    fireEvent.click(within(menu).getByRole('menuitem', { name: 'Log out @guest' }))
    t.equal(localStorage.getItem('token'), 'test-token', 'not before the answer')
    fireEvent.click(
      within(screen.getByRole('alertdialog', { name: 'Log out of Chirp?' })).getByRole('button', { name: 'Log out' }),
    )
    await screen.findByRole('heading', { name: 'Log in to Chirp' })
    t.equal(last(location.history), '/login')
    t.equal(localStorage.getItem('token'), null)
    t.equal(localStorage.getItem('username'), null)
    const told = api.calls.find((c) => c.method === 'POST' && c.path === '/api/auth/logout')
    t.equal(told?.headers.get('authorization'), 'Bearer test-token', 'the server is told which token to drop')
  },
)

await t.test('an unknown path shows the 404 page', async (t) => {
  renderAt('/no/such/page', <App />)
  t.ok(await screen.findByRole('heading', { name: 'Error 404' }))
  t.ok(screen.getByText('The page you are searching for does not exist'))
  t.equal(screen.getByRole('link', { name: 'Back to Home' }).getAttribute('href'), '/')
})

await t.test('while the session ends, the frame sends no call without a token', async (t) => {
  signInAs(guest)
  const api = stubApi({
    ...signedInApi,
    'POST /api/auth/logout': () => ok({}),
    'GET /api/users/suggestions': (req) =>
      req.headers.has('authorization')
        ? ok({ users: [] })
        : fail(401, 'The token is invalid. Unauthorized access error.'),
  })
  t.teardown(api.restore)
  renderAt(
    '/',
    <>
      <AppShell>
        <p>page</p>
      </AppShell>
      <ToastHost />
    </>,
  )
  await until(() => api.calls.some((c) => c.path === '/api/users/suggestions'))
  logout()
  await new Promise((resolve) => setTimeout(resolve, 50))
  const anonymous = api.calls.filter((c) => c.path === '/api/users/suggestions' && !c.headers.has('authorization'))
  t.equal(anonymous.length, 0)
  t.ok(screen.queryByRole('alert') === null, 'so no error toast either')
})
