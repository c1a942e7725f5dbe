import t from 'tap'
import type { Status } from '../../server/mastodon/status-schemas.js'
import { mastodonClient } from '../helpers/mastodon.js'

/**
 * Trends and suggestions through the Mastodon client API (DECISIONS §13): the tags of the week's public
 * posts, the most liked public posts, and Who to follow. On whichever store runs.
 */
const { person, call, json } = await mastodonClient(t)
const tag = (name: string) => `${name}${Date.now().toString(36)}`
const hot = tag('hot')
const warm = tag('warm')

const alice = await person()
const likers = [await person(), await person(), await person()]
const popular = await json<Status>('POST', '/api/v1/statuses', alice, { status: `loved #${hot}` })
const liked = await json<Status>('POST', '/api/v1/statuses', alice, { status: `liked #${hot} #${warm}` })
const secret = await json<Status>('POST', '/api/v1/statuses', alice, { status: `#${hot} close`, visibility: 'private' })
await json('POST', '/api/v1/statuses', alice, { status: `#${warm} quietly`, visibility: 'unlisted' })
for (const liker of likers) {
  await json('POST', `/api/v1/statuses/${popular.id}/favourite`, liker)
  await json('POST', `/api/v1/statuses/${secret.id}/favourite`, liker).catch(() => undefined)
}
await json('POST', `/api/v1/statuses/${liked.id}/favourite`, likers[0] ?? alice)

await t.test('trends/tags: the most used in public posts first; paged by offset', async (t) => {
  const tags = await json<{ name: string; url: string; history: unknown[] }[]>('GET', '/api/v1/trends/tags?limit=20')
  const names = tags.map((each) => each.name)
  t.ok(names.indexOf(hot) >= 0 && names.indexOf(hot) < names.indexOf(warm), 'hot (two public posts) above warm (one)')
  t.match(
    tags.find((each) => each.name === hot),
    { url: `https://chirp.example/tag/${hot}`, history: [] },
  )
  const second = await json<{ name: string }[]>('GET', '/api/v1/trends/tags?limit=1&offset=1')
  t.same(
    second.map((each) => each.name),
    names.slice(1, 2),
    'offset',
  )
  t.same(await json('GET', '/api/v1/trends/tags?offset=1000'), [], 'nothing far past the top')
  t.equal((await call('GET', '/api/v1/trends/tags?limit=0')).statusCode, 422, 'a bad limit')
})

await t.test('trends/statuses: the most liked public posts first; no other audience', async (t) => {
  const statuses = await json<Status[]>('GET', '/api/v1/trends/statuses', alice)
  const ids = statuses.map((each) => each.id)
  t.ok(ids.includes(popular.id) && ids.indexOf(popular.id) < ids.indexOf(liked.id), 'the more liked first')
  t.notOk(ids.includes(secret.id), 'never a followers-only post')
  t.match(
    statuses.find((each) => each.id === popular.id),
    { favourites_count: 3 },
  )
  t.same(
    (await json<Status[]>('GET', '/api/v1/trends/statuses?limit=1&offset=1')).map((each) => each.id),
    ids.slice(1, 2),
    'offset',
  )
  const blocker = likers[1] ?? alice
  await json('POST', `/api/v1/accounts/${alice.user._id}/block`, blocker)
  t.notOk(
    (await json<Status[]>('GET', '/api/v1/trends/statuses', blocker)).some((each) => each.id === popular.id),
    'not the posts of someone blocked',
  )
})

await t.test('suggestions: who to follow, the most followed not followed yet', async (t) => {
  const newcomer = await person()
  const v2 = await json<{ source: string; account: { id: string } }[]>('GET', '/api/v2/suggestions?limit=80', newcomer)
  t.ok(
    v2.every((each) => each.source === 'global'),
    'Suggestion entities',
  )
  t.notOk(
    v2.some((each) => each.account.id === newcomer.user._id),
    'never oneself',
  )
  const v1 = await json<{ id: string }[]>('GET', '/api/v1/suggestions?limit=80', newcomer)
  t.same(
    v1.map((account) => account.id),
    v2.map((each) => each.account.id),
    'version 1: the same accounts',
  )
  const [top] = v1
  await json('POST', `/api/v1/accounts/${top?.id ?? ''}/follow`, newcomer)
  t.notOk(
    (await json<{ id: string }[]>('GET', '/api/v1/suggestions?limit=80', newcomer)).some((each) => each.id === top?.id),
    'followed: suggested no more',
  )
  t.equal((await call('GET', '/api/v2/suggestions')).statusCode, 401, 'a token is needed')
  const writer = await person('write')
  t.equal((await call('GET', '/api/v1/suggestions', writer)).statusCode, 403, 'read:accounts is needed')
})

await t.test('a dismissed suggestion is not suggested again; to that person alone', async (t) => {
  const [newcomer, other] = [await person(), await person()]
  const ids = async (who: typeof newcomer) =>
    (await json<{ id: string }[]>('GET', '/api/v1/suggestions?limit=80', who)).map((account) => account.id)
  const [first, second] = await ids(newcomer)
  t.ok(first !== undefined && second !== undefined, 'two people are suggested')
  t.same(await json('DELETE', `/api/v1/suggestions/${first ?? ''}`, newcomer), {}, 'an empty answer')
  await json('DELETE', `/api/v1/suggestions/${second ?? ''}`, newcomer)
  await json('DELETE', `/api/v1/suggestions/${first ?? ''}`, newcomer)
  const left = await ids(newcomer)
  t.notOk(left.includes(first ?? '') || left.includes(second ?? ''), 'both are left out, dismissed twice or once')
  t.same(
    (await json<{ account: { id: string } }[]>('GET', '/api/v2/suggestions?limit=80', newcomer)).map(
      (each) => each.account.id,
    ),
    left,
    'version 2 as well',
  )
  t.ok((await ids(other)).includes(first ?? ''), 'someone else is still offered them')

  t.equal(
    (await call('DELETE', '/api/v1/suggestions/nobody-by-this-id', newcomer)).statusCode,
    404,
    'an unknown account',
  )
  t.equal((await call('DELETE', `/api/v1/suggestions/${first ?? ''}`)).statusCode, 401, 'a token is needed')
  const reader = await person('read')
  t.equal(
    (await call('DELETE', `/api/v1/suggestions/${first ?? ''}`, reader)).statusCode,
    403,
    'write:accounts is needed',
  )
})
