import t from 'tap'
import type { Status } from '../../server/mastodon/status-schemas.js'
import { statusIdOf } from '../../server/services/status-ids.js'
import { bearer, mastodonClient, passwordToken, type MastodonPerson } from '../helpers/mastodon.js'
import { openSocket, socketOf, sseOf, type StreamMessage, type StreamSocket } from '../helpers/mastodon-streaming.js'
import { openSse } from '../helpers/sse.js'

/**
 * Mastodon's streaming API (DECISIONS §13): one WebSocket with subscriptions, and each stream as server-sent
 * events; every stream and event in Mastodon's encoding, and the reader's view of what they may see, as
 * Chirp's own live stream keeps it. On whichever store runs.
 */
const { api, client, person, json, call } = await mastodonClient(t)
const { app } = api
await app.listen({ host: '127.0.0.1', port: 0 })
const port = () => (app.server.address() as { port: number }).port

const INVALID = { error: 'The access token is invalid' }
const OUT_OF_SCOPE = 'This action is outside the authorized scopes'

const post = (who: MastodonPerson, status: string, visibility = 'public') =>
  json<Status>('POST', '/api/v1/statuses', who, { status, visibility })
const socket = (who: MastodonPerson, query = '') =>
  socketOf(t, app, { query: `access_token=${encodeURIComponent(who.bearer)}${query}` })
/** Subscribes and waits until the server has taken it. */
async function subscribe(ws: StreamSocket, stream: string, tag?: string) {
  ws.send({ type: 'subscribe', stream, ...(tag === undefined ? {} : { tag }) })
  await ws.settled()
}
const isUpdate = (message: StreamMessage) => message.event === 'update'
const statusIn = (message: StreamMessage) => JSON.parse(message.payload ?? 'null') as Status
/** The updates a socket gets until the status of `marker`, as their texts. */
async function updatesUntil(ws: StreamSocket, marker: Status): Promise<string[]> {
  const seen: string[] = []
  for (;;) {
    const message = await ws.until(isUpdate)
    const status = statusIn(message)
    if (status.id === marker.id) return seen
    seen.push(`${message.stream?.join(' ') ?? ''}: ${status.content}`)
  }
}

