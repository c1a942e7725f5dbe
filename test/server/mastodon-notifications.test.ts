import t from 'tap'
import type { Status } from '../../server/mastodon/status-schemas.js'
import { mastodonClient } from '../helpers/mastodon.js'

/**
 * Notifications (version 1) of the Mastodon client API (DECISIONS §13): Mastodon's types, ids that sort
 * by time and page, one read alone, the unread count. On whichever store runs.
 */
const { api, person, call, json } = await mastodonClient(t)
interface Note {
  id: string
  type: string
  account: { id: string }
  status?: Status | null
}

const alice = await person()
const bob = await person()
const status = await json<Status>('POST', '/api/v1/statuses', alice, { status: 'notice me' })
await json('POST', `/api/v1/accounts/${alice.user._id}/follow`, bob)
await json('POST', `/api/v1/statuses/${status.id}/favourite`, bob)
await json('POST', `/api/v1/statuses/${status.id}/reblog`, bob)
await json('POST', '/api/v1/statuses', bob, { status: `hey @${alice.username}` })

await t.test("Mastodon's types, newest first, with the account and the status", async (t) => {
  const notes = await json<Note[]>('GET', '/api/v1/notifications', alice)
  t.same(
    notes.map((note) => note.type),
    ['mention', 'reblog', 'favourite', 'follow'],
  )
  t.ok(
    notes.every((note) => note.account.id === bob.user._id),
    'by bob',
  )
  t.match(notes[2], { status: { id: status.id, favourites_count: 1 } })
  t.notOk('status' in (notes[3] ?? {}), 'a follow has no status')
  const ids = notes.map((note) => note.id)
  t.same([...ids].sort().reverse(), ids, 'ids sort as the list does')
})

await t.test('types and exclude_types, by Mastodon names', async (t) => {
  const only = await json<Note[]>('GET', '/api/v1/notifications?types[]=favourite&types[]=follow', alice)
  t.same(
    only.map((note) => note.type),
    ['favourite', 'follow'],
  )
  const without = await json<Note[]>('GET', '/api/v1/notifications?exclude_types[]=mention', alice)
  t.same(
    without.map((note) => note.type),
    ['reblog', 'favourite', 'follow'],
  )
})

await t.test('paged by max_id, since_id and min_id, with Link headers', async (t) => {
  const all = await json<Note[]>('GET', '/api/v1/notifications', alice)
  const ids = all.map((note) => note.id)
  const first = await call('GET', '/api/v1/notifications?limit=2', alice)
  t.same(
    first.json<Note[]>().map((note) => note.id),
    ids.slice(0, 2),
  )
  t.match(first.headers.link, /rel="next"/)
  const older = await json<Note[]>('GET', `/api/v1/notifications?limit=2&max_id=${ids[1] ?? ''}`, alice)
  t.same(
    older.map((note) => note.id),
    ids.slice(2, 4),
  )
  const newer = await json<Note[]>('GET', `/api/v1/notifications?limit=1&min_id=${ids[3] ?? ''}`, alice)
  t.same(
    newer.map((note) => note.id),
    [ids[2]],
    'min_id: the one just above',
  )
  const since = await json<Note[]>('GET', `/api/v1/notifications?since_id=${ids[1] ?? ''}`, alice)
  t.same(
    since.map((note) => note.id),
    [ids[0]],
  )
})

await t.test('one read alone, and only by its recipient; the unread count', async (t) => {
  const [newest] = await json<Note[]>('GET', '/api/v1/notifications', alice)
  t.match(await json('GET', `/api/v1/notifications/${newest?.id ?? ''}`, alice), { id: newest?.id, type: 'mention' })
  t.equal((await call('GET', `/api/v1/notifications/${newest?.id ?? ''}`, bob)).statusCode, 404, "not another's")
  t.equal((await call('GET', '/api/v1/notifications/nonsense', alice)).statusCode, 404)
  t.same(await json('GET', '/api/v1/notifications/unread_count', alice), { count: 4 })
  await api.as(alice.token, { method: 'POST', url: '/api/notifications/read', payload: {} })
  t.same(await json('GET', '/api/v1/notifications/unread_count', alice), { count: 0 }, 'after reading')
})

await t.test('dismiss takes one away, to its recipient alone; the unread count falls', async (t) => {
  const carol = await person()
  await json('POST', `/api/v1/accounts/${carol.user._id}/follow`, bob)
  await json('POST', `/api/v1/accounts/${carol.user._id}/follow`, alice)
  const notes = await json<Note[]>('GET', '/api/v1/notifications', carol)
  t.equal(notes.length, 2)
  t.same(await json('GET', '/api/v1/notifications/unread_count', carol), { count: 2 })
  const [newest] = notes
  t.equal(
    (await call('POST', `/api/v1/notifications/${newest?.id ?? ''}/dismiss`, bob)).statusCode,
    404,
    "not another's",
  )
  t.same(await json('POST', `/api/v1/notifications/${newest?.id ?? ''}/dismiss`, carol), {})
  t.same(
    (await json<Note[]>('GET', '/api/v1/notifications', carol)).map((note) => note.id),
    [notes[1]?.id],
    'gone',
  )
  t.same(await json('GET', '/api/v1/notifications/unread_count', carol), { count: 1 })
  t.equal((await call('POST', `/api/v1/notifications/${newest?.id ?? ''}/dismiss`, carol)).statusCode, 404, 'once')
})

await t.test('a blocked actor is gone from the list', async (t) => {
  await json('POST', `/api/v1/accounts/${bob.user._id}/block`, alice)
  t.same(await json('GET', '/api/v1/notifications', alice), [])
})
