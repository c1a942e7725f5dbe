import t from 'tap'
import type { Status } from '../../server/mastodon/status-schemas.js'
import { FILTER_LIMITS } from '../../server/services/filters.js'
import { LIST_LIMITS } from '../../server/services/lists.js'
import { bearer, mastodonClient, type MastodonPerson } from '../helpers/mastodon.js'

/**
 * Keyword filters and lists (DECISIONS §15) through the Mastodon client API, over the services' rules:
 * filters warn or hide in their contexts alone, for their owner alone, until they expire; lists hold
 * followed people, read as their own timeline, and an exclusive one keeps its people out of home. Each
 * refusal is a clear 4xx that changes nothing. On whichever store runs.
 */
const { api, person, call, json } = await mastodonClient(t)
interface Filter {
  id: string
  title: string
  context: string[]
  filter_action: string
  expires_at: string | null
  keywords: { id: string; keyword: string; whole_word: boolean }[]
}
interface List {
  id: string
  title: string
  replies_policy: string
  exclusive: boolean
}
const put = (url: string, who: MastodonPerson, payload: Record<string, unknown>) =>
  api.app.inject({ method: 'PUT', url, headers: bearer(who.bearer), payload })

const reader = await person()
const writer = await person()
const other = await person()
await json('POST', `/api/v1/accounts/${writer.user._id}/follow`, reader)
await json('POST', `/api/v1/accounts/${other.user._id}/follow`, reader)
const post = (who: MastodonPerson, status: string) => json<Status>('POST', '/api/v1/statuses', who, { status })
const home = (who: MastodonPerson) => json<Status[]>('GET', '/api/v1/timelines/home', who)
const publicLine = (who?: MastodonPerson) => json<Status[]>('GET', '/api/v1/timelines/public', who)

await t.test('a warn filter marks matching posts in its contexts, for its owner alone', async (t) => {
  const filter = await json<Filter>('POST', '/api/v2/filters', reader, {
    title: 'Spoilers',
    context: ['home'],
    filter_action: 'warn',
    keywords_attributes: [{ keyword: 'finale', whole_word: true }],
  })
  t.match(filter, { title: 'Spoilers', context: ['home'], filter_action: 'warn', keywords: [{ keyword: 'finale' }] })
  const matched = await post(writer, 'The FINALE was wild')
  const partial = await post(writer, 'finales are overrated')
  const homeLine = await home(reader)
  t.match(homeLine.find((status) => status.id === matched.id)?.filtered, [
    { filter: { id: filter.id, title: 'Spoilers', filter_action: 'warn' }, keyword_matches: ['finale'] },
  ])
  t.same(homeLine.find((status) => status.id === partial.id)?.filtered, [], 'a whole word only')
  t.same((await publicLine(reader)).find((status) => status.id === matched.id)?.filtered, [], 'not in public')
  t.same((await home(writer)).find((status) => status.id === matched.id)?.filtered, [], "the author's own")
  const ownPost = await post(reader, 'my finale')
  t.same((await home(reader)).find((status) => status.id === ownPost.id)?.filtered, [], 'never on the owner’s own')
  t.equal((await json<Filter[]>('GET', '/api/v2/filters', writer)).length, 0, 'nobody else sees it')
  t.equal((await call('GET', `/api/v2/filters/${filter.id}`, writer)).statusCode, 404)
  t.equal((await call('DELETE', `/api/v2/filters/${filter.id}`, writer)).statusCode, 404)
  await json('DELETE', `/api/v2/filters/${filter.id}`, reader)
  t.same((await home(reader)).find((status) => status.id === matched.id)?.filtered, [], 'gone with its filter')
})

