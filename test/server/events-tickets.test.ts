import t from 'tap'
import { createEventsHub, type EventsHub } from '../../server/plugins/events.js'

await t.test('tickets are random, single use, expire after 60 s and are bounded in number', async (t) => {
  let clock = 0
  const hub: EventsHub = createEventsHub({ now: () => clock, maxTickets: 3 })
  t.teardown(() => hub.close())
  const ann = { userId: 'ann', tokenId: 'a1' }
  const bob = { userId: 'bob', tokenId: 'b1' }
  const ticket = await hub.issueTicket(ann)
  t.match(ticket, /^[A-Za-z0-9_-]{43}$/, '256 bits, base64url')
  t.not(await hub.issueTicket(ann), ticket)
  t.strictSame(await hub.redeemTicket(ticket), ann, 'the user, and the token that asked')
  t.equal(await hub.redeemTicket(ticket), undefined, 'reused')
  t.equal(await hub.redeemTicket('nope'), undefined, 'unknown')
  const almost = await hub.issueTicket(bob)
  const late = await hub.issueTicket(bob)
  clock = 59_999
  t.strictSame(await hub.redeemTicket(almost), bob, 'still valid a millisecond before expiry')
  clock = 60_000
  t.equal(await hub.redeemTicket(late), undefined, 'expired at 60 s')
  const kept = await Promise.all(['a', 'b', 'c', 'd'].map((u) => hub.issueTicket({ userId: u, tokenId: u })))
  t.equal(await hub.redeemTicket(kept[0] ?? ''), undefined, 'the oldest is forgotten past the bound')
  t.strictSame(await hub.redeemTicket(kept[3] ?? ''), { userId: 'd', tokenId: 'd' })
})
