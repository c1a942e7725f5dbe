import t from 'tap'
import { MSG } from '../../server/errors.js'
import { totpCode } from '../../server/services/totp.js'
import { buildApiApp, expectError, signup, type SignedUp } from '../helpers/api.js'
import { expect429, loose } from '../helpers/rate-limits.js'

/**
 * A stolen token must not become a way to guess the password, nor a stolen password a way to guess
 * the two-factor code: wrong ones are counted per account, wherever they come from, and capped.
 */
const api = await buildApiApp(t, {
  config: { rateLimit: true },
  options: {
    rateLimits: loose({
      passwordFailuresPerAccount: { max: 3, windowMs: 60_000 },
      twoFactorFailuresPerAccount: { max: 3, windowMs: 60_000 },
    }),
  },
})
const as = (who: SignedUp, method: 'POST' | 'DELETE', url: string, payload: object) =>
  api.as(who.token, { method, url, payload })
const login = (username: string, password: string, otp: string, remoteAddress: string) =>
  api.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username, password, otp }, remoteAddress })

async function withTwoFactor() {
  const me = await signup(api)
  const { secret } = (await as(me, 'POST', '/api/account/2fa/setup', {})).json() as { secret: string }
  const enabled = await as(me, 'POST', '/api/account/2fa/enable', {
    code: totpCode(secret, new Date()),
    password: me.password,
  })
  t.equal(enabled.statusCode, 200, 'two-factor sign-in on')
  return { me, secret }
}

await t.test('wrong passwords in signed-in calls are counted together and capped per account', async (t) => {
  const [me, other] = [await signup(api), await signup(api)]
  const wrong = 'not-the-password'
  expectError(
    t,
    await as(me, 'POST', '/api/account/password', { currentPassword: wrong, newPassword: 'a-new-password-1' }),
    400,
    MSG.passwordIncorrect,
  )
  expectError(t, await as(me, 'DELETE', '/api/account', { password: wrong }), 400, MSG.passwordIncorrect)
  expectError(
    t,
    await as(me, 'POST', '/api/account/2fa/disable', { password: wrong, code: '000000' }),
    400,
    MSG.passwordIncorrect,
  )
  expect429(t, await as(me, 'DELETE', '/api/account', { password: me.password }), 'the right one, past the cap')
  expect429(
    t,
    await as(me, 'POST', '/api/account/password', { currentPassword: me.password, newPassword: 'a-new-password-2' }),
    'a change too',
  )
  const res = await as(other, 'POST', '/api/account/password', {
    currentPassword: other.password,
    newPassword: 'a-new-password-3',
  })
  t.equal(res.statusCode, 200, 'another account is not touched')
})

await t.test('a burst of wrong passwords at once is capped as one after another', async (t) => {
  const me = await signup(api)
  const burst = await Promise.all(
    Array.from({ length: 10 }, () => as(me, 'DELETE', '/api/account', { password: 'not-the-password' })),
  )
  const codes = burst.map((res) => res.statusCode)
  t.equal(codes.filter((code) => code === 400).length, 3, `three judged, the rest refused: ${codes.join(' ')}`)
  t.equal(codes.filter((code) => code === 429).length, 7)
})

await t.test('wrong two-factor codes at login are capped per account, from any address', async (t) => {
  const { me, secret } = await withTwoFactor()
  for (let i = 1; i <= 3; i++) {
    expectError(t, await login(me.username, me.password, '000000', `10.9.0.${i}`), 401, MSG.twoFactorInvalid)
  }
  expect429(
    t,
    await login(me.username, me.password, totpCode(secret, new Date()), '10.9.0.9'),
    'even the right code, past the cap',
  )
})

await t.test('wrong codes when turning two-factor sign-in off count too', async (t) => {
  const { me } = await withTwoFactor()
  for (let i = 0; i < 3; i++) {
    const res = await as(me, 'POST', '/api/account/2fa/disable', { password: me.password, code: '000000' })
    expectError(t, res, 400, MSG.twoFactorInvalid)
  }
  expect429(t, await login(me.username, me.password, '000000', '10.9.1.1'), 'and so does login')
})

await t.test('turning two-factor sign-in on asks for the password too', async (t) => {
  const me = await signup(api)
  const { secret } = (await as(me, 'POST', '/api/account/2fa/setup', {})).json() as { secret: string }
  const code = totpCode(secret, new Date())
  expectError(
    t,
    await as(me, 'POST', '/api/account/2fa/enable', { code, password: 'wrong-password' }),
    400,
    MSG.passwordIncorrect,
  )
  const missing = await as(me, 'POST', '/api/account/2fa/enable', { code })
  t.equal(missing.statusCode, 400, 'without it, a 400')
  const status = (await api.as(me.token, { method: 'GET', url: '/api/account/2fa' })).json() as { enabled: boolean }
  t.equal(status.enabled, false, 'still off')
})
