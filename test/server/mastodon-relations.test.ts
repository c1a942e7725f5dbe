import { Value } from '@sinclair/typebox/value'
import t from 'tap'
import * as MSG from '../../common/messages.js'
import { AccountSchema } from '../../server/mastodon/schemas.js'
import type { Status } from '../../server/mastodon/status-schemas.js'
import { bearer, mastodonClient, passwordToken, type MastodonPerson } from '../helpers/mastodon.js'
import { seedWithStaff } from '../helpers/moderation.js'

/**
 * Blocks, mutes, follow requests and reports through the Mastodon client API (DECISIONS §13): lists paged
 * by Link headers, answers as Relationship and Report entities, every rule the services'. On whichever
 * store runs.
 */
const { api, client, person, call, json } = await mastodonClient(t, { options: { seed: seedWithStaff } })
type Person = MastodonPerson
const UNKNOWN = '00000000-0000-4000-8000-000000000000'
const ids = (accounts: { id: string }[]) => accounts.map((account) => account.id)
const nextOf = (link: string | string[] | number | undefined) =>
  /<([^>]+)>; rel="next"/.exec(typeof link === 'string' ? link : '')?.[1]
const pathOf = (url: string) => {
  const parsed = new URL(url)
  return `${parsed.pathname}${parsed.search}`
}
const reportsOf = async () => {
  const admin = await api.login('maya.lin')
  const res = await api.as(admin, { method: 'GET', url: '/api/admin/reports' })
  return res.json<{ reports: { targetType: string; targetId: string; category: string; comment: string }[] }>().reports
}

const alice = await person()

await t.test('blocks and mutes: listed newest first, paged by Link, an ended one gone', async (t) => {
  const others: Person[] = []
  for (let i = 0; i < 3; i++) others.push(await person())
  for (const other of others) {
    await json('POST', `/api/v1/accounts/${other.user._id}/block`, alice)
    await json('POST', `/api/v1/accounts/${other.user._id}/mute`, alice)
  }
  for (const path of ['/api/v1/blocks', '/api/v1/mutes']) {
    const all = await json<{ id: string }[]>('GET', path, alice)
    t.ok(
      all.every((account) => Value.Check(AccountSchema, account)),
      `${path}: Accounts`,
    )
    const newestFirst = [...others].reverse().map((other) => other.user._id)
    t.same(ids(all), newestFirst, `${path}: newest first`)
    const first = await call('GET', `${path}?limit=2`, alice)
    t.same(ids(first.json()), newestFirst.slice(0, 2), `${path}: a page`)
    const next = nextOf(first.headers.link)
    t.ok(next, `${path}: a next page`)
    const second = await call('GET', pathOf(next ?? ''), alice)
    t.same(ids(second.json()), newestFirst.slice(2), `${path}: the rest`)
    t.notOk(nextOf(second.headers.link), `${path}: no page after the last`)
  }
  const [first] = others
  await json('POST', `/api/v1/accounts/${first?.user._id ?? ''}/unblock`, alice)
  await json('POST', `/api/v1/accounts/${first?.user._id ?? ''}/unmute`, alice)
  t.notOk(ids(await json('GET', '/api/v1/blocks', alice)).includes(first?.user._id ?? ''), 'unblocked: gone')
  t.notOk(ids(await json('GET', '/api/v1/mutes', alice)).includes(first?.user._id ?? ''), 'unmuted: gone')
  const stranger = await person()
  t.same(await json('GET', '/api/v1/blocks', stranger), [], 'one blocks nobody at first')
})

