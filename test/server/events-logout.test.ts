import type { AddressInfo } from 'node:net'
import t from 'tap'
import { TicketReplySchema } from '../../server/schemas/events.js'
import type { Post } from '../../server/schemas/posts.js'
import { buildApiApp, expectError, expectOk, signup, type SignedUp } from '../helpers/api.js'
import { bookmark, liked, serveHub } from '../helpers/events-hub.js'
import { openSse, within } from '../helpers/sse.js'

t.test('the hub: endUser ends that user’s streams and voids their tickets, and no one else’s', async (t) => {
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

t.test('logout through the API closes the streams and voids the tickets issued before it', async (t) => {
  const api = await buildApiApp(t)
  await api.app.listen({ host: '127.0.0.1', port: 0 })
  const port = (api.app.server.address() as AddressInfo).port
  const me = await signup(api)
  const other = await signup(api)
  const ticket = async (who: SignedUp) =>
    expectOk(t, await api.as(who.token, { method: 'POST', url: '/api/events/ticket' }), 200, TicketReplySchema).ticket
  const open = async (value: string) => {
    const client = await openSse(port, `/api/events?ticket=${encodeURIComponent(value)}`)
    t.teardown(() => client.close())
    return client
  }

  const mine = await open(await ticket(me))
  const theirs = await open(await ticket(other))
  t.equal(mine.status, 200)
  const unused = await ticket(me)

  t.equal((await api.as(me.token, { method: 'POST', url: '/api/auth/logout' })).statusCode, 200)
  await within(mine.ended, 2000, 'my open stream to end at logout')
  expectError(t, await api.app.inject({ method: 'GET', url: `/api/events?ticket=${encodeURIComponent(unused)}` }), 401, 'The token is invalid. Unauthorized access error.')

  // A new session of the same user: its private events reach only streams opened under it.
  const relogin = await api.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username: me.username, password: 'correct horse battery' } })
  const token = (relogin.json() as { encodedToken: string }).encodedToken
  const { posts } = (await api.app.inject({ method: 'GET', url: '/api/posts' })).json() as { posts: Post[] }
  const fresh = await open(expectOk(t, await api.as(token, { method: 'POST', url: '/api/events/ticket' }), 200, TicketReplySchema).ticket)
  t.equal((await api.as(token, { method: 'POST', url: `/api/users/bookmark/${posts[0]?._id}` })).statusCode, 200)
  t.equal((await fresh.until((m) => m.event !== undefined)).event, 'bookmark.added', 'the new session is served')
  t.notMatch(mine.text, /bookmark\.added/, 'the stream of the ended session never saw it')

  await api.as(other.token, { method: 'POST', url: '/api/posts', payload: { content: 'still live' } })
  t.equal((await theirs.until((m) => m.event !== undefined)).event, 'post.created', "another user's stream stays open")
})
