import t from 'tap'
import { totpCode } from '../../server/services/totp.js'
import { startSmtp } from '../helpers/smtp.js'
import type { Locator, Page } from 'playwright-core'
import type { Test } from 'tap'
import { scan, SCHEMES, showScheme } from './axe.js'
import { journey, startE2E } from './harness.js'
import { call, signupUser, waitForPath } from './helpers.js'

/** A refusal shown at `field` (its aria-describedby names it), the screen clean for axe in both schemes. */
async function toldAt(page: Page, t: Test, field: Locator, text: string) {
  const message = page.getByText(text)
  await message.waitFor()
  const describedBy = (await field.getAttribute('aria-describedby')) ?? ''
  t.ok(describedBy.split(' ').includes((await message.getAttribute('id')) ?? '-'), `"${text}" is told at its field`)
  for (const scheme of SCHEMES) {
    await showScheme(page, scheme)
    t.same(await scan(page), [], `${text} (${scheme}): no serious or critical violations`)
  }
}

/*
 * The account's own Settings in Chromium: a new password, two-factor sign-in with a QR code drawn in
 * the page and recovery codes shown once, log out everywhere, signing in with a recovery code, and a
 * forgotten password reset through a link mailed to an SMTP server the test runs, and deleting the account.
 */
const smtp = await startSmtp(t)
const e2e = await startE2E(t, { env: { SMTP_URL: smtp.url } })

await journey(t, e2e, 'Settings: password, two-factor sign-in, log out everywhere', {}, async (page, t, e2e) => {
  const me = await signupUser(e2e, 'settings')
  // Signed in through the login page, as a person would.
  await page.goto('/login')
  await page.getByLabel('Username').fill(me.username)
  await page.getByLabel('Password').fill(me.password)
  await page.getByRole('button', { name: 'Login', exact: true }).click()
  await waitForPath(page, '/')
  await page.getByRole('button', { name: 'Account menu' }).click()
  await page.getByRole('menuitem', { name: 'Settings', exact: true }).click()
  await waitForPath(page, '/settings')
  await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor()
  for (const section of ['Profile', 'Password', 'Two-factor sign-in', 'Sessions'])
    await page.getByRole('heading', { name: section, level: 2 }).waitFor()

  const newPassword = 'a fresh password 2'
  const current = page.getByLabel('Current password')
  await current.fill('not my password')
  await page.getByLabel('New password', { exact: true }).fill(newPassword)
  await page.getByLabel('New password again').fill(newPassword)
  await page.getByRole('button', { name: 'Change password' }).click()
  await toldAt(page, t, current, 'The password is not correct.')
  await current.fill(me.password)
  await page.getByLabel('New password', { exact: true }).fill(newPassword)
  await page.getByLabel('New password again').fill(newPassword)
  await page.getByRole('button', { name: 'Change password' }).click()
  await page.getByText('Your password was changed.').waitFor()
  t.equal(await page.getByText('The password is not correct.').count(), 0, 'the refusal went with the success')
  const oldToken = await fetch(`${e2e.baseURL}/api/feed`, { headers: { authorization: me.token } })
  t.equal(oldToken.status, 401, 'the token from before the change is ended')

  await page.getByRole('button', { name: 'Set up two-factor sign-in' }).click()
  const qr = page.getByRole('img', { name: 'QR code for your authenticator app' })
  await qr.waitFor()
  t.ok(await qr.evaluate((img) => (img as HTMLImageElement).naturalWidth > 0), 'the QR code is drawn in the page')
  t.match(await qr.getAttribute('src'), /^data:image\/png;base64,/, 'from a data: URL, not a request')
  const secret = (await page.locator('.secret-key').textContent()) ?? ''
  // Turning it on asks for the password too, as turning it off does.
  await page.locator('form', { has: qr }).getByLabel('Password', { exact: true }).fill(newPassword)
  await page.getByLabel('Code from the app').fill(totpCode(secret, new Date()))
  await page.getByRole('button', { name: 'Turn on' }).click()
  const codes = page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem')
  await codes.first().waitFor()
  t.equal(await codes.count(), 10, '10 recovery codes shown')
  const recovery = (await codes.first().textContent()) ?? ''
  await page.getByRole('button', { name: 'I have saved them' }).click()
  await page.getByText('Two-factor sign-in is on.').waitFor()
  await page.reload()
  await page.getByRole('button', { name: 'Turn off two-factor sign-in' }).waitFor()
  t.equal(await codes.count(), 0, 'the recovery codes are not shown again')

  await page.getByRole('button', { name: 'Log out everywhere' }).click()
  await page
    .getByRole('alertdialog', { name: 'Log out everywhere?' })
    .getByRole('button', { name: 'Log out everywhere' })
    .click()
  await waitForPath(page, '/login')

  await page.getByLabel('Username').fill(me.username)
  await page.getByLabel('Password').fill(newPassword)
  await page.getByRole('button', { name: 'Login', exact: true }).click()
  const code = page.getByLabel('Two-factor code')
  await code.fill('000000')
  await page.getByRole('button', { name: 'Login', exact: true }).click()
  await toldAt(page, t, code, 'The code is not valid.')
  t.equal(await page.getByLabel('Password').getAttribute('aria-invalid'), null, 'not at the password')
  await code.fill(recovery)
  await page.getByRole('button', { name: 'Login', exact: true }).click()
  await waitForPath(page, '/')
  await page.getByRole('heading', { name: 'Latest Posts' }).waitFor()
  t.pass('signed in with the new password and a recovery code')
})

