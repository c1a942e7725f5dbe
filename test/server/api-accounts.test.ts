import t from 'tap'
import { MSG } from '../../server/errors.js'
import { AuthLoginReplySchema, AuthSignupReplySchema, UserReplySchema, type User } from '../../server/schemas/users.js'
import { expectError, expectOk, signup } from '../helpers/api.js'
import { badLogin, expect429, goodLogin, loose } from '../helpers/rate-limits.js'
import { buildSeededApp, snapshotDb } from '../helpers/seeded.js'

/**
 * Accounts and their names (docs/api-contract.md §4): a signup without names, usernames compared by
 * one normalisation and refused when they look like one taken, and the shared guest account, on
 * whichever store the suite runs on.
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
const edit = (token: string, payload: object) => api.as(token, { method: 'POST', url: '/api/users/edit', payload })

await t.test('a signup with neither name is called by its username, with an empty last name', async (t) => {
  const res = await signupAs({ username: 'Names_None' }, {})
  const { createdUser } = expectOk(t, res, 201, AuthSignupReplySchema, 'signup')
  t.match(createdUser, { username: 'Names_None', firstName: 'Names_None', lastName: '' })
  const found = expectOk(t, await userNamed('names_none'), 200, UserReplySchema, 'read back').user
  t.match(found, { firstName: 'Names_None', lastName: '' }, 'as stored')
})

await t.test('a signup with one name still needs the other, and both follow the limits', async (t) => {
  const cases: [string, Record<string, unknown>, string][] = [
    ['one_first', { firstName: 'Only' }, 'lastName is required'],
    ['one_last', { lastName: 'Only' }, 'firstName is required'],
    ['empty_first', { firstName: '', lastName: 'Last' }, 'firstName must NOT have fewer than 1 characters'],
    ['empty_last', { firstName: 'First', lastName: '' }, MSG.emptyLastName],
  ]
  for (const [username, names, message] of cases) {
    expectError(t, await signupAs({ username }, names), 400, message, username)
    t.equal((await userNamed(username)).statusCode, 404, `${username} was not created`)
  }
})

await t.test('an empty last name may be sent back as it is, never set', async (t) => {
  const nameless = (await signupAs({ username: 'nameless_echo' }, {})).json() as { encodedToken: string }
  const echoed = await edit(nameless.encodedToken, { userData: { lastName: '', bio: 'echoed' } })
  t.match(expectOk(t, echoed, 201, UserReplySchema, 'echo').user, { lastName: '', bio: 'echoed' })

  const named = await signup(api, { lastName: 'Kept' })
  expectError(t, await edit(named.token, { lastName: '' }), 400, MSG.emptyLastName, 'emptied')
  t.match((await userNamed(named.username)).json(), { user: { lastName: 'Kept' } }, 'unchanged')
})

await t.test('the shared guest account cannot be changed: 403, and nothing stored', async (t) => {
  const guest = await api.login('guest')
  const before = await snapshotDb(api)
  const { user } = (await userNamed('guest')).json() as { user: User }
  for (const [what, body] of [
    ['a bio', { bio: 'taken over' }],
    ['the whole user sent back', { userData: { ...user, website: 'https://evil.example' } }],
    ['an empty edit', {}],
  ] as const) {
    expectError(t, await edit(guest, body), 403, MSG.guestUnchangeable, what)
  }
  t.strictSame(await snapshotDb(api), before, 'the database is unchanged')
  t.strictSame((await userNamed('guest')).json(), { user }, 'the profile reads as before')
})

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
