import t, { type Test } from 'tap'
import { runAdmin } from '../../server/cli/admin.js'
import { MSG } from '../../server/errors.js'
import { EmptyObjectSchema } from '../../server/schemas/common.js'
import { buildApiApp, expectError, expectOk, signup } from '../helpers/api.js'
import { TEST_SECRET, type TestApp } from '../helpers/app.js'
import { loose } from '../helpers/rate-limits.js'
import { snapshotDb, stillSnapshotDb } from '../helpers/seeded.js'
import { startSmtp, type ReceivedMail } from '../helpers/smtp.js'
import { testDatabaseUrl } from '../helpers/store-under-test.js'

/**
 * Password reset (docs/api-contract.md §4): a link mailed through SMTP_URL, to PUBLIC_URL, valid once and
 * for an hour; the same answer for known and unknown addresses; and the operator's admin reset-password.
 * The mail goes to an SMTP server the test runs.
 */
const PUBLIC_URL = 'https://chirp.example'
const smtp = await startSmtp(t)
let clock = Date.now()
const api = await buildApiApp(t, {
  config: { smtpUrl: smtp.url, publicUrl: PUBLIC_URL },
  options: { now: () => new Date(clock) },
})

const ask = (on: TestApp, email: string) =>
  on.app.inject({ method: 'POST', url: '/api/auth/password-reset', payload: { email } })
const confirm = (on: TestApp, token: string, newPassword = 'a new password at last') =>
  on.app.inject({ method: 'POST', url: '/api/auth/password-reset/confirm', payload: { token, newPassword } })
const loginStatus = async (on: TestApp, username: string, password: string) =>
  (await on.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username, password } })).statusCode

/** The token of the link a mail carries, checked to point at PUBLIC_URL's reset page. */
function tokenIn(t: Test, mail: ReceivedMail): string {
  const link = /https?:\/\/\S+\/reset-password\?token=\S+/.exec(mail.text)?.[0] ?? ''
  t.ok(link.startsWith(`${PUBLIC_URL}/reset-password?token=`), 'the link is PUBLIC_URL/reset-password?token=…')
  return new URL(link).searchParams.get('token') ?? ''
}

await t.test('a known address gets a link that sets the password once and ends every old token', async (t) => {
  const me = await signup(api)
  const res = await ask(api, me.user.email ?? '')
  t.strictSame(expectOk(t, res, 200, EmptyObjectSchema), {})
  const mail = await smtp.next()
  t.strictSame(mail.to, [me.user.email], 'sent to the account’s address')
  t.equal(mail.from, 'no-reply@localhost', 'from SMTP_FROM’s default')
  t.match(mail.text, /Subject: Reset your Chirp password/)
  t.match(mail.text, new RegExp(`@${me.username}`), 'naming the account')
  const token = tokenIn(t, mail)

  t.strictSame(expectOk(t, await confirm(api, token), 200, EmptyObjectSchema), {})
  t.equal((await api.as(me.token, { method: 'GET', url: '/api/feed' })).statusCode, 401, 'the old token is ended')
  t.equal(await loginStatus(api, me.username, me.password), 401, 'the old password no longer works')
  t.equal(await loginStatus(api, me.username, 'a new password at last'), 200, 'the new one does')
  const before = await stillSnapshotDb(api)
  expectError(t, await confirm(api, token, 'yet another password'), 400, MSG.resetLinkInvalid, 'the link used twice')
  t.strictSame(await snapshotDb(api), before, 'a used link changes nothing')
})

await t.test('an unknown address gets the same answer, and no mail', async (t) => {
  const me = await signup(api)
  const sent = smtp.mails.length
  const unknown = await ask(api, 'nobody-here@example.com')
  t.equal(unknown.statusCode, 200)
  t.equal(unknown.body, '{}', 'the same body as for a known address')
  t.equal((await ask(api, (me.user.email ?? '').toUpperCase())).statusCode, 200, 'a known one, in capitals')
  const mail = await smtp.next()
  t.strictSame(mail.to, [me.user.email], 'the next mail is the known address’s')
  t.equal(smtp.mails.length, sent + 1, 'and the unknown address got none')
  expectError(t, await ask(api, 'not an address'), 400, 'email must match format "email"')
})

