import type { Static } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import t from 'tap'
import { AuthSignupReplySchema, UsersReplySchema } from '../../server/schemas/users.js'
import { expectError, expectOk } from '../helpers/api.js'
import { buildModerationApp, call } from '../helpers/moderation.js'

/**
 * With REGISTRATION=approval, signups waiting for approval are nobody yet (DECISIONS §11): the store's
 * reads leave them out, so pages of people stay full and follows aimed at them find nobody.
 */
const { api, moderator } = await buildModerationApp(t, { registration: 'approval' })
const PASSWORD = 'correct horse battery'

/** A signup in approval mode, approved or left waiting: its id and username. */
async function join(name: string, approved: boolean) {
  const username = `${name}_${Math.random().toString(36).slice(2, 8)}`
  const res = await call(api, undefined, 'POST', '/api/auth/signup', {
    username,
    password: PASSWORD,
    email: `${username}@example.com`,
  })
  if (res.statusCode !== 201 || !Value.Check(AuthSignupReplySchema, res.json())) throw new Error(`signup: ${res.body}`)
  const { createdUser } = res.json() as Static<typeof AuthSignupReplySchema>
  if (approved) await call(api, moderator, 'POST', `/api/admin/users/${createdUser._id}/approve`)
  return { id: createdUser._id, username }
}

// Oldest first: one approved, three waiting, one approved; every name starts with `pg`.
const first = await join('pga', true)
const waiting = [await join('pgb', false), await join('pgc', false), await join('pgd', false)]
const last = await join('pge', true)
const token = await api.login(first.username, PASSWORD)
const waitingIds = new Set(waiting.map((user) => user.id))

await t.test('the list of users comes back full, its pages past the waiting signups', async (t) => {
  const all = (await call(api, undefined, 'GET', '/api/users?limit=100')).json() as { users: { _id: string }[] }
  const visible = all.users.length
  t.notOk(
    all.users.some((user) => waitingIds.has(user._id)),
    'nobody waiting is listed',
  )
  // A page that ends where the waiting signups begin, then one that must reach past all three.
  const head = visible - 2
  const one = expectOk(t, await call(api, undefined, 'GET', `/api/users?limit=${head}`), 200, UsersReplySchema)
  t.equal(one.users.length, head)
  const two = expectOk(
    t,
    await call(api, undefined, 'GET', `/api/users?limit=2&cursor=${one.nextCursor ?? ''}`),
    200,
    UsersReplySchema,
  )
  t.strictSame(
    two.users.map((user) => user._id),
    [first.id, last.id],
    'the second page is full',
  )
})

await t.test('people search and suggestions come back full too', async (t) => {
  const found = (await call(api, token, 'GET', '/api/search?type=users&q=pg&limit=2')).json() as {
    users: { _id: string }[]
  }
  t.strictSame(
    found.users.map((user) => user._id),
    [first.id, last.id],
    'both approved people, none waiting between them',
  )
  const visible = ((await call(api, undefined, 'GET', '/api/users?limit=100')).json() as { users: unknown[] }).users
    .length
  // Everyone but me is a candidate; a limit of all of them must not come back short by the waiting ones.
  const suggested = (await call(api, token, 'GET', `/api/users/suggestions?limit=${visible - 1}`)).json() as {
    users: { _id: string }[]
  }
  t.equal(suggested.users.length, visible - 1, 'every visible candidate is suggested')
  t.notOk(suggested.users.some((user) => waitingIds.has(user._id)))
})

await t.test('following a waiting signup finds nobody; following an approved one works', async (t) => {
  const [target] = waiting
  expectError(t, await call(api, token, 'POST', `/api/users/follow/${target?.id ?? ''}`), 404, 'User not found')
  const res = await call(api, token, 'POST', `/api/users/follow/${last.id}`)
  t.equal(res.statusCode, 200)
  t.match(res.json(), { user: { _id: first.id }, followUser: { _id: last.id, followers: [{ _id: first.id }] } })
})
