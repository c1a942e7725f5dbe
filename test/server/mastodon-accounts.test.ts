import { Value } from '@sinclair/typebox/value'
import t from 'tap'
import * as MSG from '../../common/messages.js'
import { AccountSchema } from '../../server/mastodon/schemas.js'
import type { Status } from '../../server/mastodon/status-schemas.js'
import { mastodonClient, type MastodonPerson } from '../helpers/mastodon.js'

/**
 * People through the Mastodon client API (DECISIONS §13): accounts, their posts and follows, and
 * relationships with follow, block and mute and their undoing, every rule the services'. On whichever store runs.
 */
const { api, person, call, json } = await mastodonClient(t)
type Person = MastodonPerson
const relationship = async (who: Person, other: Person) =>
  (await json<Record<string, unknown>[]>('GET', `/api/v1/accounts/relationships?id[]=${other.user._id}`, who))[0]

const alice = await person()
const bob = await person()

await t.test('an account by id and by lookup, with or without the domain', async (t) => {
  const byId = await json<Record<string, unknown>>('GET', `/api/v1/accounts/${alice.user._id}`)
  t.ok(Value.Check(AccountSchema, byId), 'an Account')
  t.match(byId, { id: alice.user._id, username: alice.username, acct: alice.username })
  for (const acct of [alice.username, `@${alice.username}`, `${alice.username}@chirp.example`]) {
    t.match(await json('GET', `/api/v1/accounts/lookup?acct=${encodeURIComponent(acct)}`), { id: alice.user._id }, acct)
  }
  t.equal((await call('GET', `/api/v1/accounts/lookup?acct=${alice.username}@elsewhere.example`)).statusCode, 404)
  t.equal((await call('GET', '/api/v1/accounts/00000000-0000-4000-8000-000000000000')).statusCode, 404)
})

await t.test('follow and unfollow: the relationship, the counts, the lists; again is no error', async (t) => {
  t.match(await relationship(bob, alice), { id: alice.user._id, following: false, followed_by: false })
  t.match(await json('POST', `/api/v1/accounts/${alice.user._id}/follow`, bob), { following: true })
  t.match(await json('POST', `/api/v1/accounts/${alice.user._id}/follow`, bob), { following: true }, 'again')
  t.match(await relationship(alice, bob), { followed_by: true, following: false }, 'seen from the other side')
  t.match(await json('GET', `/api/v1/accounts/${alice.user._id}`), { followers_count: 1 })
  const followers = await json<{ id: string }[]>('GET', `/api/v1/accounts/${alice.user._id}/followers`)
  t.same(
    followers.map((each) => each.id),
    [bob.user._id],
  )
  const following = await json<{ id: string }[]>('GET', `/api/v1/accounts/${bob.user._id}/following`)
  t.same(
    following.map((each) => each.id),
    [alice.user._id],
  )
  t.match(await json('POST', `/api/v1/accounts/${alice.user._id}/unfollow`, bob), { following: false })
  t.match(await json('POST', `/api/v1/accounts/${alice.user._id}/unfollow`, bob), { following: false }, 'again')
  const self = await call('POST', `/api/v1/accounts/${bob.user._id}/follow`, bob)
  t.equal(self.statusCode, 404, 'not oneself, refused as Chirp refuses it')
  t.same(self.json(), { error: MSG.selfFollow })
})

await t.test('a locked account: a follow is a request', async (t) => {
  const shy = await person()
  await api.as(shy.token, { method: 'POST', url: '/api/users/edit', payload: { locked: true } })
  t.match(await json('POST', `/api/v1/accounts/${shy.user._id}/follow`, bob), { following: false, requested: true })
  t.match(await json('POST', `/api/v1/accounts/${shy.user._id}/unfollow`, bob), { requested: false }, 'withdrawn')
})

