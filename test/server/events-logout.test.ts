import type { AddressInfo } from 'node:net'
import t, { type Test } from 'tap'
import { TicketReplySchema } from '../../server/schemas/events.js'
import type { Post } from '../../server/schemas/posts.js'
import { buildApiApp, expectError, expectOk, signup } from '../helpers/api.js'
import type { TestApp } from '../helpers/app.js'
import { bookmark, liked, serveHub } from '../helpers/events-hub.js'
import { openSse, within } from '../helpers/sse.js'
import { postgresOnly } from '../helpers/store-under-test.js'

const INVALID_TOKEN = 'The token is invalid. Unauthorized access error.'

await t.test('the hub: endUser ends that user’s streams and voids their tickets, and no one else’s', async (t) => {
  const { hub, open } = await serveHub(t)
  const [ann, annAgain, bob] = [await open('ann'), await open('ann', { 'x-token': 'a2' }), await open('bob')]
  const annTicket = await hub.issueTicket({ userId: 'ann', tokenId: 'a2' })
  const bobTicket = await hub.issueTicket({ userId: 'bob', tokenId: 'b1' })
  await hub.endUser('ann')
  await within(Promise.all([ann.ended, annAgain.ended]), 2000, "ann's streams to end")
  t.equal(hub.size, 1, 'only bob still streams')
  t.equal(await hub.redeemTicket(annTicket), undefined, "ann's unused ticket is void")
  t.strictSame(await hub.redeemTicket(bobTicket), { userId: 'bob', tokenId: 'b1' }, "bob's still works")
  hub.publish(bookmark('bob'))
  hub.publish(liked(1))
  t.equal((await bob.until((m) => m.event !== undefined)).event, 'bookmark.added', 'bob is still served')
  t.ok(await hub.reserveStream('ann'), 'ann may stream again after a new login')
})

await t.test('the hub: endToken ends the streams and tickets of that token only', async (t) => {
  const { hub, open } = await serveHub(t)
  const [phone, desktop] = [await open('ann', { 'x-token': 'phone' }), await open('ann', { 'x-token': 'desktop' })]
  const phoneTicket = await hub.issueTicket({ userId: 'ann', tokenId: 'phone' })
  const desktopTicket = await hub.issueTicket({ userId: 'ann', tokenId: 'desktop' })
  await hub.endToken({ userId: 'ann', tokenId: 'phone' })
  await within(phone.ended, 2000, "the phone's stream to end")
  t.equal(hub.size, 1, 'the desktop still streams')
  t.equal(await hub.redeemTicket(phoneTicket), undefined, "the phone's unused ticket is void")
  t.ok(await hub.redeemTicket(desktopTicket), "the desktop's still works")
  hub.publish(bookmark('ann'))
  t.equal((await desktop.until((m) => m.event !== undefined)).event, 'bookmark.added', 'the desktop is still served')
})

/** An app listening on 127.0.0.1, and ways to get a ticket, open a stream with it and log out. */
async function liveApp(t: Test, options: Parameters<typeof buildApiApp>[1] = {}) {
  const api = await buildApiApp(t, options)
  await api.app.listen({ host: '127.0.0.1', port: 0 })
  return { api, ...streamsOf(t, api, api), me: await signup(api), other: await signup(api) }
}

/** Tickets from `issuer`, streams opened on `server`: the same app, or another instance of one database. */
function streamsOf(t: Test, issuer: TestApp, server: TestApp) {
  const port = (server.app.server.address() as AddressInfo).port
  const ticket = async (token: string) =>
    expectOk(t, await issuer.as(token, { method: 'POST', url: '/api/events/ticket' }), 200, TicketReplySchema).ticket
  const open = async (value: string) => {
    const client = await openSse(port, `/api/events?ticket=${encodeURIComponent(value)}`)
    t.teardown(() => client.close())
    t.equal(client.status, 200, 'the stream opens')
    return client
  }
  const logout = async (token: string, path = '/api/auth/logout') =>
    t.equal((await issuer.as(token, { method: 'POST', url: path })).statusCode, 200, `${path} answers 200`)
  return { ticket, open, stream: async (token: string) => open(await ticket(token)), logout }
}

const postOf = async (api: TestApp) =>
  ((await api.app.inject({ method: 'GET', url: '/api/posts' })).json() as { posts: Post[] }).posts[0]?._id ?? ''

