import { Value } from '@sinclair/typebox/value'
import t from 'tap'
import { StatusSchema, type Status } from '../../server/mastodon/status-schemas.js'
import { statusIdOf, statusKeyOf } from '../../server/services/status-ids.js'
import { bearer, mastodonClient, type MastodonPerson } from '../helpers/mastodon.js'

/**
 * Statuses and timelines of the Mastodon client API (DECISIONS §13): the Status entity, ids that sort by
 * time and page on both stores, the home, public and tag timelines, and a status's marks. On whichever
 * store runs.
 */
const { api, person, call } = await mastodonClient(t)
type Person = MastodonPerson
const statuses = async (url: string, who?: Person) => {
  const res = await call('GET', url, who)
  if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body}`)
  const body = res.json<Status[]>()
  for (const status of body)
    if (!Value.Check(StatusSchema, status)) throw new Error(`not a Status: ${JSON.stringify(status)}`)
  return { body, link: res.headers.link as string | undefined }
}
const post = async (who: Person, payload: Record<string, unknown>) => {
  const res = await call('POST', '/api/v1/statuses', who, payload)
  if (res.statusCode !== 200) throw new Error(`post: ${res.statusCode} ${res.body}`)
  return res.json<Status>()
}

const alice = await person()
const bob = await person()
await api.as(bob.token, { method: 'POST', url: `/api/users/follow/${alice.user._id}` })

await t.test('status ids hold the time, the post and the reposter, and sort as the time does', async (t) => {
  const postId = '0b8f9a2e-1c3d-4e5f-8a9b-0c1d2e3f4a5b'
  const reposter = 'f0e1d2c3-b4a5-4697-8876-a5b4c3d2e1f0'
  const early = statusIdOf({ at: '2026-01-01T00:00:00.000Z', postId })
  const late = statusIdOf({ at: '2026-01-01T00:00:00.001Z', postId: '00000000-0000-4000-8000-000000000000' })
  const repost = statusIdOf({ at: '2026-01-02T00:00:00.000Z', postId, by: reposter })
  t.equal(early.length, late.length, 'one length')
  t.equal(early.length, repost.length, 'a repost too')
  t.ok(early < late, 'a later millisecond sorts above, whatever the post')
  t.ok(late < repost, 'a repost at its own time')
  t.same(statusKeyOf(early), { at: '2026-01-01T00:00:00.000Z', postId })
  t.same(statusKeyOf(repost), { at: '2026-01-02T00:00:00.000Z', postId, by: reposter })
  t.equal(statusKeyOf('12345'), undefined, 'not an id')
})

await t.test('a status posted: HTML with links, mentions and tags, audience, poll, counts and marks', async (t) => {
  const status = await post(alice, {
    status: `Hi @${bob.username} see https://example.com/a?b=1 #Chirp <b>\n\nnext`,
    spoiler_text: 'careful',
    visibility: 'unlisted',
    poll: { options: ['yes', 'no'], expires_in: 3600 },
  })
  t.ok(Value.Check(StatusSchema, status), 'a Status')
  t.match(status, {
    id: /^[0-9a-f]{76}$/,
    visibility: 'unlisted',
    spoiler_text: 'careful',
    sensitive: true,
    account: { id: alice.user._id, username: alice.username },
    tags: [{ name: 'chirp', url: 'https://chirp.example/tag/chirp' }],
    poll: { expired: false, multiple: false, options: [{ title: 'yes' }, { title: 'no' }], voted: false },
    favourited: false,
    reblogged: false,
    bookmarked: false,
    pinned: false,
    reblog: null,
    in_reply_to_id: null,
    url: /^https:\/\/chirp\.example\/post-detail\//,
  })
  t.match(status.content, `@<span>${bob.username}</span>`, 'the mention links')
  t.match(status.content, `href="https://chirp.example/profile/${bob.username}"`)
  t.match(status.content, '<a href="https://example.com/a?b=1"', 'the link')
  t.match(status.content, 'class="mention hashtag" rel="tag">#<span>Chirp</span></a>', 'the tag')
  t.match(status.content, '&lt;b&gt;</p><p>next</p>', 'escaped, in paragraphs')
  const read = await call('GET', `/api/v1/statuses/${status.id}`, bob)
  t.equal(read.statusCode, 200)
  t.equal(read.json<Status>().id, status.id, 'the same id read again')
  t.equal((await call('GET', '/api/v1/statuses/nope', bob)).statusCode, 404)
})

