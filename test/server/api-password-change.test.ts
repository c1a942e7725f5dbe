import type { AddressInfo } from 'node:net'
import t, { type Test } from 'tap'
import { MSG } from '../../server/errors.js'
import { TokenReplySchema } from '../../server/schemas/account.js'
import { TicketReplySchema } from '../../server/schemas/events.js'
import { buildApiApp, expectError, expectOk, signup } from '../helpers/api.js'
import type { TestApp } from '../helpers/app.js'
import { snapshotDb } from '../helpers/seeded.js'
import { openSse, within } from '../helpers/sse.js'
import { postgresOnly } from '../helpers/store-under-test.js'

/**
 * POST /api/account/password (docs/api-contract.md §4): a new token, and every other token and stream
 * of the user ends at once, on every instance.
 */
const api = await buildApiApp(t)
await api.app.listen({ host: '127.0.0.1', port: 0 })

const change = (on: TestApp, token: string, payload: object) =>
  on.as(token, { method: 'POST', url: '/api/account/password', payload })
const feedStatus = async (token: string) => (await api.as(token, { method: 'GET', url: '/api/feed' })).statusCode
const login = (username: string, password: string) =>
  api.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username, password } })

/** A stream of `token`'s, its ticket from `issuer`, opened on `server`. */
async function streamOf(t: Test, issuer: TestApp, server: TestApp, token: string) {
  const res = await issuer.as(token, { method: 'POST', url: '/api/events/ticket' })
  const { ticket } = expectOk(t, res, 200, TicketReplySchema, 'ticket')
  const port = (server.app.server.address() as AddressInfo).port
  const client = await openSse(port, `/api/events?ticket=${encodeURIComponent(ticket)}`)
  t.teardown(() => client.close())
  t.equal(client.status, 200, 'the stream opens')
  return client
}

await t.test('a new password: a new token, and every other token and stream ends', async (t) => {
  const me = await signup(api)
  const other = await signup(api)
  const phone = await api.login(me.username, me.password)
  const [mine, onPhone, theirs] = [
    await streamOf(t, api, api, me.token),
    await streamOf(t, api, api, phone),
    await streamOf(t, api, api, other.token),
  ]
  const newPassword = 'a brand new password'
  const { encodedToken } = expectOk(
    t,
    await change(api, me.token, { currentPassword: me.password, newPassword }),
    200,
    TokenReplySchema,
  )
  await within(Promise.all([mine.ended, onPhone.ended]), 2000, 'every stream of mine to end')
  t.equal(await feedStatus(me.token), 401, 'the token that asked is replaced')
  t.equal(await feedStatus(phone), 401, 'the other device is signed out')
  t.equal(await feedStatus(encodedToken), 200, 'the new token works')
  t.equal(await feedStatus(other.token), 200, "someone else's token goes on")
  await api.as(other.token, { method: 'POST', url: '/api/posts', payload: { content: 'still live' } })
  t.equal((await theirs.until((m) => m.event !== undefined)).event, 'post.created', "someone else's stream stays open")
  expectError(t, await login(me.username, me.password), 401, MSG.invalidCredentials, 'the old password')
  t.equal((await login(me.username, newPassword)).statusCode, 200, 'the new password signs in')
})

await t.test('a wrong current password, or a new one out of bounds, changes nothing', async (t) => {
  const me = await signup(api)
  const before = await snapshotDb(api)
  const wrong = await change(api, me.token, { currentPassword: 'not the password', newPassword: 'whatever-long' })
  expectError(t, wrong, 400, MSG.passwordIncorrect)
  const short = await change(api, me.token, { currentPassword: me.password, newPassword: 'short' })
  expectError(t, short, 400, 'newPassword must NOT have fewer than 8 characters')
  const long = await change(api, me.token, { currentPassword: me.password, newPassword: 'x'.repeat(129) })
  expectError(t, long, 400, 'newPassword must NOT have more than 128 characters')
  expectError(t, await change(api, me.token, { newPassword: 'whatever-long' }), 400, 'currentPassword is required')
  t.strictSame(await snapshotDb(api), before, 'nothing stored changed')
  t.equal(await feedStatus(me.token), 200, 'the token still works')
  expectError(
    t,
    await change(api, 'nonsense', { currentPassword: 'a', newPassword: 'b'.repeat(8) }),
    401,
    MSG.invalidToken,
  )
})

await t.test('two changes made on one password at once: one wins', async (t) => {
  const me = await signup(api)
  const answers = await Promise.all(
    ['first new password', 'second new password'].map((newPassword) =>
      change(api, me.token, { currentPassword: me.password, newPassword }),
    ),
  )
  const codes = answers.map((res) => res.statusCode)
  t.equal(codes.filter((code) => code === 200).length, 1, 'one wins')
  // The other finds the current password changed (400), or, when the winner's change came first, its
  // token ended with the old password (401).
  t.ok(
    codes.every((code) => code === 200 || code === 400 || code === 401),
    `the other is refused (${codes.join(', ')})`,
  )
})

await t.test('the guest’s password cannot be changed', async (t) => {
  const guest = await api.login('guest')
  const res = await change(api, guest, { currentPassword: 'guestpassword', newPassword: 'taken over!' })
  expectError(t, res, 403, MSG.guestUnchangeable)
  t.equal(await feedStatus(guest), 200)
})

await t.test(
  'on PostgreSQL, a change through one instance ends the streams on another',
  { skip: postgresOnly },
  async (t) => {
    const second = await buildApiApp(t, { sharedSchema: api.schema as string })
    await second.app.listen({ host: '127.0.0.1', port: 0 })
    const me = await signup(api)
    const phone = await api.login(me.username, me.password)
    const there = await streamOf(t, second, second, phone)
    const res = await change(api, me.token, { currentPassword: me.password, newPassword: 'changed elsewhere' })
    const { encodedToken } = expectOk(t, res, 200, TokenReplySchema)
    await within(there.ended, 3000, 'the stream on the other instance to end')
    t.equal((await second.as(phone, { method: 'GET', url: '/api/feed' })).statusCode, 401, 'refused there too')
    t.equal(
      (await second.as(encodedToken, { method: 'GET', url: '/api/feed' })).statusCode,
      200,
      'the new one works there',
    )
  },
)