await t.test(
  'block and mute, each undone; a block ends the follow, and the blocker is gone to the blocked',
  async (t) => {
    const carol = await person()
    await json('POST', `/api/v1/accounts/${alice.user._id}/follow`, carol)
    t.match(await json('POST', `/api/v1/accounts/${carol.user._id}/block`, alice), {
      blocking: true,
      followed_by: false,
    })
    t.match(await relationship(alice, carol), { blocking: true })
    t.equal((await call('GET', `/api/v1/accounts/${alice.user._id}`, carol)).statusCode, 404, 'blocked: not there')
    t.match(await json('POST', `/api/v1/accounts/${carol.user._id}/unblock`, alice), { blocking: false })
    t.match(await json('POST', `/api/v1/accounts/${carol.user._id}/mute`, alice), { muting: true })
    t.match(await json('POST', `/api/v1/accounts/${carol.user._id}/mute`, alice), { muting: true }, 'again')
    t.match(await json('POST', `/api/v1/accounts/${carol.user._id}/unmute`, alice), { muting: false })
    t.equal((await call('POST', `/api/v1/accounts/${carol.user._id}/block`)).statusCode, 401, 'a token is needed')
  },
)

await t.test("an account's statuses: paged by id, pinned ones on their own, audiences kept", async (t) => {
  const writer = await person()
  const ids: string[] = []
  for (const text of ['one', 'two', 'three']) {
    ids.push((await json<Status>('POST', '/api/v1/statuses', writer, { status: text })).id)
  }
  const secret = await json<Status>('POST', '/api/v1/statuses', writer, { status: 'followers', visibility: 'private' })
  await json('POST', `/api/v1/statuses/${ids[0] ?? ''}/pin`, writer)
  const url = `/api/v1/accounts/${writer.user._id}/statuses`
  const all = await json<Status[]>('GET', url)
  t.same(
    all.map((each) => each.id),
    [ids[2], ids[1], ids[0]],
    'newest first, the pinned one in its place; the followers post hidden from strangers',
  )
  const own = await json<Status[]>('GET', url, writer)
  t.equal(own[0]?.id, secret.id, 'the author reads their own followers post')
  const older = await json<Status[]>('GET', `${url}?limit=1&max_id=${ids[1] ?? ''}`)
  t.same(
    older.map((each) => each.id),
    [ids[0]],
  )
  const newer = await json<Status[]>('GET', `${url}?limit=1&min_id=${ids[0] ?? ''}`)
  t.same(
    newer.map((each) => each.id),
    [ids[1]],
  )
  const pinned = await json<Status[]>('GET', `${url}?pinned=true`, writer)
  t.same(
    pinned.map((each) => each.id),
    [ids[0]],
  )
  t.match(pinned[0], { pinned: true })
})

await t.test('search v2: people by username and name, public posts by their words, first page alone', async (t) => {
  const found = await json<{ accounts: { id: string }[]; statuses: Status[]; hashtags: unknown[] }>(
    'GET',
    `/api/v2/search?q=${encodeURIComponent(`@${alice.username}`)}&type=accounts&resolve=true`,
    bob,
  )
  t.same(
    found.accounts.map((each) => each.id),
    [alice.user._id],
  )
  t.same(found.statuses, [], 'accounts alone were asked for')
  const withDomain = await json<{ accounts: { id: string }[] }>(
    'GET',
    `/api/v2/search?q=${encodeURIComponent(`${alice.username}@chirp.example`)}&type=accounts`,
  )
  t.same(
    withDomain.accounts.map((each) => each.id),
    [alice.user._id],
  )
  const word = `word${Date.now().toString(36)}`
  const shown = await json<Status>('POST', '/api/v1/statuses', alice, { status: `a ${word} here` })
  await json('POST', '/api/v1/statuses', alice, { status: `a ${word} unlisted`, visibility: 'unlisted' })
  const posts = await json<{ statuses: Status[] }>('GET', `/api/v2/search?q=${word}`)
  t.same(
    posts.statuses.map((each) => each.id),
    [shown.id],
    'public posts alone',
  )
  const past = await json<{ statuses: Status[] }>('GET', `/api/v2/search?q=${word}&offset=20`)
  t.same(past.statuses, [], 'nothing past the first page')
})