await t.test('a status posted as a form, its poll as `poll[options][]`', async (t) => {
  const res = await api.app.inject({
    method: 'POST',
    url: '/api/v1/statuses',
    headers: { ...bearer(alice.bearer), 'content-type': 'application/x-www-form-urlencoded' },
    payload: 'status=a+form&visibility=private&poll[options][]=left&poll[options][]=right&poll[expires_in]=86401',
  })
  t.equal(res.statusCode, 200, res.body)
  const status = res.json<Status>()
  t.match(status, { visibility: 'private', poll: { options: [{ title: 'left' }, { title: 'right' }] } })
  const days = (Date.parse(status.poll?.expires_at ?? '') - Date.parse(status.created_at)) / 86_400_000
  t.equal(Math.round(days), 2, "a day and a second is two of Chirp's days")
})

await t.test('an audience holds: a followers post is private and no stranger reads it', async (t) => {
  const status = await post(alice, { status: 'for followers', visibility: 'private' })
  t.equal(status.visibility, 'private')
  t.equal((await call('GET', `/api/v1/statuses/${status.id}`, bob)).statusCode, 200, 'a follower reads it')
  const stranger = await person()
  const refused = await call('GET', `/api/v1/statuses/${status.id}`, stranger)
  t.equal(refused.statusCode, 404)
  t.match(refused.json(), { error: String })
  const { body } = await statuses('/api/v1/timelines/public')
  t.notOk(
    body.some((each) => each.id === status.id),
    'not in the public timeline',
  )
})

await t.test('home timeline pages by max_id, since_id and min_id, with Link headers', async (t) => {
  const reader = await person()
  const author = await person()
  await api.as(reader.token, { method: 'POST', url: `/api/users/follow/${author.user._id}` })
  const written: Status[] = []
  for (let i = 0; i < 5; i++) written.push(await post(author, { status: `post ${i}` }))
  const ids = written.map((each) => each.id)
  t.same([...ids].sort(), ids, 'ids rise as posts are written')
  const newestFirst = [...ids].reverse()

  const first = await statuses('/api/v1/timelines/home?limit=2', reader)
  t.same(
    first.body.map((each) => each.id),
    newestFirst.slice(0, 2),
  )
  t.match(first.link, /<[^>]*max_id=[0-9a-f]+[^>]*>; rel="next", <[^>]*min_id=[0-9a-f]+[^>]*>; rel="prev"/)
  const next = /<([^>]+)>; rel="next"/.exec(first.link ?? '')?.[1] ?? ''
  t.match(next, /^https:\/\/chirp\.example\/api\/v1\/timelines\/home\?limit=2&max_id=/)
  const second = await statuses(next.replace('https://chirp.example', ''), reader)
  t.same(
    second.body.map((each) => each.id),
    newestFirst.slice(2, 4),
    'the next page',
  )
  const since = await statuses(`/api/v1/timelines/home?limit=2&since_id=${ids[1]}`, reader)
  t.same(
    since.body.map((each) => each.id),
    [ids[4], ids[3]],
    'since_id: the newest above it',
  )
  const min = await statuses(`/api/v1/timelines/home?limit=2&min_id=${ids[1]}`, reader)
  t.same(
    min.body.map((each) => each.id),
    [ids[3], ids[2]],
    'min_id: those just above it, newest first',
  )
  const between = await statuses(`/api/v1/timelines/home?min_id=${ids[0]}&max_id=${ids[3]}`, reader)
  t.same(
    between.body.map((each) => each.id),
    [ids[2], ids[1]],
    'between min_id and max_id',
  )
  const empty = await statuses(`/api/v1/timelines/home?since_id=${ids[4]}`, reader)
  t.same(empty.body, [], 'nothing newer')
  t.equal(empty.link, undefined, 'no Link on an empty page')
  t.equal((await call('GET', '/api/v1/timelines/home?max_id=nonsense', reader)).statusCode, 400, 'a bad id')
  t.equal((await call('GET', '/api/v1/timelines/home')).statusCode, 401, 'the home timeline needs a token')
})

