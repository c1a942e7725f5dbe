import './dom.js'
import { cleanup, fireEvent, screen, within } from '@testing-library/react'
import axe from 'axe-core'
import t from 'tap'
import * as MSG from '../../common/messages.js'
import { App } from '../../client/app.js'
import { readToken } from '../../client/lib/storage.js'
import { fail, makeUser, ok, renderAt, resetAll, signInAs, stubApi, until } from './helpers.js'

t.beforeEach(() => resetAll())
t.afterEach(() => {
  cleanup()
  resetAll()
})

const me = makeUser({ username: 'ada' })
const quiet = {
  'GET /api/users/suggestions': () => ok({ users: [] }),
  'GET /api/tags/trending': () => ok({ tags: [] }),
  'GET /api/users/ada': () => ok({ user: me }),
}
const type = (label: string | RegExp, value: string) =>
  fireEvent.change(screen.getByLabelText(label), { target: { value } })

await t.test('the login page asks for the two-factor code when the account needs one', async (t) => {
  const api = stubApi({
    'GET /api/health': () => ok({ status: 'ok', guestLogin: true }),
    'POST /api/auth/login': (request) =>
      (request.body as { otp?: string }).otp === '123456'
        ? ok({ foundUser: me, encodedToken: 'signed-in' })
        : fail(401, MSG.twoFactorRequired),
    ...quiet,
    'GET /api/feed': () => ok({ posts: [], nextCursor: null }),
  })
  t.teardown(api.restore)
  renderAt('/login', <App />)
  await screen.findByLabelText('Username')
  type('Username', 'ada')
  type('Password', 'a long password')
  fireEvent.click(screen.getByRole('button', { name: 'Login' }))
  const code = await screen.findByLabelText('Two-factor code')
  t.equal(screen.queryByRole('alert'), null, 'no error toast: the form asks instead')
  fireEvent.change(code, { target: { value: ' 123456 ' } })
  fireEvent.click(screen.getByRole('button', { name: 'Login' }))
  await until(() => readToken() === 'signed-in')
  const logins = api.calls.filter((c) => c.path === '/api/auth/login').map((c) => c.body)
  t.strictSame(logins, [
    { username: 'ada', password: 'a long password' },
    { username: 'ada', password: 'a long password', otp: '123456' },
  ])
})

await t.test('Settings: a new password keeps this tab signed in with the new token', async (t) => {
  signInAs(me)
  const api = stubApi({
    ...quiet,
    'GET /api/account/2fa': () => ok({ enabled: false }),
    'POST /api/account/password': () => ok({ encodedToken: 'the-new-token' }),
  })
  t.teardown(api.restore)
  renderAt('/settings', <App />)
  await screen.findByRole('heading', { name: 'Password' })
  type('Current password', 'the old one!')
  type('New password', 'the new one!')
  type('New password again', 'not the same')
  t.ok(screen.getByText('The two new passwords are not the same.'), 'a mismatch is said at once')
  type('New password again', 'the new one!')
  fireEvent.click(screen.getByRole('button', { name: 'Change password' }))
  await screen.findByText(/Your password was changed/)
  t.equal(readToken(), 'the-new-token')
  const change = api.calls.find((c) => c.path === '/api/account/password')
  t.strictSame(change?.body, { currentPassword: 'the old one!', newPassword: 'the new one!' })
})

await t.test('Settings: two-factor set-up shows a QR code, then the recovery codes once', async (t) => {
  signInAs(me)
  const recoveryCodes = Array.from({ length: 10 }, (_, i) => `aaaa${i}-bbbbb`)
  const api = stubApi({
    ...quiet,
    'GET /api/account/2fa': () => ok({ enabled: false }),
    'POST /api/account/2fa/setup': () =>
      ok({ secret: 'JBSWY3DPEHPK3PXP', otpauthUrl: 'otpauth://totp/Chirp:ada?secret=JBSWY3DPEHPK3PXP&issuer=Chirp' }),
    'POST /api/account/2fa/enable': (request) => {
      const { code, password } = request.body as { code: string; password: string }
      if (password !== 'my-password') return fail(400, MSG.passwordIncorrect)
      return code === '654321' ? ok({ recoveryCodes }) : fail(400, MSG.twoFactorInvalid)
    },
    'POST /api/account/2fa/disable': () => ok({}),
  })
  t.teardown(api.restore)
  renderAt('/settings', <App />)
  fireEvent.click(await screen.findByRole('button', { name: 'Set up two-factor sign-in' }))
  await screen.findByText('JBSWY3DPEHPK3PXP')
  t.ok(screen.getByRole('img', { name: 'QR code for your authenticator app' }), 'a QR code is shown')
  const form = screen.getByLabelText('Code from the app').closest('form') as HTMLFormElement
  const password = (value: string) => fireEvent.change(within(form).getByLabelText('Password'), { target: { value } })
  password('not-my-password')
  type('Code from the app', '111111')
  fireEvent.click(screen.getByRole('button', { name: 'Turn on' }))
  await screen.findByText('The password is not correct.')
  password('my-password')
  fireEvent.click(screen.getByRole('button', { name: 'Turn on' }))
  await screen.findByText('The code is not valid.')
  type('Code from the app', '654321')
  fireEvent.click(screen.getByRole('button', { name: 'Turn on' }))
  const list = await screen.findByRole('list', { name: 'Recovery codes' })
  t.equal(list.querySelectorAll('li').length, 10, 'the 10 recovery codes')
  fireEvent.click(screen.getByRole('button', { name: 'I have saved them' }))
  await screen.findByRole('button', { name: 'Turn off two-factor sign-in' })
  t.equal(screen.queryByRole('list', { name: 'Recovery codes' }), null, 'the codes are gone')
})