await t.test('a mute for a while: its end listed and set anew, a form body taken, a bad one refused', async (t) => {
  const muter = await person()
  const [bob, carol] = [await person(), await person()]
  const before = Date.now()
  const muted = await call('POST', `/api/v1/accounts/${bob.user._id}/mute`, muter, { duration: 3600 })
  t.equal(muted.statusCode, 200)
  t.match(muted.json(), { id: bob.user._id, muting: true, muting_notifications: true })
  const form = await api.app.inject({
    method: 'POST',
    url: `/api/v1/accounts/${carol.user._id}/mute`,
    headers: { ...bearer(muter.bearer), 'content-type': 'application/x-www-form-urlencoded' },
    payload: 'duration=86400&notifications=true',
  })
  t.equal(form.statusCode, 200, `a form body, as the apps send it: ${form.body}`)
  const endOf = async (id: string) => {
    const list = await json<{ id: string; mute_expires_at: string | null }[]>('GET', '/api/v1/mutes', muter)
    return list.find((account) => account.id === id)?.mute_expires_at
  }
  const hour = Date.parse((await endOf(bob.user._id)) ?? '') - before
  t.ok(hour >= 3_600_000 && hour < 3_660_000, 'an hour from the mute')
  const day = Date.parse((await endOf(carol.user._id)) ?? '') - before
  t.ok(day >= 86_400_000 && day < 86_460_000, 'a day from the mute')

  await json('POST', `/api/v1/accounts/${bob.user._id}/mute`, muter)
  t.equal(await endOf(bob.user._id), null, 'muted again without a duration: for ever')
  await json('POST', `/api/v1/accounts/${bob.user._id}/mute`, muter, { duration: 60 })
  t.type(await endOf(bob.user._id), 'string', 'and again with one: it ends')

  for (const duration of [-1, 315_360_001, '315360001']) {
    const refused = await call('POST', `/api/v1/accounts/${carol.user._id}/mute`, muter, { duration })
    t.equal(refused.statusCode, 400, `duration ${String(duration)} refused`)
    t.same(refused.json(), { error: MSG.muteDuration })
  }
  const word = await call('POST', `/api/v1/accounts/${carol.user._id}/mute`, muter, { duration: 'soon' })
  t.equal(word.statusCode, 422, 'a word is no duration')
  const still = Date.parse((await endOf(carol.user._id)) ?? '') - before
  t.ok(still >= 86_400_000 && still < 86_460_000, 'a refused mute changes nothing')
})

await t.test('block, mute and their undoing: unknown ids, oneself, scopes', async (t) => {
  for (const path of ['block', 'unblock', 'mute', 'unmute']) {
    const res = await call('POST', `/api/v1/accounts/${UNKNOWN}/${path}`, alice)
    t.equal(res.statusCode, 404, `${path} of nobody`)
  }
  const self = await call('POST', `/api/v1/accounts/${alice.user._id}/block`, alice)
  t.equal(self.statusCode, 400)
  t.same(self.json(), { error: MSG.selfBlock }, 'not oneself')
  const reader = await person('read')
  const other = await person()
  const refused = await call('POST', `/api/v1/accounts/${other.user._id}/block`, reader)
  t.equal(refused.statusCode, 403, 'a read token may not block')
  t.same(refused.json(), { error: 'This action is outside the authorized scopes' })
  t.same(await json('GET', '/api/v1/blocks', reader), [], 'nothing changed')
  const writer = await person('write:blocks')
  t.equal((await call('GET', '/api/v1/blocks', writer)).statusCode, 403, 'write:blocks does not read them')
  t.equal((await call('GET', '/api/v1/mutes')).statusCode, 401, 'a token is needed')
  const follower = await person('follow')
  t.equal((await call('GET', '/api/v1/mutes', follower)).statusCode, 200, 'follow covers mutes')
})

await t.test('follow requests: listed, authorized, rejected; each a Relationship', async (t) => {
  const owner = await person()
  await api.as(owner.token, { method: 'POST', url: '/api/users/edit', payload: { locked: true } })
  const [bob, carol, dave] = [await person(), await person(), await person()]
  for (const asker of [bob, carol, dave]) {
    t.match(await json('POST', `/api/v1/accounts/${owner.user._id}/follow`, asker), { requested: true })
  }
  const waiting = await call('GET', '/api/v1/follow_requests?limit=2', owner)
  t.same(ids(waiting.json()), [bob.user._id, carol.user._id], 'the oldest first')
  const rest = await json<{ id: string }[]>('GET', pathOf(nextOf(waiting.headers.link) ?? ''), owner)
  t.same(ids(rest), [dave.user._id], 'the next page')
  t.match(await json('GET', '/api/v1/accounts/verify_credentials', owner), { source: { follow_requests_count: 3 } })

  const authorized = await json('POST', `/api/v1/follow_requests/${bob.user._id}/authorize`, owner)
  t.match(authorized, { id: bob.user._id, followed_by: true, following: false }, 'bob follows now')
  t.match(await json('GET', `/api/v1/accounts/relationships?id=${owner.user._id}`, bob), [
    { following: true, requested: false },
  ])
  const rejected = await json('POST', `/api/v1/follow_requests/${carol.user._id}/reject`, owner)
  t.match(rejected, { id: carol.user._id, followed_by: false })
  t.match(await json('GET', `/api/v1/accounts/relationships?id=${owner.user._id}`, carol), [
    { following: false, requested: false },
  ])
  t.same(ids(await json('GET', '/api/v1/follow_requests', owner)), [dave.user._id], 'dave still waits')

  for (const [id, what] of [
    [bob.user._id, 'answered already'],
    [UNKNOWN, 'nobody'],
    ['not-an-id', 'not an id'],
  ] as const) {
    const res = await call('POST', `/api/v1/follow_requests/${id}/authorize`, owner)
    t.equal(res.statusCode, 404, what)
    t.same(res.json(), { error: 'Record not found' }, what)
  }
  const reader = await person('read')
  const asReader = { ...owner, bearer: await passwordToken(api, client, owner.username, owner.password, 'read') }
  t.equal((await call('POST', `/api/v1/follow_requests/${dave.user._id}/authorize`, asReader)).statusCode, 403)
  t.same(ids(await json('GET', '/api/v1/follow_requests', owner)), [dave.user._id], 'a refused scope changes nothing')
  t.equal((await call('GET', '/api/v1/follow_requests', reader)).statusCode, 200, 'read covers the list')
})