await t.test('a reblog is a status of its own in the home timeline, at its own time', async (t) => {
  const reader = await person()
  const reposter = await person()
  const author = await person()
  await api.as(reader.token, { method: 'POST', url: `/api/users/follow/${reposter.user._id}` })
  const original = await post(author, { status: 'worth sharing' })
  const reblogged = await call('POST', `/api/v1/statuses/${original.id}/reblog`, reposter)
  t.equal(reblogged.statusCode, 200)
  t.match(reblogged.json(), { reblogged: true, reblogs_count: 1 })
  t.equal((await call('POST', `/api/v1/statuses/${original.id}/reblog`, reposter)).statusCode, 200, 'again: no error')
  const { body } = await statuses('/api/v1/timelines/home', reader)
  const entry = body[0]
  t.match(entry, { account: { id: reposter.user._id }, reblog: { id: original.id, account: { id: author.user._id } } })
  t.not(entry?.id, original.id, 'an id of its own')
  t.ok((entry?.id ?? '') > original.id, 'above the post it reblogs')
  const older = await statuses(`/api/v1/timelines/home?max_id=${entry?.id ?? ''}`, reader)
  t.notOk(
    older.body.some((each) => each.reblog?.id === original.id),
    'paged past',
  )
  const undone = await call('POST', `/api/v1/statuses/${original.id}/unreblog`, reposter)
  t.match(undone.json(), { reblogged: false, reblogs_count: 0 })
  t.same((await statuses('/api/v1/timelines/home', reader)).body, [], 'gone with the repost')
})

await t.test('favourite, bookmark and pin, each undone; a second time is no error', async (t) => {
  const status = await post(alice, { status: 'mark me' })
  const url = (action: string) => `/api/v1/statuses/${status.id}/${action}`
  t.match((await call('POST', url('favourite'), bob)).json(), { favourited: true, favourites_count: 1 })
  t.match((await call('POST', url('favourite'), bob)).json(), { favourited: true, favourites_count: 1 })
  t.match((await call('POST', url('unfavourite'), bob)).json(), { favourited: false, favourites_count: 0 })
  t.match((await call('POST', url('bookmark'), bob)).json(), { bookmarked: true })
  t.match((await call('GET', `/api/v1/statuses/${status.id}`, bob)).json(), { bookmarked: true })
  t.match((await call('POST', url('unbookmark'), bob)).json(), { bookmarked: false })
  t.match((await call('POST', url('pin'), alice)).json(), { pinned: true })
  t.equal((await call('POST', url('pin'), bob)).statusCode, 403, "no pinning another's post")
  t.match((await call('POST', url('unpin'), alice)).json(), { pinned: false })
  t.equal((await call('POST', url('favourite'))).statusCode, 401, 'a token is needed')
})

await t.test('delete answers the status with its text; it is gone after', async (t) => {
  const status = await post(alice, { status: 'to redraft' })
  t.equal((await call('DELETE', `/api/v1/statuses/${status.id}`, bob)).statusCode, 400, "not another's")
  const res = await call('DELETE', `/api/v1/statuses/${status.id}`, alice)
  t.equal(res.statusCode, 200)
  t.match(res.json(), { id: status.id, text: 'to redraft' })
  t.equal((await call('GET', `/api/v1/statuses/${status.id}`, alice)).statusCode, 404)
})

