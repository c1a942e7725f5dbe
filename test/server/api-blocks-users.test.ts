import t, { type Test } from 'tap'
import { UsersReplySchema } from '../../server/schemas/users.js'
import { buildApiApp, expectOk, signup, type SignedUp } from '../helpers/api.js'

/** `GET /api/users`, the list of everyone, leaves out whom the reader cannot see (docs/api-contract.md §11). */
const api = await buildApiApp(t)
const [alice, bob, carol, dave] = [await signup(api), await signup(api), await signup(api), await signup(api)]
const relate = (who: SignedUp, action: 'block' | 'mute', other: SignedUp) =>
  api.as(who.token, { method: 'POST', url: `/api/users/${action}/${other.user._id}`, payload: {} })
await relate(alice, 'block', bob)
await relate(dave, 'mute', carol)

async function listed(t: Test, who: SignedUp, query = '') {
  const res = await api.as(who.token, { method: 'GET', url: `/api/users${query}` })
  return expectOk(t, res, 200, UsersReplySchema, `the list as @${who.username}${query}`)
}
const ids = (reply: { users: { _id: string }[] }) => reply.users.map((user) => user._id)

await t.test(
  'neither side of a block is in the other one’s list of users; a muted person is not in the muter’s',
  async (t) => {
    const everyone = ids(await listed(t, carol))
    t.ok(
      [alice, bob, carol, dave].every((who) => everyone.includes(who.user._id)),
      'the muted person sees everyone',
    )
    t.notOk(ids(await listed(t, alice)).includes(bob.user._id), 'the blocker does not see the blocked')
    t.notOk(ids(await listed(t, bob)).includes(alice.user._id), 'nor the blocked the blocker')
    const davesList = ids(await listed(t, dave))
    t.notOk(davesList.includes(carol.user._id), 'the muter does not see the muted')
    t.ok(davesList.includes(bob.user._id) && davesList.includes(alice.user._id), 'but sees the others')
    const guests = ids(expectOk(t, await api.app.inject({ method: 'GET', url: '/api/users' }), 200, UsersReplySchema))
    t.strictSame(guests, everyone, 'a reader without a token sees everyone')
  },
)

await t.test('pages stay full and the cursor goes on past a hidden person', async (t) => {
  const whole = ids(await listed(t, bob))
  const paged: string[] = []
  let cursor: string | null = null
  do {
    const page = await listed(t, bob, `?limit=1${cursor ? `&cursor=${cursor}` : ''}`)
    t.equal(page.users.length, 1, 'a full page')
    paged.push(...ids(page))
    cursor = page.nextCursor ?? null
  } while (cursor !== null && paged.length <= whole.length)
  t.strictSame(paged, whole, 'the pages together are the whole list, without the blocker')
})
