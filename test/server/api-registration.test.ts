import t, { type Test } from 'tap'
import { InviteReplySchema, InvitesReplySchema, ModeratedUsersReplySchema } from '../../server/schemas/moderation.js'
import { AuthSignupReplySchema } from '../../server/schemas/users.js'
import { expectError, expectOk, freshUsername } from '../helpers/api.js'
import { buildModerationApp, call } from '../helpers/moderation.js'
import { snapshotDb } from '../helpers/seeded.js'

/** REGISTRATION=open|approval|invite|closed, end to end (DECISIONS §8 and §11). */
const PASSWORD = 'correct horse battery'
const body = (extra: object = {}) => {
  const username = freshUsername('reg')
  return { username, password: PASSWORD, email: `${username}@example.com`, ...extra }
}
type App = Awaited<ReturnType<typeof buildModerationApp>>['api']

/** A signup with `code` must be refused as without a valid invite, and store nothing. */
async function expectInviteRefused(t: Test, api: App, code: string, what: string) {
  const before = await snapshotDb(api)
  const res = await call(api, undefined, 'POST', '/api/auth/signup', body({ invite: code }))
  expectError(t, res, 403, 'A valid invite is required.', what)
  t.strictSame(await snapshotDb(api), before, `${what}: nothing stored`)
}
const health = async (api: App) => (await call(api, undefined, 'GET', '/api/health')).json() as { registration: string }

await t.test('closed: signups answer 403 and nothing is stored', async (t) => {
  const { api } = await buildModerationApp(t, { registration: 'closed' })
  t.equal((await health(api)).registration, 'closed')
  const before = await snapshotDb(api)
  expectError(t, await call(api, undefined, 'POST', '/api/auth/signup', body()), 403, 'Sign-ups are closed.')
  t.strictSame(await snapshotDb(api), before)
})

await t.test('approval: pending until a moderator approves; invisible meanwhile; reject deletes', async (t) => {
  const { api, moderator } = await buildModerationApp(t, { registration: 'approval' })
  t.equal((await health(api)).registration, 'approval')
  const sent = body()
  const signup = expectOk(t, await call(api, undefined, 'POST', '/api/auth/signup', sent), 201, AuthSignupReplySchema)
  t.equal(signup.pending, true)
  t.notOk('encodedToken' in signup, 'no token')
  const id = signup.createdUser._id
  const login = () => call(api, undefined, 'POST', '/api/auth/login', { username: sent.username, password: PASSWORD })
  expectError(t, await login(), 403, 'Your account is waiting for approval.')
  expectError(t, await call(api, undefined, 'GET', `/api/users/${sent.username}`), 404, 'User not found', 'profile')
  const everyone = (await call(api, undefined, 'GET', '/api/users')).json() as { users: { _id: string }[] }
  t.notOk(
    everyone.users.some((user) => user._id === id),
    'not in the list of users',
  )
  const found = (await call(api, undefined, 'GET', `/api/search?type=users&q=${sent.username}`)).json() as {
    users: unknown[]
  }
  t.equal(found.users.length, 0, 'nor in search')
  const pending = expectOk(
    t,
    await call(api, moderator, 'GET', '/api/admin/users?status=pending'),
    200,
    ModeratedUsersReplySchema,
  )
  t.ok(
    pending.users.some((user) => user._id === id && user.pending),
    'moderators see it waiting',
  )
  t.equal((await call(api, moderator, 'POST', `/api/admin/users/${id}/approve`)).statusCode, 200, 'approved')
  expectError(
    t,
    await call(api, moderator, 'POST', `/api/admin/users/${id}/approve`),
    400,
    'This account is not waiting for approval.',
  )
  t.equal((await login()).statusCode, 200, 'the login works once approved')
  t.equal((await call(api, undefined, 'GET', `/api/users/${sent.username}`)).statusCode, 200, 'and the profile shows')

  const rejected = body()
  const second = (await call(api, undefined, 'POST', '/api/auth/signup', rejected)).json() as {
    createdUser: { _id: string }
  }
  const gone = await call(api, moderator, 'POST', `/api/admin/users/${second.createdUser._id}/reject`)
  t.equal(gone.statusCode, 200)
  t.strictSame(gone.json(), {})
  const again = await call(api, undefined, 'POST', '/api/auth/login', {
    username: rejected.username,
    password: PASSWORD,
  })
  t.equal(again.statusCode, 404, 'a rejected signup is deleted')
  expectError(
    t,
    await call(api, moderator, 'POST', `/api/admin/users/${second.createdUser._id}/reject`),
    404,
    'User not found',
  )
  t.equal(
    (await call(api, undefined, 'POST', '/api/auth/signup', rejected)).statusCode,
    201,
    'the name may be used again',
  )
})

await t.test('invite: a valid invite is needed; used-up and expired ones are refused', async (t) => {
  const { api, moderator } = await buildModerationApp(t, { registration: 'invite' })
  t.equal((await health(api)).registration, 'invite')
  const make = async (payload: object) =>
    expectOk(t, await call(api, moderator, 'POST', '/api/invites', payload), 201, InviteReplySchema).invite
  const twice = await make({ uses: 2 })
  t.match(twice, { uses: 2, used: 0, expiresAt: null })
  const before = await snapshotDb(api)
  for (const [what, extra] of [
    ['without an invite', {}],
    ['with an unknown one', { invite: 'not-a-code' }],
  ] as const) {
    expectError(
      t,
      await call(api, undefined, 'POST', '/api/auth/signup', body(extra)),
      403,
      'A valid invite is required.',
      what,
    )
  }
  t.strictSame(await snapshotDb(api), before, 'refusals store nothing')
  for (let i = 0; i < 2; i++) {
    const res = await call(api, undefined, 'POST', '/api/auth/signup', body({ invite: twice.code }))
    t.equal(res.statusCode, 201, `use ${i + 1} of 2`)
    t.type((res.json() as { encodedToken?: string }).encodedToken, 'string')
  }
  await expectInviteRefused(t, api, twice.code, 'used up')
  const listed = expectOk(t, await call(api, moderator, 'GET', '/api/invites'), 200, InvitesReplySchema)
  t.match(
    listed.invites.find((invite) => invite.code === twice.code),
    { uses: 2, used: 2 },
  )
  const taken = await call(api, undefined, 'POST', '/api/auth/signup', {
    ...body({ invite: (await make({})).code }),
    username: 'maya.lin',
  })
  t.equal(taken.statusCode, 422, 'a signup refused for its name')
  const oneDay = await make({ days: 1 })
  t.ok(Date.parse(oneDay.expiresAt ?? '') > Date.now(), 'expires a day on')
  expectError(
    t,
    await call(api, undefined, 'POST', '/api/invites', {}),
    401,
    'The token is invalid. Unauthorized access error.',
  )
})

await t.test('an expired invite is refused', async (t) => {
  let ahead = 0
  const { api, moderator } = await buildModerationApp(
    t,
    { registration: 'invite' },
    { now: () => new Date(Date.now() + ahead) },
  )
  const invite = (
    (await call(api, moderator, 'POST', '/api/invites', { days: 1 })).json() as { invite: { code: string } }
  ).invite
  ahead = 86_400_000 + 1000
  await expectInviteRefused(t, api, invite.code, 'expired')
})
