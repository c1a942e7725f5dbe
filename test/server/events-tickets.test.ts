import t from 'tap'
import { createEventsHub, redactTicket, type EventsHub } from '../../server/plugins/events.js'

t.test('tickets are random, single use, expire after 60 s and are bounded in number', async (t) => {
  let clock = 0
  const hub: EventsHub = createEventsHub({ now: () => clock, maxTickets: 3 })
  t.teardown(() => hub.close())
  const ticket = await hub.issueTicket('ann')
  t.match(ticket, /^[A-Za-z0-9_-]{43}$/, '256 bits, base64url')
  t.not(await hub.issueTicket('ann'), ticket)
  t.equal(await hub.redeemTicket(ticket), 'ann')
  t.equal(await hub.redeemTicket(ticket), undefined, 'reused')
  t.equal(await hub.redeemTicket('nope'), undefined, 'unknown')
  const almost = await hub.issueTicket('bob')
  const late = await hub.issueTicket('bob')
  clock = 59_999
  t.equal(await hub.redeemTicket(almost), 'bob', 'still valid a millisecond before expiry')
  clock = 60_000
  t.equal(await hub.redeemTicket(late), undefined, 'expired at 60 s')
  const kept = await Promise.all(['a', 'b', 'c', 'd'].map((u) => hub.issueTicket(u)))
  t.equal(await hub.redeemTicket(kept[0] ?? ''), undefined, 'the oldest is forgotten past the bound')
  t.equal(await hub.redeemTicket(kept[3] ?? ''), 'd')
})

t.test('redactTicket hides the ticket and nothing else', async (t) => {
  t.equal(redactTicket('/api/events?ticket=abc123'), '/api/events?ticket=[redacted]')
  t.equal(redactTicket('/api/events?x=1&ticket=abc&y=2'), '/api/events?x=1&ticket=[redacted]&y=2')
  t.equal(redactTicket('/api/events?%74icket=abc'), '/api/events?%74icket=[redacted]', 'an encoded name')
  t.equal(redactTicket('/api/events?%E0%A4%A=abc'), '/api/events?%E0%A4%A=[redacted]', 'an undecodable name')
  t.equal(redactTicket('/api/posts?limit=10'), '/api/posts?limit=10')
  t.equal(redactTicket('/api/posts'), '/api/posts')
})