await t.test('a hide filter leaves matching posts out of its contexts, until it expires', async (t) => {
  const filter = await json<Filter>('POST', '/api/v2/filters', reader, {
    title: 'Crypto',
    context: ['home', 'public', 'account'],
    filter_action: 'hide',
    expires_in: 3600,
    keywords_attributes: [{ keyword: 'coin', whole_word: false }],
  })
  t.ok(filter.expires_at)
  const hidden = await post(writer, 'Buy my bitcoin')
  const kept = await post(writer, 'Nothing to see')
  const ids = (statuses: Status[]) => statuses.map((status) => status.id)
  t.notOk(ids(await home(reader)).includes(hidden.id), 'not in home')
  t.ok(ids(await home(reader)).includes(kept.id))
  t.notOk(ids(await publicLine(reader)).includes(hidden.id), 'not in public')
  t.notOk(
    ids(await json<Status[]>('GET', `/api/v1/accounts/${writer.user._id}/statuses`, reader)).includes(hidden.id),
    'not on the profile',
  )
  t.ok(ids(await publicLine()).includes(hidden.id), 'there for someone signed out')
  t.ok(ids(await home(writer)).includes(hidden.id), 'there for its author')
  // A filter no longer in force hides nothing; expires_in 0 is a filter that never ends.
  const changed = await put(`/api/v2/filters/${filter.id}`, reader, { context: ['thread'] })
  t.equal(changed.statusCode, 200)
  t.ok(ids(await home(reader)).includes(hidden.id), 'home is no longer its context')
  const thread = await json<Status>('GET', `/api/v1/statuses/${hidden.id}`, reader)
  t.equal(thread.id, hidden.id, 'a post asked for by its id is still there')
  await json('DELETE', `/api/v2/filters/${filter.id}`, reader)
})

await t.test(
  'keywords: listed, added, changed and deleted by their own routes and by keywords_attributes',
  async (t) => {
    const filter = await json<Filter>('POST', '/api/v2/filters', reader, {
      title: 'Words',
      context: ['public'],
      keywords_attributes: [{ keyword: 'one' }],
    })
    const added = await json<{ id: string; keyword: string; whole_word: boolean }>(
      'POST',
      `/api/v2/filters/${filter.id}/keywords`,
      reader,
      { keyword: 'two', whole_word: false },
    )
    t.match(added, { keyword: 'two', whole_word: false })
    t.match(await json(`GET`, `/api/v2/filter_keywords/${added.id}`, reader), { keyword: 'two' })
    t.equal((await call('GET', `/api/v2/filter_keywords/${added.id}`, writer)).statusCode, 404, "not another's")
    const changed = await put(`/api/v2/filter_keywords/${added.id}`, reader, { keyword: 'three' })
    t.match(changed.json(), { id: added.id, keyword: 'three' })
    const first = filter.keywords[0]?.id ?? ''
    const both = await put(`/api/v2/filters/${filter.id}`, reader, {
      keywords_attributes: [{ id: first, _destroy: true }, { keyword: 'four' }],
    })
    t.same(
      both.json<Filter>().keywords.map((keyword) => keyword.keyword),
      ['three', 'four'],
    )
    await json('DELETE', `/api/v2/filter_keywords/${added.id}`, reader)
    t.same(
      (await json<{ keyword: string }[]>('GET', `/api/v2/filters/${filter.id}/keywords`, reader)).map((k) => k.keyword),
      ['four'],
    )
    await json('DELETE', `/api/v2/filters/${filter.id}`, reader)
  },
)

await t.test('a filter sent as an HTML form', async (t) => {
  const res = await api.app.inject({
    method: 'POST',
    url: '/api/v2/filters',
    headers: { ...bearer(reader.bearer), 'content-type': 'application/x-www-form-urlencoded' },
    payload:
      'title=Form&context[]=home&context[]=notifications&filter_action=hide' +
      '&keywords_attributes[][keyword]=alpha&keywords_attributes[][keyword]=beta&keywords_attributes[][whole_word]=false',
  })
  t.equal(res.statusCode, 200, res.body)
  const filter = res.json<Filter>()
  t.match(filter, { context: ['home', 'notifications'], filter_action: 'hide' })
  t.same(
    filter.keywords.map((keyword) => [keyword.keyword, keyword.whole_word]),
    [
      ['alpha', false],
      ['beta', true],
    ],
  )
  await json('DELETE', `/api/v2/filters/${filter.id}`, reader)
})