await t.test('an expired, tampered or outdated link is refused and changes nothing', async (t) => {
  const me = await signup(api)
  await ask(api, me.user.email ?? '')
  const token = tokenIn(t, await smtp.next())
  const before = await stillSnapshotDb(api)
  const [userId, expires, mac] = token.split('.')
  const tampered = [
    `${userId}.${Number(expires) + 3_600_000}.${mac}`,
    `${userId}.${expires}.${mac?.slice(0, -2)}AA`,
    'not-a-token',
    `00000000-0000-4000-8000-000000000000.${expires}.${mac}`,
  ]
  for (const [i, bad] of tampered.entries())
    expectError(t, await confirm(api, bad), 400, MSG.resetLinkInvalid, `tampered link ${i + 1}`)
  expectError(t, await confirm(api, token, 'short'), 400, 'newPassword must NOT have fewer than 8 characters')
  clock += 61 * 60_000
  expectError(t, await confirm(api, token), 400, MSG.resetLinkInvalid, 'a link past its hour')
  clock -= 61 * 60_000
  t.strictSame(await snapshotDb(api), before, 'nothing changed')

  const change = { currentPassword: me.password, newPassword: 'changed another way' }
  t.equal((await api.as(me.token, { method: 'POST', url: '/api/account/password', payload: change })).statusCode, 200)
  expectError(t, await confirm(api, token), 400, MSG.resetLinkInvalid, 'a link older than a password change')
})

await t.test('the guest gets no link', async (t) => {
  const sent = smtp.mails.length
  const guestEmail = (
    (await api.as(await api.login('guest'), { method: 'GET', url: '/api/users/guest' })).json() as {
      user: { email: string }
    }
  ).user.email
  t.equal((await ask(api, guestEmail)).statusCode, 200)
  await new Promise((resolve) => setTimeout(resolve, 200))
  t.equal(smtp.mails.length, sent, 'no mail for the shared account')
})

await t.test('asking for resets is rate limited per address', async (t) => {
  const limited = await buildApiApp(t, {
    config: { rateLimit: true, smtpUrl: smtp.url },
    options: { rateLimits: loose({ passwordResetsPerAddress: { max: 2, windowMs: 60_000 } }) },
  })
  for (const n of [1, 2]) t.equal((await ask(limited, `someone${n}@example.com`)).statusCode, 200, `request ${n}`)
  const refused = await ask(limited, 'someone3@example.com')
  expectError(t, refused, 429, MSG.tooManyRequests, 'the third in the window')
})

await t.test('without SMTP_URL the call answers 200, sends nothing and warns once', async (t) => {
  const lines: string[] = []
  const quiet = await buildApiApp(t, {
    config: { logLevel: 'warn' },
    options: { logStream: { write: (line) => lines.push(line) } },
  })
  const me = await signup(quiet)
  for (let i = 0; i < 2; i++) t.equal((await ask(quiet, me.user.email ?? '')).statusCode, 200)
  const warnings = lines.filter((line) => line.includes('SMTP_URL is not set'))
  t.equal(warnings.length, 1, 'one warning, however many requests')
})

await t.test('npm run admin -- reset-password prints a link that works', async (t) => {
  const first = await buildApiApp(t)
  const me = await signup(first)
  // The embedded store's data directory is the server's alone while it runs.
  await first.app.close()
  const out: string[] = []
  const errors: string[] = []
  const env = {
    DATA_DIR: first.dataDir,
    JWT_SECRET: TEST_SECRET,
    PUBLIC_URL,
    LOG_LEVEL: 'silent',
    ...(testDatabaseUrl ? { DATABASE_URL: testDatabaseUrl, DATABASE_SCHEMA: first.schema } : {}),
  }
  const output = { log: (line: string) => out.push(line), error: (line: string) => errors.push(line) }
  t.equal(await runAdmin(['reset-password', me.username], env, output), 0, 'exits 0')
  t.equal(out.length, 1, 'prints one line')
  const link = new URL(out[0] ?? '')
  t.equal(`${link.origin}${link.pathname}`, `${PUBLIC_URL}/reset-password`)
  t.equal(await runAdmin(['reset-password', 'no_such_user'], env, output), 1, 'an unknown user exits 1')
  t.match(errors.at(-1), /no account @no_such_user/)
  t.equal(await runAdmin(['reset-password'], env, output), 2, 'a missing username is a usage error')
  t.equal(await runAdmin(['nonsense'], env, output), 2, 'so is an unknown command')

  const again = await buildApiApp(t, { dataDir: first.dataDir })
  t.equal((await confirm(again, link.searchParams.get('token') ?? '')).statusCode, 200, 'the link sets the password')
  t.equal(await loginStatus(again, me.username, 'a new password at last'), 200)
})
