import t, { type Test } from 'tap'
import { MSG } from '../../server/errors.js'
import {
  TwoFactorEnableReplySchema,
  TwoFactorSetupReplySchema,
  TwoFactorStatusSchema,
} from '../../server/schemas/account.js'
import { EmptyObjectSchema } from '../../server/schemas/common.js'
import { AuthLoginReplySchema } from '../../server/schemas/users.js'
import { totpCode } from '../../server/services/totp.js'
import { buildApiApp, expectError, expectOk, signup } from '../helpers/api.js'
import { dumpText } from '../helpers/dump.js'
import { snapshotDb } from '../helpers/seeded.js'

/**
 * Two-factor sign-in (docs/api-contract.md §4): TOTP per RFC 6238 (SHA-1, 6 digits, 30 s, one step of
 * drift, a code spent in its step refused) with 10 single-use recovery codes, on whichever store runs.
 */
const STEP = 30_000
/** The clock of the app, moved by the tests; the start of a step, so a step's codes are known. */
let clock = Math.ceil(Date.now() / STEP) * STEP + 1_000
const api = await buildApiApp(t, { options: { now: () => new Date(clock) } })
const at = (ms: number) => new Date(ms)

const call = (token: string, url: string, payload?: object) =>
  api.as(token, { method: 'POST', url, ...(payload ? { payload } : {}) })
const login = (username: string, password: string, otp?: string) =>
  api.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { username, password, ...(otp === undefined ? {} : { otp }) },
  })

/** A new user with two-factor sign-in on: their secret and recovery codes, the step of the enabling code spent. */
async function withTwoFactor(t: Test) {
  const me = await signup(api)
  const { secret, otpauthUrl } = expectOk(
    t,
    await call(me.token, '/api/account/2fa/setup'),
    200,
    TwoFactorSetupReplySchema,
  )
  const enabled = await call(me.token, '/api/account/2fa/enable', {
    code: totpCode(secret, at(clock)),
    password: me.password,
  })
  const { recoveryCodes } = expectOk(t, enabled, 200, TwoFactorEnableReplySchema)
  return { me, secret, otpauthUrl, recoveryCodes }
}

await t.test('setup, then enable with a first code: 10 recovery codes, and the secret never shown again', async (t) => {
  const me = await signup(api)
  const status = () => api.as(me.token, { method: 'GET', url: '/api/account/2fa' })
  t.strictSame(expectOk(t, await status(), 200, TwoFactorStatusSchema), { enabled: false }, 'off at first')
  expectError(
    t,
    await call(me.token, '/api/account/2fa/enable', { code: '123456', password: me.password }),
    400,
    MSG.twoFactorNotSetUp,
  )

  const setup = expectOk(t, await call(me.token, '/api/account/2fa/setup'), 200, TwoFactorSetupReplySchema)
  t.match(setup.secret, /^[A-Z2-7]{32}$/, 'a 160-bit base32 secret')
  const uri = new URL(setup.otpauthUrl)
  t.equal(uri.protocol, 'otpauth:')
  t.equal(uri.host, 'totp')
  t.equal(decodeURIComponent(uri.pathname), `/Chirp:${me.username}`)
  t.strictSame(
    Object.fromEntries(uri.searchParams),
    { issuer: 'Chirp', secret: setup.secret, algorithm: 'SHA1', digits: '6', period: '30' },
    'SHA-1, 6 digits, 30 s',
  )
  t.strictSame(expectOk(t, await status(), 200, TwoFactorStatusSchema), { enabled: false }, 'not on before a code')
  t.equal((await login(me.username, me.password)).statusCode, 200, 'sign-in asks for no code before enable')

  const before = await snapshotDb(api)
  const wrong = String((Number(totpCode(setup.secret, at(clock))) + 1) % 1_000_000).padStart(6, '0')
  expectError(
    t,
    await call(me.token, '/api/account/2fa/enable', { code: wrong, password: me.password }),
    400,
    MSG.twoFactorInvalid,
  )
  t.strictSame(await snapshotDb(api), before, 'a wrong code changes nothing')

  const enabled = await call(me.token, '/api/account/2fa/enable', {
    code: totpCode(setup.secret, at(clock)),
    password: me.password,
  })
  const { recoveryCodes } = expectOk(t, enabled, 200, TwoFactorEnableReplySchema)
  t.equal(recoveryCodes.length, 10, '10 recovery codes')
  t.equal(new Set(recoveryCodes).size, 10, 'all different')
  t.strictSame(expectOk(t, await status(), 200, TwoFactorStatusSchema), { enabled: true })
  expectError(t, await call(me.token, '/api/account/2fa/setup'), 400, MSG.twoFactorAlreadyOn, 'a second setup')
  expectError(
    t,
    await call(me.token, '/api/account/2fa/enable', { code: '000000', password: me.password }),
    400,
    MSG.twoFactorAlreadyOn,
  )

  const dump = await dumpText(api)
  t.notOk(dump.includes(setup.secret), 'the stored data does not hold the secret')
  for (const code of recoveryCodes) t.notOk(dump.includes(code), `nor the recovery code ${code}`)
  const own = await api.as(me.token, { method: 'GET', url: `/api/users/${me.username}` })
  t.notOk(own.body.includes(setup.secret), 'the own record does not carry it')
})