await journey(t, e2e, 'a forgotten password: a mailed link sets a new one', {}, async (page, t, e2e) => {
  const me = await signupUser(e2e, 'forgot')
  await page.goto('/login')
  await page.getByRole('link', { name: 'Forgot your password?' }).click()
  await waitForPath(page, '/reset-password')
  await page.getByLabel('Email').fill(`${me.username}@example.com`)
  await page.getByRole('button', { name: 'Send the link' }).click()
  await page.getByText('a link to choose a new password is on its way').waitFor()
  const mail = await smtp.next(10_000)
  const link = new URL(/http\S+\/reset-password\?token=\S+/.exec(mail.text)?.[0] ?? '')
  await page.goto(`/reset-password${link.search}`)
  await page.getByLabel('New password').fill('reset in the browser')
  await page.getByRole('button', { name: 'Set the new password' }).click()
  await waitForPath(page, '/login')
  const reply = await call<{ foundUser: { username: string } }>(e2e, 'POST', '/api/auth/login', {
    username: me.username,
    password: 'reset in the browser',
  })
  t.equal(reply.foundUser.username, me.username, 'the new password signs in')
})

await journey(
  t,
  e2e,
  'Delete account: confirmed with the username and password, then signed out',
  {},
  async (page, t, e2e) => {
    const me = await signupUser(e2e, 'leaving')
    await call(e2e, 'POST', '/api/posts', { content: 'soon gone' }, me.token)
    await page.goto('/login')
    await page.getByLabel('Username').fill(me.username)
    await page.getByLabel('Password').fill(me.password)
    await page.getByRole('button', { name: 'Login', exact: true }).click()
    await waitForPath(page, '/')
    await page.goto('/settings#delete')
    await page.getByRole('heading', { name: 'Delete account', level: 2 }).waitFor()
    const remove = page.getByRole('button', { name: 'Delete account' })
    await page.getByLabel('Your password').fill(me.password)
    t.ok(await remove.isDisabled(), 'not until the username is typed')
    await page.getByLabel(`Type your username (${me.username}) to confirm`).fill(me.username)
    await remove.click()
    await waitForPath(page, '/login')
    await page.getByText('Your account was deleted.').waitFor()
    const feed = await fetch(`${e2e.baseURL}/api/feed`, { headers: { authorization: me.token } })
    t.equal(feed.status, 401, 'its tokens are ended')
    const again = await fetch(`${e2e.baseURL}/api/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: me.username, password: 'a long password', email: 'again@example.com' }),
    })
    t.equal(again.status, 400, 'its username is held')
  },
)