await t.test('filter refusals are 4xx and change nothing', async (t) => {
  const bad = async (payload: Record<string, unknown>, message: RegExp) => {
    const res = await call('POST', '/api/v2/filters', reader, payload)
    t.equal(res.statusCode, 422, JSON.stringify(payload))
    t.match(res.json<{ error: string }>().error, message)
  }
  await bad({ title: '', context: ['home'] }, /title/)
  await bad({ title: 'x'.repeat(FILTER_LIMITS.title + 1), context: ['home'] }, /title/)
  await bad({ title: 'No context', context: [] }, /context/)
  await bad({ title: 'Bad context', context: ['home', 'elsewhere'] }, /context/)
  await bad({ title: 'Soon', context: ['home'], expires_in: 30 }, /60 seconds/)
  await bad({ title: 'Blank', context: ['home'], keywords_attributes: [{ keyword: '  ' }] }, /keyword/)
  const many = Array.from({ length: FILTER_LIMITS.keywords + 1 }, (_, i) => ({ keyword: `k${i}` }))
  await bad({ title: 'Many', context: ['home'], keywords_attributes: many }, /at most 50 keywords/)
  t.same(await json('GET', '/api/v2/filters', reader), [], 'none was made')
  const wrongAction = await call('POST', '/api/v2/filters', reader, {
    title: 'x',
    context: ['home'],
    filter_action: 'blur',
  })
  t.equal(wrongAction.statusCode, 422)
  const readOnly = await person('read')
  t.equal((await call('POST', '/api/v2/filters', readOnly, { title: 'x', context: ['home'] })).statusCode, 403)
})

await t.test('at most FILTER_LIMITS.filters filters a person', async (t) => {
  const someone = await person()
  for (let i = 0; i < FILTER_LIMITS.filters; i++) {
    await json('POST', '/api/v2/filters', someone, { title: `f${i}`, context: ['home'] })
  }
  const over = await call('POST', '/api/v2/filters', someone, { title: 'one more', context: ['home'] })
  t.equal(over.statusCode, 422)
  t.match(over.json(), { error: /at most 100 filters/ })
  t.equal((await json<Filter[]>('GET', '/api/v2/filters', someone)).length, FILTER_LIMITS.filters)
})

await t.test('lists: made, renamed, their people, their timeline; exclusive keeps them out of home', async (t) => {
  const list = await json<List>('POST', '/api/v1/lists', reader, { title: 'Writers' })
  t.match(list, { title: 'Writers', replies_policy: 'list', exclusive: false })
  await json('POST', `/api/v1/lists/${list.id}/accounts`, reader, { account_ids: [writer.user._id] })
  const members = await json<{ id: string }[]>('GET', `/api/v1/lists/${list.id}/accounts`, reader)
  t.same(
    members.map((account) => account.id),
    [writer.user._id],
  )
  t.same(
    (await json<List[]>('GET', `/api/v1/accounts/${writer.user._id}/lists`, reader)).map((each) => each.id),
    [list.id],
  )
  const byWriter = await post(writer, 'for the list')
  const byOther = await post(other, 'not on the list')
  const timeline = await json<Status[]>('GET', `/api/v1/timelines/list/${list.id}`, reader)
  t.ok(timeline.some((status) => status.id === byWriter.id))
  t.notOk(timeline.some((status) => status.id === byOther.id))
  t.ok(
    (await home(reader)).some((status) => status.id === byWriter.id),
    'in home while not exclusive',
  )

  const renamed = await put(`/api/v1/lists/${list.id}`, reader, {
    title: 'Close',
    exclusive: true,
    replies_policy: 'none',
  })
  t.match(renamed.json(), { title: 'Close', exclusive: true, replies_policy: 'none' })
  t.notOk(
    (await home(reader)).some((status) => status.id === byWriter.id),
    'out of home once exclusive',
  )
  t.ok((await home(reader)).some((status) => status.id === byOther.id))

  // Only people the owner follows count; unfollowing takes them off the timeline.
  await json('POST', `/api/v1/accounts/${writer.user._id}/unfollow`, reader)
  t.same(await json('GET', `/api/v1/lists/${list.id}/accounts`, reader), [])
  t.same(await json('GET', `/api/v1/timelines/list/${list.id}`, reader), [])
  await json('POST', `/api/v1/accounts/${writer.user._id}/follow`, reader)

  const removed = await api.app.inject({
    method: 'DELETE',
    url: `/api/v1/lists/${list.id}/accounts`,
    headers: bearer(reader.bearer),
    payload: { account_ids: [writer.user._id] },
  })
  t.equal(removed.statusCode, 200)
  t.same(await json('GET', `/api/v1/lists/${list.id}/accounts`, reader), [])
  t.ok(
    (await home(reader)).some((status) => status.id === byWriter.id),
    'back in home once off the list',
  )
  await json('DELETE', `/api/v1/lists/${list.id}`, reader)
  t.equal((await call('GET', `/api/v1/lists/${list.id}`, reader)).statusCode, 404)
})