await t.test('a login with two-factor on: missing, wrong, drifted, spent and recovery codes', async (t) => {
  const { me, secret, recoveryCodes } = await withTwoFactor(t)
  const start = clock
  expectError(t, await login(me.username, me.password), 401, MSG.twoFactorRequired, 'no code')
  expectError(t, await login(me.username, me.password, ''), 401, MSG.twoFactorRequired, 'an empty code')
  expectError(t, await login(me.username, me.password, 'abcdef'), 401, MSG.twoFactorInvalid, 'not a code')
  expectError(t, await login(me.username, 'wrong password', totpCode(secret, at(clock))), 401, MSG.invalidCredentials)
  expectError(
    t,
    await login(me.username, me.password, totpCode(secret, at(clock))),
    401,
    MSG.twoFactorInvalid,
    'the code that enabled it, again in its own step',
  )

  clock = start + 2 * STEP
  const tooOld = totpCode(secret, at(start))
  expectError(t, await login(me.username, me.password, tooOld), 401, MSG.twoFactorInvalid, 'two steps old')
  const tooNew = totpCode(secret, at(clock + 2 * STEP))
  expectError(t, await login(me.username, me.password, tooNew), 401, MSG.twoFactorInvalid, 'two steps ahead')
  const behind = totpCode(secret, at(clock - STEP))
  expectOk(t, await login(me.username, me.password, behind), 200, AuthLoginReplySchema, 'one step behind (drift)')
  expectError(t, await login(me.username, me.password, behind), 401, MSG.twoFactorInvalid, 'that code a second time')
  const now = totpCode(secret, at(clock))
  expectOk(t, await login(me.username, me.password, now), 200, AuthLoginReplySchema, 'the current step')
  expectError(t, await login(me.username, me.password, now), 401, MSG.twoFactorInvalid, 'the current code twice')
  expectError(t, await login(me.username, me.password, behind), 401, MSG.twoFactorInvalid, 'an older step after it')
  const ahead = totpCode(secret, at(clock + STEP))
  expectOk(t, await login(me.username, me.password, ahead), 200, AuthLoginReplySchema, 'one step ahead (drift)')

  const [recovery, other] = recoveryCodes
  const loggedIn = expectOk(t, await login(me.username, me.password, recovery), 200, AuthLoginReplySchema)
  t.ok(loggedIn.encodedToken, 'a recovery code signs in in place of a code')
  expectError(t, await login(me.username, me.password, recovery), 401, MSG.twoFactorInvalid, 'the recovery code twice')
  const typed = ` ${other?.toUpperCase()} `
  expectOk(t, await login(me.username, me.password, typed), 200, AuthLoginReplySchema, 'another, typed loosely')
})

await t.test('two logins with one code at once: one gets in', async (t) => {
  clock += 10 * STEP
  const { me, secret } = await withTwoFactor(t)
  clock += STEP
  const code = totpCode(secret, at(clock))
  const answers = await Promise.all([1, 2, 3].map(() => login(me.username, me.password, code)))
  t.strictSame(answers.map((res) => res.statusCode).sort(), [200, 401, 401])
})

await t.test('disable needs the password and a code; sign-in then asks for none', async (t) => {
  clock += 10 * STEP
  const { me, secret, recoveryCodes } = await withTwoFactor(t)
  clock += STEP
  const code = totpCode(secret, at(clock))
  const disable = (payload: object) => call(me.token, '/api/account/2fa/disable', payload)
  const before = await snapshotDb(api)
  expectError(t, await disable({ password: 'not my password', code }), 400, MSG.passwordIncorrect)
  expectError(t, await disable({ password: me.password, code: '000000' }), 400, MSG.twoFactorInvalid)
  expectError(t, await disable({ password: me.password }), 400, 'code is required')
  t.strictSame(await snapshotDb(api), before, 'refusals change nothing')
  expectOk(t, await disable({ password: me.password, code: recoveryCodes[0] ?? '' }), 200, EmptyObjectSchema)
  expectOk(t, await login(me.username, me.password), 200, AuthLoginReplySchema, 'no code asked any more')
  expectError(t, await disable({ password: me.password, code }), 400, MSG.twoFactorOff, 'a second disable')
  t.equal((await call(me.token, '/api/account/2fa/setup')).statusCode, 200, 'and it can be set up again')
})

await t.test('the guest’s two-factor setting cannot be changed', async (t) => {
  const guest = await api.login('guest')
  expectError(t, await call(guest, '/api/account/2fa/setup'), 403, MSG.guestUnchangeable)
  expectError(
    t,
    await call(guest, '/api/account/2fa/enable', { code: '123456', password: 'guestpassword' }),
    403,
    MSG.guestUnchangeable,
  )
  const disable = { password: 'guestpassword', code: '123456' }
  expectError(t, await call(guest, '/api/account/2fa/disable', disable), 403, MSG.guestUnchangeable)
  expectError(t, await api.as(undefined, { method: 'POST', url: '/api/account/2fa/setup' }), 401, MSG.invalidToken)
})