await t.test('logout closes the streams its token opened, and no other, even of the same account', async (t) => {
  const { api, stream, logout } = await liveApp(t)
  const [first, second] = [await api.login('guest'), await api.login('guest')]
  const [firstStream, secondStream] = [await stream(first), await stream(second)]
  await logout(first)
  await within(firstStream.ended, 2000, "the first guest's stream to end")
  t.equal((await api.as(second, { method: 'POST', url: `/api/users/bookmark/${await postOf(api)}` })).statusCode, 200)
  t.equal(
    (await secondStream.until((m) => m.event !== undefined)).event,
    'bookmark.added',
    "the other guest's stream is still served",
  )
  t.notMatch(firstStream.text, /bookmark\.added/, 'the ended stream never saw it')
})

await t.test("a ticket its token asked for no longer opens a stream after logout; another token's does", async (t) => {
  const { api, me, other, ticket, open, logout } = await liveApp(t)
  const again = await api.login(me.username, me.password)
  const [unused, mineElsewhere, theirs] = [await ticket(me.token), await ticket(again), await ticket(other.token)]
  await logout(me.token)
  const refused = await api.app.inject({ method: 'GET', url: `/api/events?ticket=${encodeURIComponent(unused)}` })
  expectError(t, refused, 401, INVALID_TOKEN, 'the logged-out token’s ticket')
  await open(mineElsewhere)
  t.ok(await api.app.events.redeemTicket(theirs), "another user's ticket still works")
})

await t.test("logout-all closes every stream and ticket of the user, and no one else's", async (t) => {
  const { api, me, other, ticket, stream, logout } = await liveApp(t)
  const again = await api.login(me.username, me.password)
  const [mine, mineAgain, theirs] = [await stream(me.token), await stream(again), await stream(other.token)]
  const unused = await ticket(again)
  await logout(me.token, '/api/auth/logout-all')
  await within(Promise.all([mine.ended, mineAgain.ended]), 2000, 'both of my streams to end')
  const refused = await api.app.inject({ method: 'GET', url: `/api/events?ticket=${encodeURIComponent(unused)}` })
  expectError(t, refused, 401, INVALID_TOKEN, 'a ticket of an earlier token')

  const fresh = await api.login(me.username, me.password)
  const live = await stream(fresh)
  t.equal((await api.as(fresh, { method: 'POST', url: `/api/users/bookmark/${await postOf(api)}` })).statusCode, 200)
  t.equal((await live.until((m) => m.event !== undefined)).event, 'bookmark.added', 'a new login is served')
  await api.as(other.token, { method: 'POST', url: '/api/posts', payload: { content: 'still live' } })
  t.equal((await theirs.until((m) => m.event !== undefined)).event, 'post.created', "another user's stream stays open")
})

await t.test(
  'on PostgreSQL, a logout through one instance ends that token’s streams on another, and logout-all all of them',
  { skip: postgresOnly },
  async (t) => {
    const { api, me, other, logout } = await liveApp(t)
    const second = await buildApiApp(t, { sharedSchema: api.schema as string })
    await second.app.listen({ host: '127.0.0.1', port: 0 })
    const there = streamsOf(t, api, second)
    const again = await api.login(me.username, me.password)
    const [mine, mineAgain, theirs] = [
      await there.stream(me.token),
      await there.stream(again),
      await there.stream(other.token),
    ]
    const unused = await there.ticket(me.token)

    await logout(me.token)
    await within(mine.ended, 3000, 'the logged-out token’s stream on the other instance to end')
    const refused = await second.app.inject({ method: 'GET', url: `/api/events?ticket=${encodeURIComponent(unused)}` })
    expectError(t, refused, 401, INVALID_TOKEN, 'its unused ticket, on the other instance')
    expectError(
      t,
      await second.as(me.token, { method: 'GET', url: '/api/feed' }),
      401,
      INVALID_TOKEN,
      'the token there',
    )
    t.equal((await second.as(again, { method: 'GET', url: '/api/feed' })).statusCode, 200, 'the other token works')

    await api.as(other.token, { method: 'POST', url: '/api/posts', payload: { content: 'still live there' } })
    for (const [whose, client] of [
      ['my other token’s', mineAgain],
      ["another user's", theirs],
    ] as const) {
      t.equal((await client.until((m) => m.event !== undefined)).event, 'post.created', `${whose} stream stays open`)
    }

    await logout(again, '/api/auth/logout-all')
    await within(mineAgain.ended, 3000, 'every stream of mine on the other instance to end')
    t.notMatch(theirs.text, /session\.ended/, 'no client is ever sent the logout itself')
  },
)