// Export, Import and Delete account (DECISIONS §9).
const onSettings = {
  ...quiet,
  'GET /api/account/2fa': () => ok({ enabled: false }),
  'GET /api/users/blocks': () => ok({ users: [], nextCursor: null }),
  'GET /api/users/mutes': () => ok({ users: [], nextCursor: null }),
}

await t.test('Delete account: the username typed and the password, then the login page', async (t) => {
  signInAs(me)
  const api = stubApi({
    ...onSettings,
    'DELETE /api/account': (request) =>
      (request.body as { password: string }).password === 'the password' ? ok({}) : fail(400, MSG.passwordIncorrect),
  })
  t.teardown(api.restore)
  const { location } = renderAt('/settings', <App />)
  const section = await screen.findByRole('heading', { name: 'Delete account' })
  const results = await axe.run(section.closest('section') ?? document.body)
  t.strictSame(
    results.violations.map((v) => v.id),
    [],
    'axe finds nothing',
  )
  const button = screen.getByRole('button', { name: 'Delete account' }) as HTMLButtonElement
  type('Your password', 'wrong password')
  type('Type your username (ada) to confirm', 'ad')
  t.ok(button.disabled, 'not until the username is typed')
  type('Type your username (ada) to confirm', 'ada')
  t.notOk(button.disabled)
  fireEvent.click(button)
  t.ok(await screen.findByText(MSG.passwordIncorrect), "the server's refusal is shown")
  t.equal(readToken(), 'test-token', 'still signed in')
  type('Your password', 'the password')
  fireEvent.click(button)
  await until(() => location.history.at(-1) === '/login')
  t.equal(readToken(), null, 'signed out')
  t.ok(await screen.findByText('Your account was deleted.'))
})

await t.test('Settings: the authorised apps are listed, and one revoked after a confirmation', async (t) => {
  signInAs(me)
  const phone = {
    id: 'client-phone',
    name: 'Pocket Toot',
    website: 'https://pocket.example/about',
    scopes: ['read', 'write:statuses', 'follow'],
    authorisedAt: '2026-01-09T08:00:00.000Z',
    lastGrantedAt: '2026-01-10T08:00:00.000Z',
  }
  const desk = { ...phone, id: 'client-desk', name: 'Desk Client', website: null, scopes: ['read'] }
  const api = stubApi({
    ...quiet,
    'GET /api/account/2fa': () => ok({ enabled: false }),
    'GET /api/account/apps': () => ok({ apps: [phone, desk] }),
    'DELETE /api/account/apps/client-phone': () => ok({}),
  })
  t.teardown(api.restore)
  renderAt('/settings', <App />)
  const list = await screen.findByRole('list', { name: 'Authorised apps' })
  t.ok(within(list).getByText('Pocket Toot'))
  t.ok(within(list).getByText('pocket.example'), "the app's site")
  t.ok(within(list).getByText(/Can read your account, post and make changes and follow, block and mute/))
  t.ok(within(list).getByText(/^Can read your account;/), 'one power alone')

  fireEvent.click(within(list).getByRole('button', { name: 'Revoke Pocket Toot' }))
  const dialog = await screen.findByRole('alertdialog', { name: 'Revoke Pocket Toot?' })
  t.notOk(
    api.calls.some((c) => c.method === 'DELETE'),
    'nothing revoked before the confirmation',
  )
  fireEvent.click(within(dialog).getByRole('button', { name: 'Revoke' }))
  await screen.findByText('Pocket Toot was signed out.')
  t.ok(api.calls.some((c) => c.method === 'DELETE' && c.path === '/api/account/apps/client-phone'))
  t.equal(within(list).queryByText('Pocket Toot'), null, 'gone from the list')
  t.ok(within(list).getByText('Desk Client'), 'the other app stays')
  const results = await axe.run(list)
  t.same(results.violations, [], 'axe: the list is clean')
})

await t.test('Settings: no app signed in says so', async (t) => {
  signInAs(me)
  const api = stubApi({
    ...quiet,
    'GET /api/account/2fa': () => ok({ enabled: false }),
    'GET /api/account/apps': () => ok({ apps: [] }),
  })
  t.teardown(api.restore)
  renderAt('/settings', <App />)
  await screen.findByText('No app is signed in to your account.')
  t.equal(screen.queryByRole('list', { name: 'Authorised apps' }), null)
})