await t.test('a post the services refuse is refused here as Mastodon words it', async (t) => {
  const res = await call('POST', '/api/v1/statuses', alice, { status: '' })
  t.equal(res.statusCode, 400)
  t.match(res.json(), { error: String })
  const limited = await call('POST', '/api/v1/statuses', alice, { status: 'x'.repeat(501) })
  t.equal(limited.statusCode, 400, 'the length limit holds')
})

await t.test('public and tag timelines: public posts alone, paged', async (t) => {
  const tag = `tag${Date.now().toString(36)}`
  const shown = [await post(alice, { status: `one #${tag}` }), await post(alice, { status: `two #${tag}` })]
  await post(alice, { status: `hidden #${tag}`, visibility: 'unlisted' })
  const tagged = await statuses(`/api/v1/timelines/tag/${tag.toUpperCase()}`)
  t.same(
    tagged.body.map((each) => each.id),
    [shown[1]?.id, shown[0]?.id],
    'the public ones, newest first',
  )
  const min = await statuses(`/api/v1/timelines/tag/${tag}?min_id=${shown[0]?.id ?? ''}`)
  t.same(
    min.body.map((each) => each.id),
    [shown[1]?.id],
    'min_id on a tag',
  )
  const local = await statuses('/api/v1/timelines/public?local=true&limit=1')
  t.equal(local.body[0]?.id, shown[1]?.id, 'the newest public post')
  t.same((await statuses('/api/v1/timelines/public?remote=true')).body, [], 'nothing remote')
  const older = await statuses(`/api/v1/timelines/public?limit=1&max_id=${shown[1]?.id ?? ''}`)
  t.equal(older.body[0]?.id, shown[0]?.id, 'paged by max_id')
  const newer = await statuses(`/api/v1/timelines/public?limit=1&min_id=${shown[0]?.id ?? ''}`)
  t.equal(newer.body[0]?.id, shown[1]?.id, 'paged by min_id')
})

await t.test('bookmarks, favourites and favourited_by: newest mark first, paged by their Link', async (t) => {
  const reader = await person()
  const written = [await post(alice, { status: 'first' }), await post(alice, { status: 'second' })]
  for (const status of written) {
    await call('POST', `/api/v1/statuses/${status.id}/bookmark`, reader)
    await call('POST', `/api/v1/statuses/${status.id}/favourite`, reader)
  }
  for (const list of ['bookmarks', 'favourites']) {
    const first = await statuses(`/api/v1/${list}?limit=1`, reader)
    t.same(
      first.body.map((each) => each.id),
      [written[1]?.id],
      `${list}: the newest mark first`,
    )
    const next = /<([^>]+)>; rel="next"/.exec(first.link ?? '')?.[1]
    t.ok(next, `${list}: a next page`)
    const second = await statuses((next ?? '').replace('https://chirp.example', ''), reader)
    t.same(
      second.body.map((each) => each.id),
      [written[0]?.id],
      `${list}: then the older`,
    )
    t.match(second.body[0], list === 'bookmarks' ? { bookmarked: true } : { favourited: true })
    t.equal((await call('GET', `/api/v1/${list}`)).statusCode, 401, `${list}: a token is needed`)
  }
  const likers = await call('GET', `/api/v1/statuses/${written[0]?.id ?? ''}/favourited_by`)
  t.equal(likers.statusCode, 200)
  t.same(
    likers.json<{ id: string }[]>().map((each) => each.id),
    [reader.user._id],
  )
})

await t.test('a marker may hold a status id', async (t) => {
  const status = await post(alice, { status: 'read up to here' })
  const res = await call('POST', '/api/v1/markers', alice, { home: { last_read_id: status.id } })
  t.equal(res.statusCode, 200)
  t.match(res.json(), { home: { last_read_id: status.id } })
})
