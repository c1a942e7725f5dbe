import './dom.js'
import { cleanup, fireEvent, screen } from '@testing-library/react'
import t from 'tap'
import { App } from '../../client/app.js'
import type { Registration } from '../../client/lib/model.js'
import { fail, fillSignupForm, makePost, makeUser, ok, renderAt, resetAll, stubApi, until } from './helpers.js'

/** The signup page says how signing up works here (REGISTRATION, from /api/health) before its form. */

t.beforeEach(() => resetAll())
t.afterEach(() => {
  cleanup()
  resetAll()
})

const ada = makeUser({ username: 'ada', firstName: 'Ada', lastName: 'Lovelace' })
const serverWith = (registration: Registration, signup: () => ReturnType<typeof ok>) => ({
  'GET /api/health': () => ok({ status: 'ok', guestLogin: true, registration }),
  'GET /api/users/suggestions': () => ok({ users: [] }),
  'GET /api/feed': () => ok({ posts: [makePost({ content: 'Home after signing up' })], nextCursor: null }),
  'POST /api/auth/signup': signup,
})

await t.test('an invite link fills in the invite code, which can be corrected and goes with the signup', async (t) => {
  const api = stubApi(serverWith('invite', () => ({ status: 201, body: { createdUser: ada, encodedToken: 'tok' } })))
  t.teardown(api.restore)
  renderAt('/signup?invite=WELCOME-1', <App />)
  await screen.findByText('Chirp is open by invite: you need the code, or the link, that you were given.')
  const code = screen.getByLabelText('Invite code') as HTMLInputElement
  t.equal(code.value, 'WELCOME-1', 'prefilled from the link')
  t.ok(code.required, 'required in invite mode')
  fireEvent.change(code, { target: { value: ' WELCOME-2 ' } })
  fillSignupForm()
  fireEvent.click(screen.getByRole('button', { name: 'Create Account' }))
  await screen.findByText('Home after signing up')
  const invites = api.calls
    .filter((c) => c.path === '/api/auth/signup')
    .map((c) => (c.body as { invite?: string }).invite)
  t.same(invites, ['WELCOME-2'], 'the corrected code was sent, trimmed')
})

await t.test('a refused invite is told at the invite field', async (t) => {
  const api = stubApi(serverWith('invite', () => fail(403, 'A valid invite is required.')))
  t.teardown(api.restore)
  renderAt('/signup', <App />)
  const code = await screen.findByLabelText('Invite code')
  t.equal((code as HTMLInputElement).value, '', 'empty without a link')
  fireEvent.change(code, { target: { value: 'USED-UP' } })
  fillSignupForm()
  fireEvent.click(screen.getByRole('button', { name: 'Create Account' }))
  const alert = await screen.findByText('A valid invite is required.')
  t.equal(code.getAttribute('aria-describedby'), alert.id, 'the message describes the invite field')
  t.equal(code.getAttribute('aria-invalid'), 'true')
  t.equal(screen.getByLabelText('Username').getAttribute('aria-describedby'), null, 'and no other field')
})

await t.test('with open sign-ups there is no notice and no invite field, unless a link brings one', async (t) => {
  const api = stubApi(serverWith('open', () => ({ status: 201, body: { createdUser: ada, encodedToken: 'tok' } })))
  t.teardown(api.restore)
  const { unmount } = renderAt('/signup', <App />)
  await screen.findByLabelText('First Name')
  await until(() => api.calls.some((c) => c.path === '/api/health'))
  t.equal(screen.queryByLabelText('Invite code'), null)
  t.equal(document.querySelector('.registration-notice'), null)
  unmount()
  renderAt('/signup?invite=SPARE', <App />)
  const code = (await screen.findByLabelText('Invite code')) as HTMLInputElement
  t.equal(code.value, 'SPARE')
  t.notOk(code.required, 'optional when sign-ups are open')
})

await t.test('approval: said before the form, and after signing up the account is said to wait', async (t) => {
  const api = stubApi(serverWith('approval', () => ({ status: 201, body: { createdUser: ada, pending: true } })))
  t.teardown(api.restore)
  const { location } = renderAt('/signup', <App />)
  await screen.findByText('New accounts are approved by a moderator: you can log in once yours is.')
  fillSignupForm()
  fireEvent.click(screen.getByRole('button', { name: 'Create Account' }))
  const said = await screen.findByText(
    'Your account is waiting for approval. You can log in once a moderator approves it.',
  )
  t.equal(said.getAttribute('role'), 'status', 'told to a screen reader as it appears')
  t.equal(screen.queryByRole('button', { name: 'Create Account' }), null, 'the form is gone')
  t.equal(location.history?.at(-1), '/signup', 'nobody is signed in')
  t.equal(localStorage.getItem('token'), null)
})

await t.test('closed: the page says so and shows no form', async (t) => {
  const api = stubApi(serverWith('closed', () => fail(403, 'Sign-ups are closed.')))
  t.teardown(api.restore)
  renderAt('/signup', <App />)
  await screen.findByText('Sign-ups are closed.')
  t.equal(screen.queryByRole('button', { name: 'Create Account' }), null)
  t.ok(screen.getByRole('link', { name: 'Log in' }))
})