await t.test('list refusals are 4xx and change nothing', async (t) => {
  const list = await json<List>('POST', '/api/v1/lists', reader, { title: 'Mine' })
  t.equal((await call('GET', `/api/v1/lists/${list.id}`, writer)).statusCode, 404, "another's list")
  t.equal((await call('GET', `/api/v1/timelines/list/${list.id}`, writer)).statusCode, 404)
  t.equal((await call('DELETE', `/api/v1/lists/${list.id}`, writer)).statusCode, 404)
  const stranger = await person()
  const notFollowed = await call('POST', `/api/v1/lists/${list.id}/accounts`, reader, {
    account_ids: [writer.user._id, stranger.user._id],
  })
  t.equal(notFollowed.statusCode, 422)
  t.match(notFollowed.json(), { error: /people you follow/ })
  t.same(await json('GET', `/api/v1/lists/${list.id}/accounts`, reader), [], 'nobody was added')
  const blank = await call('POST', '/api/v1/lists', reader, { title: ' ' })
  t.equal(blank.statusCode, 422)
  const long = await call('POST', '/api/v1/lists', reader, { title: 'x'.repeat(LIST_LIMITS.title + 1) })
  t.equal(long.statusCode, 422)
  const policy = await call('POST', '/api/v1/lists', reader, { title: 'p', replies_policy: 'everyone' })
  t.equal(policy.statusCode, 422)
  t.equal((await json<List[]>('GET', '/api/v1/lists', reader)).length, 1)
  await json('DELETE', `/api/v1/lists/${list.id}`, reader)
  const someone = await person()
  for (let i = 0; i < LIST_LIMITS.lists; i++) await json('POST', '/api/v1/lists', someone, { title: `l${i}` })
  const over = await call('POST', '/api/v1/lists', someone, { title: 'one more' })
  t.equal(over.statusCode, 422)
  t.match(over.json(), { error: /at most 50 lists/ })
})

await t.test("Chirp's own feed and session: filtered in /api, the kept feed follows a filter's change", async (t) => {
  const session = { authorization: `Bearer ${reader.token}` }
  const feed = async () =>
    (await api.app.inject({ method: 'GET', url: '/api/feed?limit=50', headers: session })).json<{
      posts: { content: string; filtered?: { filter: { title: string } }[] }[]
    }>().posts
  const matched = { text: 'A word about gardens' }
  await post(writer, matched.text)
  t.same((await feed()).find((each) => each.content === matched.text)?.filtered, undefined, 'nothing before a filter')
  // A Chirp session is accepted on the Mastodon routes of filters with every scope (DECISIONS §17).
  const made = await api.app.inject({
    method: 'POST',
    url: '/api/v2/filters',
    headers: session,
    payload: { title: 'Plants', context: ['home'], keywords_attributes: [{ keyword: 'gardens' }] },
  })
  t.equal(made.statusCode, 200, made.body)
  t.match((await feed()).find((each) => each.content === matched.text)?.filtered, [{ filter: { title: 'Plants' } }])
  await api.app.inject({
    method: 'PUT',
    url: `/api/v2/filters/${made.json<Filter>().id}`,
    headers: session,
    payload: { filter_action: 'hide' },
  })
  t.notOk(
    (await feed()).some((each) => each.content === matched.text),
    'hidden once the filter hides',
  )
  await api.app.inject({ method: 'DELETE', url: `/api/v2/filters/${made.json<Filter>().id}`, headers: session })
  t.same((await feed()).find((each) => each.content === matched.text)?.filtered, undefined, 'back once it is gone')
})
