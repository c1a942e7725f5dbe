import t from 'tap'
import { MSG } from '../../server/errors.js'
import { AuthLoginReplySchema, AuthSignupReplySchema, type User } from '../../server/schemas/users.js'
import { expectError, expectOk, signup } from '../helpers/api.js'
import { badLogin, expect429, goodLogin, loose } from '../helpers/rate-limits.js'
import { buildSeededApp } from '../helpers/seeded.js'

/**
 * Accounts and their names (docs/api-contract.md §4): usernames compared by one normalisation and
 * refused when they look like one taken, on whichever store the suite runs on.
 */
const api = await buildSeededApp(t, { config: { rateLimit: false } })
const { app } = api

const PASSWORD = 'long-enough-pw'
/** A signup with `fields`, and with `names` unless others are given. */
const signupAs = (
  fields: Record<string, unknown>,
  names: Record<string, unknown> = { firstName: 'Some', lastName: 'One' },
) =>
  app.inject({
    method: 'POST',
    url: '/api/auth/signup',
    payload: { email: 'someone@example.com', password: PASSWORD, ...names, ...fields },
  })
const userNamed = (username: string) => app.inject({ method: 'GET', url: `/api/users/${username}` })

await t.test('a username whose confusable skeleton is taken is refused with 400', async (t) => {
  const cases: [string, number, string][] = [
    ['maya.1in', 400, MSG.usernameLookAlike],
    ['MAYA.LlN', 400, MSG.usernameLookAlike],
    ['noah_kirn', 400, MSG.usernameLookAlike],
    ['the0_park', 400, MSG.usernameLookAlike],
    ['THEO_PARK', 422, MSG.usernameExists],
    ['Guest', 422, MSG.usernameExists],
  ]
  for (const [username, status, message] of cases) {
    expectError(t, await signupAs({ username }), status, message, username)
    const found = (await userNamed(username)).json() as { user?: User }
    t.not(found.user?.username, username, `${username} was not created`)
  }
  expectOk(t, await signupAs({ username: 'rn0dest_i' }), 201, AuthSignupReplySchema, 'a name no one has')
  for (const username of ['modest_l', 'rnOdest_1', 'MODEST_I']) {
    expectError(t, await signupAs({ username }), 400, MSG.usernameLookAlike, `${username} after rn0dest_i`)
  }
  expectOk(t, await signupAs({ username: 'gue5t' }), 201, AuthSignupReplySchema, '5 and s are not alike')
})

/**
 * Spellings of `kis_x` that JavaScript's toLowerCase and PostgreSQL's lower() fold differently: "İ"
 * (U+0130, which JavaScript lowers to "i" and a combining dot), the Kelvin sign (U+212A), "ſ" (U+017F)
 * and "ı" (U+0131), whose upper case is "I".
 */
const SPELLINGS = ['KIS_X', 'kİs_x', 'KİS_X', '\u212Ais_x', 'kiſ_x', 'kıs_x']

await t.test('every spelling of a username finds the one account', async (t) => {
  await signup(api, { username: 'kis_x', password: PASSWORD })
  for (const spelling of SPELLINGS) {
    const res = await app.inject(goodLogin(spelling, PASSWORD))
    t.equal(expectOk(t, res, 200, AuthLoginReplySchema, spelling).foundUser.username, 'kis_x', `${spelling} is kis_x`)
  }
  expectError(t, await signupAs({ username: 'KIS_X' }), 422, MSG.usernameExists, 'taken in any case')
})

await t.test('and the login limits count every spelling as that account', async (t) => {
  const limited = await buildSeededApp(t, {
    config: { rateLimit: true },
    options: { rateLimits: loose({ loginFailuresPerAddressAndAccount: { max: 10, windowMs: 60_000 } }) },
  })
  await signup(limited, { username: 'kis_x', password: PASSWORD })
  for (let i = 1; i <= 10; i++) t.equal((await limited.app.inject(badLogin('kis_x'))).statusCode, 401, `failure ${i}`)
  expect429(t, await limited.app.inject(badLogin('kis_x')), 'the 11th')
  for (const spelling of SPELLINGS) expect429(t, await limited.app.inject(goodLogin(spelling, PASSWORD)), spelling)
})
