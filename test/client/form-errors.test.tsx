import './dom.js'
import { cleanup, fireEvent, screen } from '@testing-library/react'
import t, { type Test } from 'tap'
import * as MSG from '../../common/messages.js'
import { App } from '../../client/app.js'
import { readToken } from '../../client/lib/storage.js'
import { fail, fillSignupForm, makePost, makeUser, ok, renderAt, resetAll, signInAs, stubApi } from './helpers.js'

/**
 * A failed form's message belongs to that form: it sits by the field it is about (named by the field's
 * aria-describedby), and goes when the form succeeds or the page changes, never following to the next screen.
 */

t.beforeEach(() => resetAll())
t.afterEach(() => {
  cleanup()
  resetAll()
})

const me = makeUser({ username: 'ada' })
const quiet = {
  'GET /api/health': () => ok({ status: 'ok', guestLogin: true, registration: 'open' }),
  'GET /api/users/suggestions': () => ok({ users: [] }),
  'GET /api/tags/trending': () => ok({ tags: [] }),
  'GET /api/users/ada': () => ok({ user: me }),
  'GET /api/feed': () => ok({ posts: [makePost({ content: 'The new home' })], nextCursor: null }),
  'GET /api/account/2fa': () => ok({ enabled: true }),
}
const input = (label: string) => screen.getByLabelText(label, { selector: 'input' })
const type = (label: string, value: string) => fireEvent.change(input(label), { target: { value } })

/** Opens the login page and logs in as ada with a password the stub judges. */
async function tryLogin() {
  renderAt('/login', <App />)
  await screen.findByLabelText('Username')
  type('Username', 'ada')
  type('Password', 'a long password')
  fireEvent.click(screen.getByRole('button', { name: 'Login' }))
}

/** The message `text`, checked to describe the field labelled `label` and no other input. */
async function toldAt(t: Test, label: string, text: string) {
  const message = await screen.findByText(text)
  const field = input(label)
  t.ok(field.getAttribute('aria-describedby')?.split(' ').includes(message.id), `"${text}" describes ${label}`)
  t.equal(field.getAttribute('aria-invalid'), 'true')
  const others = [...document.querySelectorAll('input')].filter(
    (input) => input !== field && input.getAttribute('aria-describedby')?.includes(message.id),
  )
  t.equal(others.length, 0, 'and no other field')
  const toasts = [...document.querySelectorAll('.toast')].map((toast) => toast.textContent)
  t.notOk(
    toasts.some((toast) => toast?.includes(text)),
    'no toast says it too',
  )
}

await t.test("a failed signup's error is gone from the home page it reaches once signing up works", async (t) => {
  let taken = true
  const api = stubApi({
    ...quiet,
    'POST /api/auth/signup': () =>
      taken ? fail(422, MSG.usernameExists) : { status: 201, body: { createdUser: me, encodedToken: 'tok' } },
  })
  t.teardown(api.restore)
  renderAt('/signup', <App />)
  await screen.findByLabelText('First Name')
  fillSignupForm()
  fireEvent.click(screen.getByRole('button', { name: 'Create Account' }))
  await toldAt(t, 'Username', 'That username is taken. Try another one.')
  taken = false
  type('Username', 'ada')
  fireEvent.click(screen.getByRole('button', { name: 'Create Account' }))
  await screen.findByText('The new home')
  t.equal(screen.queryByText('That username is taken. Try another one.'), null, 'the error stayed with its form')
  t.equal(screen.queryByRole('alert'), null, 'no alert on the home page')
})

await t.test('a wrong current password goes when the change succeeds', async (t) => {
  signInAs(me)
  let wrong = true
  const api = stubApi({
    ...quiet,
    'POST /api/account/password': () => (wrong ? fail(400, MSG.passwordIncorrect) : ok({ encodedToken: 'new' })),
  })
  t.teardown(api.restore)
  renderAt('/settings', <App />)
  await screen.findByRole('heading', { name: 'Password' })
  type('Current password', 'not my password')
  type('New password', 'the new one!')
  type('New password again', 'the new one!')
  fireEvent.click(screen.getByRole('button', { name: 'Change password' }))
  await toldAt(t, 'Current password', MSG.passwordIncorrect)
  wrong = false
  type('Current password', 'my password!')
  fireEvent.click(screen.getByRole('button', { name: 'Change password' }))
  await screen.findByText(/Your password was changed/)
  t.equal(screen.queryByText(MSG.passwordIncorrect), null, 'no stale error above the success')
  t.equal(readToken(), 'new')
})

await t.test('a login error goes with the page', async (t) => {
  const api = stubApi({ ...quiet, 'POST /api/auth/login': () => fail(403, MSG.accountSuspended) })
  t.teardown(api.restore)
  await tryLogin()
  const message = await screen.findByText(MSG.accountSuspended)
  const form = message.closest('form')
  t.equal(form?.getAttribute('aria-describedby'), message.id, 'about no field: it describes the form')
  t.equal(input('Password').getAttribute('aria-describedby'), null, 'not the password')
  fireEvent.click(screen.getByRole('link', { name: 'Sign up' }))
  await screen.findByLabelText('First Name')
  t.equal(screen.queryByText(MSG.accountSuspended), null)
})

await t.test('a wrong two-factor code at login is told at the code, not the password', async (t) => {
  const api = stubApi({
    ...quiet,
    'POST /api/auth/login': (request) =>
      (request.body as { otp?: string }).otp === undefined
        ? fail(401, MSG.twoFactorRequired)
        : fail(401, MSG.twoFactorInvalid),
  })
  t.teardown(api.restore)
  await tryLogin()
  await screen.findByLabelText('Two-factor code')
  type('Two-factor code', '000000')
  fireEvent.click(screen.getByRole('button', { name: 'Login' }))
  await toldAt(t, 'Two-factor code', MSG.twoFactorInvalid)
  const code = screen.getByLabelText('Two-factor code')
  t.ok(code.getAttribute('aria-describedby')?.split(' ').includes('login-code-hint'), 'the hint still describes it')
  t.equal(input('Password').getAttribute('aria-invalid'), null, 'the password is not marked')
  t.equal(readToken(), null)
})

await t.test('turning two-factor off: a wrong code at the code, a wrong password at the password', async (t) => {
  signInAs(me)
  const api = stubApi({
    ...quiet,
    'POST /api/account/2fa/disable': (request) =>
      (request.body as { password: string }).password === 'my password!'
        ? fail(400, MSG.twoFactorInvalid)
        : fail(400, MSG.passwordIncorrect),
  })
  t.teardown(api.restore)
  renderAt('/settings', <App />)
  const off = await screen.findByRole('button', { name: 'Turn off two-factor sign-in' })
  type('Password', 'not my password')
  type('Code from the app', '000000')
  fireEvent.click(off)
  await toldAt(t, 'Password', MSG.passwordIncorrect)
  type('Password', 'my password!')
  fireEvent.click(off)
  await toldAt(t, 'Code from the app', MSG.twoFactorInvalid)
  t.equal(screen.queryByText(MSG.passwordIncorrect), null, 'the password error went with the new try')
})

await t.test('a wrong password at login is told at the password', async (t) => {
  const api = stubApi({ ...quiet, 'POST /api/auth/login': () => fail(401, MSG.invalidCredentials) })
  t.teardown(api.restore)
  await tryLogin()
  await toldAt(t, 'Password', 'The credentials you entered are invalid. Check the username and password.')
  t.equal(input('Username').getAttribute('aria-invalid'), null)
})
