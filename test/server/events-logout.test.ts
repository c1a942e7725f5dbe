import type { AddressInfo } from 'node:net'
import t, { type Test } from 'tap'
import { TicketReplySchema } from '../../server/schemas/events.js'
import type { Post } from '../../server/schemas/posts.js'
import { buildApiApp, expectError, expectOk, signup } from '../helpers/api.js'
import { bookmark, liked, serveHub } from '../helpers/events-hub.js'
import { openSse, within } from '../helpers/sse.js'
import { postgresOnly } from '../helpers/store-under-test.js'

await t.test('the hub: endUser ends that user’s streams and voids their tickets, and no one else’s', async (t) => {
  const { hub, open } = await serveHub(t)
  const [ann, annAgain, bob] = [await open('ann'), await open('ann'), await open('bob')]
  const annTicket = await hub.issueTicket('ann')
  const bobTicket = await hub.issueTicket('bob')
  await hub.endUser('ann')
  await within(Promise.all([ann.ended, annAgain.ended]), 2000, "ann's streams to end")
  t.equal(hub.size, 1, 'only bob still streams')
  t.equal(await hub.redeemTicket(annTicket), undefined, "ann's unused ticket is void")
  t.equal(await hub.redeemTicket(bobTicket), 'bob', "bob's still works")
  hub.publish(bookmark('bob'))
  hub.publish(liked(1))
  t.equal((await bob.until((m) => m.event !== undefined)).event, 'bookmark.added', 'bob is still served')
  t.ok(hub.canStream('ann'), 'ann may stream again after a new login')
})

/** An app listening on 127.0.0.1, two users, and ways to get a ticket and open a stream with it. */
async function liveApp(t: Test) {
  const api = await buildApiApp(t)
  await api.app.listen({ host: '127.0.0.1', port: 0 })
  const port = (api.app.server.address() as AddressInfo).port
  const ticket = async (token: string) =>
    expectOk(t, await api.as(token, { method: 'POST', url: '/api/events/ticket' }), 200, TicketReplySchema).ticket
  const open = async (value: string) => {
    const client = await openSse(port, `/api/events?ticket=${encodeURIComponent(value)}`)
    t.teardown(() => client.close())
    return client
  }
  const logout = async (token: string) =>
    t.equal((await api.as(token, { method: 'POST', url: '/api/auth/logout' })).statusCode, 200, 'logged out')
  return { api, me: await signup(api), other: await signup(api), ticket, open, logout }
}

await t.test("logout through the API closes the user's open streams, and only theirs", async (t) => {
  const { api, me, other, ticket, open, logout } = await liveApp(t)
  const mine = await open(await ticket(me.token))
  const theirs = await open(await ticket(other.token))
  t.equal(mine.status, 200)
  await logout(me.token)
  await within(mine.ended, 2000, 'my open stream to end at logout')

  // A new session of the same user: its private events reach only streams opened under it.
  const relogin = await api.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { username: me.username, password: 'correct horse battery' },
  })
  const token = (relogin.json() as { encodedToken: string }).encodedToken
  const { posts } = (await api.app.inject({ method: 'GET', url: '/api/posts' })).json() as { posts: Post[] }
  const fresh = await open(await ticket(token))
  t.equal((await api.as(token, { method: 'POST', url: `/api/users/bookmark/${posts[0]?._id}` })).statusCode, 200)
  t.equal((await fresh.until((m) => m.event !== undefined)).event, 'bookmark.added', 'the new session is served')
  t.notMatch(mine.text, /bookmark\.added/, 'the stream of the ended session never saw it')

  await api.as(other.token, { method: 'POST', url: '/api/posts', payload: { content: 'still live' } })
  t.equal((await theirs.until((m) => m.event !== undefined)).event, 'post.created', "another user's stream stays open")
})

await t.test('a ticket issued before logout no longer opens a stream', async (t) => {
  const { api, me, other, ticket, logout } = await liveApp(t)
  const unused = await ticket(me.token)
  const theirs = await ticket(other.token)
  await logout(me.token)
  expectError(
    t,
    await api.app.inject({ method: 'GET', url: `/api/events?ticket=${encodeURIComponent(unused)}` }),
    401,
    'The token is invalid. Unauthorized access error.',
  )
  t.ok(await api.app.events.redeemTicket(theirs), "another user's ticket still works")
})

await t.test(
  'on PostgreSQL, a logout through one instance ends the streams on another',
  { skip: postgresOnly },
  async (t) => {
    const { api, me, other, ticket, logout } = await liveApp(t)
    const second = await buildApiApp(t, { sharedSchema: api.schema as string })
    await second.app.listen({ host: '127.0.0.1', port: 0 })
    const port = (second.app.server.address() as AddressInfo).port
    const onSecond = async (token: string) => {
      const client = await openSse(port, `/api/events?ticket=${encodeURIComponent(await ticket(token))}`)
      t.teardown(() => client.close())
      return client
    }
    const mine = await onSecond(me.token)
    const theirs = await onSecond(other.token)
    const unused = await ticket(me.token)
    await logout(me.token)
    await within(mine.ended, 3000, 'my stream on the other instance to end')
    expectError(
      t,
      await second.app.inject({ method: 'GET', url: `/api/events?ticket=${encodeURIComponent(unused)}` }),
      401,
      'The token is invalid. Unauthorized access error.',
    )
    await api.as(other.token, { method: 'POST', url: '/api/posts', payload: { content: 'still live there' } })
    t.equal(
      (await theirs.until((m) => m.event !== undefined)).event,
      'post.created',
      "another user's stream there stays open",
    )
    t.notMatch(theirs.text, /session\.ended/, 'no client is ever sent the logout itself')
  },
)
