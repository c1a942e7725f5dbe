import t from 'tap'
import type { Status } from '../../server/mastodon/status-schemas.js'
import { mastodonClient } from '../helpers/mastodon.js'

/**
 * Conversations through the Mastodon client API (DECISIONS §12, §13): direct messages as Mastodon's
 * Conversation entities, marked read, hidden for one person alone. On whichever store runs.
 */
const { person, call, json } = await mastodonClient(t)
interface Conversation {
  id: string
  unread: boolean
  accounts: { id: string }[]
  last_status: Status | null
}
const UNKNOWN = '00000000-0000-4000-8000-000000000000'

const alice = await person()
const bob = await person()
const carol = await person()
const direct = (who: typeof alice, status: string) =>
  json<Status>('POST', '/api/v1/statuses', who, { status, visibility: 'direct' })

const first = await direct(alice, `hello @${bob.username}`)
const second = await direct(alice, `all of us @${bob.username} @${carol.username}`)

await t.test('the list: the others in it, the last status, unread; the most recent first', async (t) => {
  const bobs = await json<Conversation[]>('GET', '/api/v1/conversations', bob)
  t.equal(bobs.length, 2)
  t.match(bobs[0], { unread: true, last_status: { id: second.id, visibility: 'direct' } })
  t.same(
    bobs[0]?.accounts.map((account) => account.id).sort(),
    [alice.user._id, carol.user._id].sort(),
    'everyone but the reader',
  )
  t.match(bobs[1], { unread: true, accounts: [{ id: alice.user._id }], last_status: { id: first.id } })
  const alices = await json<Conversation[]>('GET', '/api/v1/conversations', alice)
  t.ok(
    alices.every((each) => !each.unread),
    "the author's own are read",
  )
  t.same(await json('GET', '/api/v1/conversations', await person()), [], 'a stranger has none')
  const page = await call('GET', '/api/v1/conversations?limit=1', bob)
  t.equal(page.json<Conversation[]>().length, 1)
  const next = /<([^>]+)>; rel="next"/.exec(String(page.headers.link))?.[1] ?? ''
  const rest = await json<Conversation[]>('GET', new URL(next).pathname + new URL(next).search, bob)
  t.same(
    rest.map((each) => each.id),
    [bobs[1]?.id],
    'the next page by Link',
  )
})

await t.test('read: unread no more, for the reader alone', async (t) => {
  const [newest] = await json<Conversation[]>('GET', '/api/v1/conversations', carol)
  const read = await json<Conversation>('POST', `/api/v1/conversations/${newest?.id ?? ''}/read`, carol)
  t.match(read, { id: newest?.id, unread: false, last_status: { id: second.id } })
  t.match(await json<Conversation[]>('GET', '/api/v1/conversations', carol), [{ unread: false }])
  t.match(await json<Conversation[]>('GET', '/api/v1/conversations', bob), [{ id: newest?.id, unread: true }])
})

await t.test('delete: hidden for the reader alone, until a new post reaches them', async (t) => {
  const [newest] = await json<Conversation[]>('GET', '/api/v1/conversations', bob)
  t.same(await json('DELETE', `/api/v1/conversations/${newest?.id ?? ''}`, bob), {})
  t.same(
    (await json<Conversation[]>('GET', '/api/v1/conversations', bob)).map((each) => each.last_status?.id),
    [first.id],
    'gone for bob',
  )
  t.equal((await json<Conversation[]>('GET', '/api/v1/conversations', carol)).length, 1, 'still there for carol')
  await json('POST', '/api/v1/statuses', carol, {
    status: `back @${alice.username} @${bob.username}`,
    visibility: 'direct',
    in_reply_to_id: second.id,
  })
  t.match(await json<Conversation[]>('GET', '/api/v1/conversations', bob), [{ id: newest?.id, unread: true }])
})

await t.test('refusals: unknown, not in it, scopes; nothing changes', async (t) => {
  const [bobsNewest] = await json<Conversation[]>('GET', '/api/v1/conversations', bob)
  const stranger = await person()
  for (const [method, url, who, what] of [
    ['POST', `/api/v1/conversations/${UNKNOWN}/read`, bob, 'read: unknown'],
    ['DELETE', `/api/v1/conversations/${UNKNOWN}`, bob, 'delete: unknown'],
    ['POST', '/api/v1/conversations/nonsense/read', bob, 'read: not an id'],
    ['POST', `/api/v1/conversations/${bobsNewest?.id ?? ''}/read`, stranger, 'read: not in it'],
    ['DELETE', `/api/v1/conversations/${bobsNewest?.id ?? ''}`, stranger, 'delete: not in it'],
  ] as const) {
    const res = await call(method, url, who)
    t.equal(res.statusCode, 404, what)
    t.same(res.json(), { error: 'Record not found' }, what)
  }
  const reader = await person('read')
  t.equal((await call('GET', '/api/v1/conversations', reader)).statusCode, 200, 'read covers the list')
  const writer = await person('write:statuses')
  t.equal((await call('GET', '/api/v1/conversations', writer)).statusCode, 403, 'write:statuses does not read')
  const readOnly = { ...bob, bearer: reader.bearer }
  t.equal(
    (await call('DELETE', `/api/v1/conversations/${bobsNewest?.id ?? ''}`, readOnly)).statusCode,
    403,
    'a read token may not hide one',
  )
  t.equal((await call('GET', '/api/v1/conversations')).statusCode, 401, 'a token is needed')
  t.match(await json<Conversation[]>('GET', '/api/v1/conversations', bob), [{ id: bobsNewest?.id, unread: true }])
})