/** The Chirp post id a status stands for. */
function idOfStatus(status: Status): string {
  const hex = status.id.slice(12, 44)
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

const [alice, bob, carol] = [await person(), await person(), await person()]
await json('POST', `/api/v1/accounts/${bob.user._id}/follow`, alice)

await t.test('health answers OK, to anyone', async (t) => {
  const res = await app.inject({ method: 'GET', url: '/api/v1/streaming/health' })
  t.equal(res.statusCode, 200)
  t.equal(res.body, 'OK')
})

await t.test(
  'the token: by query, by Sec-WebSocket-Protocol (echoed), by Authorization; a bad one is a 401',
  async (t) => {
    const byQuery = await socket(alice, '&stream=public')
    const byProtocol = await socketOf(t, app, { protocol: alice.bearer, query: 'stream=public' })
    t.equal(byProtocol.protocol, alice.bearer, 'the protocol is echoed')
    const byHeader = await socketOf(t, app, { headers: bearer(alice.bearer), query: 'stream=public' })
    const bySession = await socketOf(t, app, { headers: bearer(alice.token), query: 'stream=public' })
    const status = await post(carol, 'heard by every way in')
    for (const [ws, how] of [
      [byQuery, 'query'],
      [byProtocol, 'protocol'],
      [byHeader, 'header'],
      [bySession, 'a Chirp session'],
    ] as const) {
      t.equal(statusIn(await ws.until(isUpdate)).id, status.id, `by ${how}`)
    }

    for (const [what, options] of [
      ['no token', {}],
      ['a bad token in the query', { query: 'access_token=nonsense' }],
      ['a bad token as the protocol', { protocol: 'nonsense' }],
      ['a bad token in the header', { headers: bearer('nonsense') }],
    ] as const) {
      const refused = await openSocket(app, options)
      t.ok('status' in refused, `${what}: refused`)
      if (!('status' in refused)) continue
      t.equal(refused.status, 401, `${what}: 401`)
      t.strictSame(JSON.parse(refused.body), INVALID, `${what}: in Mastodon's shape`)
    }
    const sse = await openSse(port(), '/api/v1/streaming/public?access_token=nonsense')
    t.equal(sse.status, 401, 'an event stream with a bad token: 401')
    await sse.ended
    t.strictSame(JSON.parse(sse.text), INVALID)
  },
)

await t.test("a token ended by logout-all closes the socket, as Chirp's stream", async (t) => {
  const dave = await person()
  const ws = await socket(dave, '&stream=user')
  const res = await api.as(dave.token, { method: 'POST', url: '/api/auth/logout-all' })
  t.equal(res.statusCode, 200)
  await ws.closed
  t.pass('closed')
  const again = await openSocket(app, { query: `access_token=${dave.bearer}` })
  t.ok('status' in again && again.status === 401, 'and the token opens no other')
})

await t.test('scopes: read or read:statuses for statuses, read:notifications for notifications', async (t) => {
  const dave = await person()
  const writeOnly = await passwordToken(api, client, dave.username, dave.password, 'write')
  const refused = await openSocket(app, { query: `access_token=${writeOnly}` })
  t.ok('status' in refused && refused.status === 403, 'a token without read may not stream')
  if ('status' in refused) t.strictSame(JSON.parse(refused.body), { error: OUT_OF_SCOPE })

  const notesOnly = await passwordToken(api, client, dave.username, dave.password, 'read:notifications')
  const ws = await socketOf(t, app, { query: `access_token=${notesOnly}` })
  ws.send({ type: 'subscribe', stream: 'public' })
  t.strictSame(await ws.next(), { error: OUT_OF_SCOPE, status: 403 }, 'public needs read:statuses')
  ws.send({ type: 'subscribe', stream: 'user' })
  t.strictSame(await ws.next(), { error: OUT_OF_SCOPE, status: 403 }, 'so does user')
  await subscribe(ws, 'user:notification')
  const sse = await openSse(port(), `/api/v1/streaming/public?access_token=${notesOnly}`)
  t.equal(sse.status, 403, 'and as an event stream')

  const statusesOnly = await passwordToken(api, client, dave.username, dave.password, 'read:statuses')
  const home = await socketOf(t, app, { query: `access_token=${statusesOnly}&stream=user` })
  const mine = await post(dave, 'a post of mine')
  await json('POST', `/api/v1/statuses/${mine.id}/favourite`, carol)
  const marker = await post(dave, 'marker')
  t.strictSame(await updatesUntil(home, mine), [], 'its own post first')
  const next = await home.until((message) => message.event !== undefined)
  t.equal(next.event, 'update', 'no notification on the user stream of a token without read:notifications')
  t.equal(statusIn(next).id, marker.id)
  const note = await ws.until((message) => message.event === 'notification')
  t.same(note.stream, ['user:notification'], 'while user:notification has it')
})

await t.test("user: the home's posts, reblogs and notifications, in Mastodon's encoding", async (t) => {
  const ws = await socket(alice, '&stream=user')
  const status = await post(bob, 'hello followers #Birds')
  const message = await ws.until(isUpdate)
  t.same(message.stream, ['user'])
  t.type(message.payload, 'string', 'the payload is a JSON text')
  const shown = statusIn(message)
  t.equal(shown.id, status.id, "the status's id, as the REST API gives it")
  t.equal(shown.account.id, bob.user._id)
  t.match(shown.content, /hello followers/)
  t.equal(shown.favourited, false, 'as the reader sees it')
  t.strictSame(Object.keys(message).sort(), ['event', 'payload', 'stream'])

  const carols = await post(carol, 'carol writes')
  await json('POST', `/api/v1/statuses/${carols.id}/reblog`, bob)
  const reblog = statusIn(await ws.until(isUpdate))
  t.equal(reblog.reblog?.id, carols.id, "a followed person's reblog")
  t.equal(reblog.account.id, bob.user._id)

  const mine = await post(alice, 'alice writes')
  await json('POST', `/api/v1/statuses/${mine.id}/favourite`, bob)
  const note = await ws.until((message) => message.event === 'notification')
  t.same(note.stream, ['user'])
  t.match(JSON.parse(note.payload ?? '{}'), {
    type: 'favourite',
    account: { id: bob.user._id },
    status: { id: mine.id },
  })
})

await t.test('user:notification: notifications only', async (t) => {
  const ws = await socket(alice, '&stream=user:notification')
  await post(bob, 'not a notification')
  await json('POST', `/api/v1/accounts/${alice.user._id}/follow`, carol)
  const message = await ws.next()
  t.equal(message.event, 'notification', 'the post is left out')
  t.same(message.stream, ['user:notification'])
  t.match(JSON.parse(message.payload ?? '{}'), { type: 'follow', account: { id: carol.user._id } })
  await json('POST', `/api/v1/accounts/${alice.user._id}/unfollow`, carol)
})

await t.test('a follower-only post reaches followers only', async (t) => {
  const follower = await socket(alice, '&stream=user')
  const stranger = await socket(carol, '&stream=user')
  await subscribe(stranger, 'public')
  const hidden = await post(bob, 'for my followers', 'private')
  const marker = await post(carol, 'marker')
  const seen = statusIn(await follower.until(isUpdate))
  t.equal(seen.id, hidden.id, 'the follower gets it')
  t.equal(seen.visibility, 'private')
  t.strictSame(await updatesUntil(stranger, marker), [], 'the stranger gets nothing of it')
})

await t.test('public and public:local: public posts only', async (t) => {
  const ws = await socket(carol, '&stream=public')
  await subscribe(ws, 'public:local')
  await post(bob, 'unlisted', 'unlisted')
  const open = await post(bob, 'open to all')
  const first = await ws.until(isUpdate)
  const second = await ws.until(isUpdate)
  t.same(
    [first, second].map((message) => [message.stream, statusIn(message).id]),
    [
      [['public'], open.id],
      [['public:local'], open.id],
    ],
    'each stream its own message; the unlisted post in neither',
  )
})

await t.test('hashtag and hashtag:local: by tag, without regard to case; unsubscribe', async (t) => {
  const ws = await socket(carol, '&stream=hashtag&tag=Birds')
  await subscribe(ws, 'hashtag:local', 'birds')
  await post(bob, 'no tag here')
  const tagged = await post(bob, 'look #birds')
  const first = await ws.until(isUpdate)
  const second = await ws.until(isUpdate)
  t.same(first.stream, ['hashtag', 'birds'], 'the tag in the stream')
  t.same(second.stream, ['hashtag:local', 'birds'])
  t.equal(statusIn(first).id, tagged.id)
  ws.send({ type: 'unsubscribe', stream: 'hashtag', tag: 'birds' })
  ws.send({ type: 'unsubscribe', stream: 'hashtag:local', tag: 'BIRDS' })
  await subscribe(ws, 'public')
  await post(bob, 'more #birds')
  const marker = await post(bob, 'marker')
  t.strictSame(
    await updatesUntil(ws, marker),
    [
      'public: <p>more <a href="https://chirp.example/tag/birds" class="mention hashtag" rel="tag">#<span>birds</span></a></p>',
    ],
    'only public now',
  )
})

await t.test('delete: the bare status id; status.update: the edited status', async (t) => {
  const ws = await socket(alice, '&stream=user')
  await subscribe(ws, 'public')
  const status = await post(bob, 'soon edited')
  await ws.until(isUpdate)
  await ws.until(isUpdate)
  const edited = await api.as(bob.token, {
    method: 'POST',
    url: `/api/posts/edit/${idOfStatus(status)}`,
    payload: { postData: { content: 'edited now' } },
  })
  t.equal(edited.statusCode, 201)
  const update = await ws.until((message) => message.event === 'status.update')
  t.same(update.stream, ['user'])
  t.equal(statusIn(update).id, status.id)
  t.match(statusIn(update).content, /edited now/)
  t.not(statusIn(update).edited_at, null)
  await ws.until((message) => message.event === 'status.update')

  const res = await call('DELETE', `/api/v1/statuses/${status.id}`, bob)
  t.equal(res.statusCode, 200)
  const deleted = await ws.until((message) => message.event === 'delete')
  t.same(deleted.stream, ['user'])
  t.equal(deleted.payload, status.id, 'the id itself, not a JSON text')
  t.same((await ws.until((message) => message.event === 'delete')).stream, ['public'])
})

await t.test('an unfollow takes the follower-only posts away with a delete', async (t) => {
  const dave = await person()
  await json('POST', `/api/v1/accounts/${bob.user._id}/follow`, dave)
  const hidden = await post(bob, 'for followers only', 'private')
  const ws = await socket(dave, '&stream=user')
  await json('POST', `/api/v1/accounts/${bob.user._id}/unfollow`, dave)
  const deleted = await ws.until((message) => message.event === 'delete')
  t.equal(deleted.payload, statusIdOf({ at: hidden.created_at, postId: idOfStatus(hidden) }))
})

await t.test('a blocked author reaches the blocker on no stream', async (t) => {
  const dave = await person()
  await json('POST', `/api/v1/accounts/${dave.user._id}/block`, alice)
  const ws = await socket(alice, '&stream=public')
  await subscribe(ws, 'hashtag', 'blocked')
  await post(dave, 'can you see me #blocked')
  const marker = await post(carol, 'marker')
  t.strictSame(await updatesUntil(ws, marker), [], 'nothing of theirs')
})

await t.test('direct: conversation events with the last status', async (t) => {
  const ws = await socket(alice, '&stream=direct')
  const sent = await post(bob, `psst @${alice.username}`, 'direct')
  const message = await ws.until((message) => message.event === 'conversation')
  t.same(message.stream, ['direct'])
  const conversation = JSON.parse(message.payload ?? '{}') as {
    id: string
    unread: boolean
    accounts: { id: string }[]
    last_status: Status
  }
  t.type(conversation.id, 'string')
  t.equal(conversation.unread, true)
  t.same(
    conversation.accounts.map((account) => account.id),
    [bob.user._id],
    'the others in it',
  )
  t.equal(conversation.last_status.id, sent.id)
  t.equal(conversation.last_status.visibility, 'direct')
})

await t.test('messages a socket refuses, which change nothing', async (t) => {
  const ws = await socket(carol)
  for (const [sent, error] of [
    ['not json', 'Could not parse the message'],
    ['[1]', 'Could not parse the message'],
    [{ type: 'dance' }, 'Could not parse the message'],
    [{ type: 'subscribe', stream: 'lists' }, 'Unknown stream type'],
    [{ type: 'subscribe', stream: 'list' }, 'No list for stream provided'],
    [{ type: 'subscribe' }, 'Unknown stream type'],
    [{ type: 'subscribe', stream: 'hashtag' }, 'No tag for stream provided'],
    [{ type: 'subscribe', stream: 'hashtag', tag: ' ' }, 'No tag for stream provided'],
  ] as const) {
    ws.send(sent)
    t.strictSame(await ws.next(), { error, status: 400 }, `${JSON.stringify(sent)}: ${error}`)
  }
  const unknown = await openSocket(app, { query: `access_token=${carol.bearer}&stream=nothing` })
  t.notOk('status' in unknown, 'an unknown first stream still opens the socket')
  if (!('status' in unknown)) {
    t.strictSame(await unknown.next(), { error: 'Unknown stream type', status: 400 }, 'and is refused')
    unknown.close()
    await unknown.closed
  }
  for (let i = 0; i < 100; i++) ws.send({ type: 'subscribe', stream: 'hashtag', tag: `tag${i}` })
  ws.send({ type: 'subscribe', stream: 'hashtag', tag: 'one-too-many' })
  t.strictSame(await ws.next(), { error: 'Too many subscriptions', status: 400 }, 'at most 100 streams')
  ws.send({ type: 'subscribe', stream: 'hashtag', tag: 'tag0' })
  await ws.settled()
  t.pass('one held already may be asked again')
})

await t.test("list: its people's posts, as the owner's filters of home leave them", async (t) => {
  const list = await json<{ id: string }>('POST', '/api/v1/lists', alice, { title: 'Bob' })
  await json('POST', `/api/v1/lists/${list.id}/accounts`, alice, { account_ids: [bob.user._id] })
  const filter = await json<{ id: string }>('POST', '/api/v2/filters', alice, {
    title: 'Quiet',
    context: ['home'],
    filter_action: 'hide',
    keywords_attributes: [{ keyword: 'hushed' }],
  })
  const ws = await socket(alice)
  ws.send({ type: 'subscribe', stream: 'list', list: list.id })
  await ws.settled()
  await post(bob, 'a hushed word')
  await post(carol, 'not on the list')
  const marker = await post(bob, 'on the list')
  const seen: string[] = []
  for (;;) {
    const message = await ws.until(isUpdate)
    const status = statusIn(message)
    seen.push(`${message.stream?.join(' ') ?? ''}: ${status.content}`)
    if (status.id === marker.id) break
  }
  t.same(seen, [`list ${list.id}: <p>on the list</p>`], 'the hidden post and the stranger left out')
  await json('DELETE', `/api/v2/filters/${filter.id}`, alice)
  await json('DELETE', `/api/v1/lists/${list.id}`, alice)
  ws.close()
  await ws.closed
})

await t.test('the streams as server-sent events', async (t) => {
  const user = await sseOf(t, app, 'user', alice.bearer)
  const notes = await sseOf(t, app, 'user/notification', alice.bearer)
  const open = await sseOf(t, app, 'public', carol.bearer)
  const local = await sseOf(t, app, 'public/local', carol.bearer)
  const tag = await sseOf(t, app, 'hashtag?tag=sse', carol.bearer)
  const tagLocal = await sseOf(t, app, 'hashtag/local?tag=sse', carol.bearer)
  const direct = await sseOf(t, app, 'direct', alice.bearer)
  const status = await post(bob, 'as events #sse')
  for (const [stream, what] of [
    [user, 'user'],
    [open, 'public'],
    [local, 'public/local'],
    [tag, 'hashtag'],
    [tagLocal, 'hashtag/local'],
  ] as const) {
    const message = await stream.until((message) => message.event !== undefined, 3000)
    t.equal(message.event, 'update', `${what}: update`)
    t.equal((JSON.parse(message.data ?? '{}') as Status).id, status.id, `${what}: the status as data`)
  }
  await json('POST', `/api/v1/statuses/${status.id}/favourite`, alice)
  const mine = await post(alice, 'mine')
  await json('POST', `/api/v1/statuses/${mine.id}/reblog`, bob)
  const note = await notes.until((message) => message.event !== undefined, 3000)
  t.equal(note.event, 'notification', 'user/notification: notification')
  await post(bob, `@${alice.username} direct`, 'direct')
  t.equal((await direct.until((message) => message.event !== undefined, 3000)).event, 'conversation')
  await call('DELETE', `/api/v1/statuses/${status.id}`, bob)
  const deleted = await open.until((message) => message.event === 'delete', 3000)
  t.equal(deleted.data, JSON.stringify(status.id), 'delete: the id as a JSON string, as every data line is JSON')

  const noTag = await openSse(port(), '/api/v1/streaming/hashtag', { authorization: `Bearer ${carol.bearer}` })
  t.equal(noTag.status, 400, 'a hashtag stream without a tag: 400')
  await noTag.ended
  t.strictSame(JSON.parse(noTag.text), { error: 'No tag for stream provided' })
})