await t.test('reports: an account, or statuses of it, to the moderators', async (t) => {
  const reporter = await person()
  const troll = await person()
  const first = await json<Status>('POST', '/api/v1/statuses', troll, { status: 'buy now' })
  const second = await json<Status>('POST', '/api/v1/statuses', troll, { status: 'buy again' })
  const report = await json<Record<string, unknown>>('POST', '/api/v1/reports', reporter, {
    account_id: troll.user._id,
    status_ids: [first.id, second.id],
    comment: 'spam twice',
    category: 'spam',
  })
  t.match(report, {
    action_taken: false,
    category: 'spam',
    comment: 'spam twice',
    status_ids: [first.id, second.id],
    target_account: { id: troll.user._id },
  })
  let filed = (await reportsOf()).filter((each) => each.comment === 'spam twice')
  t.same(
    filed.map((each) => [each.targetType, each.category]),
    [
      ['post', 'spam'],
      ['post', 'spam'],
    ],
    'one report a status, in the queue',
  )
  const ofPerson = await json<Record<string, unknown>>('POST', '/api/v1/reports', reporter, {
    account_id: troll.user._id,
    comment: 'the person',
    category: 'violation',
  })
  t.match(ofPerson, { category: 'violation', status_ids: [] })
  filed = (await reportsOf()).filter((each) => each.comment === 'the person')
  t.same(
    filed.map((each) => [each.targetType, each.targetId, each.category]),
    [['user', troll.user._id, 'abuse']],
    'a report of the person',
  )

  const before = (await reportsOf()).length
  const refusals: [Record<string, unknown>, number, string | undefined, string][] = [
    [{ account_id: UNKNOWN }, 404, 'Record not found', 'nobody'],
    [{ account_id: troll.user._id, status_ids: ['nonsense'] }, 404, 'Record not found', 'no such status'],
    [{ account_id: reporter.user._id }, 400, MSG.reportOwn, 'oneself'],
    [{ account_id: troll.user._id, category: 'rude' }, 422, undefined, 'an unknown category'],
    [{ account_id: troll.user._id, comment: 'x'.repeat(1001) }, 422, undefined, 'too long a comment'],
    [{ category: 'spam' }, 422, undefined, 'no account'],
  ]
  const other = await json<Status>('POST', '/api/v1/statuses', reporter, { status: 'mine' })
  refusals.push([
    { account_id: troll.user._id, status_ids: [first.id, other.id] },
    422,
    'Validation failed: Statuses must be by the reported account',
    "a status of someone else's",
  ])
  const secret = await json<Status>('POST', '/api/v1/statuses', troll, { status: 'close', visibility: 'private' })
  refusals.push([{ account_id: troll.user._id, status_ids: [secret.id] }, 404, 'Record not found', 'one unseen'])
  for (const [payload, status, error, what] of refusals) {
    const res = await call('POST', '/api/v1/reports', reporter, payload)
    t.equal(res.statusCode, status, what)
    if (error !== undefined) t.same(res.json(), { error }, what)
    else t.match(res.json(), { error: /^Validation failed/ }, what)
  }
  t.equal((await reportsOf()).length, before, 'nothing filed')
  const reader = await person('read')
  t.equal((await call('POST', '/api/v1/reports', reader, { account_id: troll.user._id })).statusCode, 403)
  t.equal((await reportsOf()).length, before, 'a refused scope files nothing')
})
