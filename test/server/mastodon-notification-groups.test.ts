import t from 'tap'
import type { Status } from '../../server/mastodon/status-schemas.js'
import { mastodonClient } from '../helpers/mastodon.js'

/**
 * Grouped notifications (Mastodon 4.3's version 2), their unread count, and clearing them all, through
 * the Mastodon client API (DECISIONS §13). On whichever store runs.
 */
const { person, call, json } = await mastodonClient(t)
interface Group {
  group_key: string
  notifications_count: number
  type: string
  most_recent_notification_id: string
  page_min_id: string
  page_max_id: string
  sample_account_ids: string[]
  status_id?: string | null
}
interface Grouped {
  accounts: { id: string }[]
  statuses: Status[]
  notification_groups: Group[]
}

const alice = await person()
const fans = [await person(), await person(), await person()]
const status = await json<Status>('POST', '/api/v1/statuses', alice, { status: 'group me' })
for (const fan of fans) {
  await json('POST', `/api/v1/accounts/${alice.user._id}/follow`, fan)
  await json('POST', `/api/v1/statuses/${status.id}/favourite`, fan)
}
const [first] = fans
await json('POST', `/api/v1/statuses/${status.id}/reblog`, first ?? alice)
await json('POST', '/api/v1/statuses', first ?? alice, { status: `hey @${alice.username}` })

await t.test('favourites of a status, reblogs and follows grouped; the rest alone', async (t) => {
  const v1 = await json<{ id: string; type: string; group_key: string }[]>('GET', '/api/v1/notifications', alice)
  const grouped = await json<Grouped>('GET', '/api/v2/notifications', alice)
  const groups = grouped.notification_groups
  t.same(
    groups.map((group) => [group.type, group.notifications_count]),
    [
      ['mention', 1],
      ['reblog', 1],
      ['favourite', 3],
      ['follow', 3],
    ],
    'newest first, by their newest',
  )
  const favourites = groups.find((group) => group.type === 'favourite')
  t.same(
    [...(favourites?.sample_account_ids ?? [])].sort(),
    fans.map((fan) => fan.user._id).sort(),
    'the people who favourited',
  )
  t.equal(favourites?.status_id, status.id, 'the status favourited')
  const newestFavourite = v1.find((note) => note.type === 'favourite')
  t.equal(favourites?.most_recent_notification_id, newestFavourite?.id, 'its newest, by its version 1 id')
  t.equal(favourites?.group_key, newestFavourite?.group_key, 'the same key as version 1 gives')
  t.notOk('status_id' in (groups.find((group) => group.type === 'follow') ?? {}), 'a follow has no status')
  t.match(groups[0]?.group_key, /^ungrouped-/, 'a mention stands alone')
  t.same(
    grouped.accounts.map((account) => account.id).sort(),
    fans.map((fan) => fan.user._id).sort(),
    'each account once',
  )
  t.equal(grouped.statuses.filter((each) => each.id === status.id).length, 1, 'the favourited status once')
})

await t.test('grouped_types, types, exclude_types and paging as version 1', async (t) => {
  const none = await json<Grouped>('GET', '/api/v2/notifications?grouped_types[]=reblog', alice)
  t.equal(none.notification_groups.length, 8, 'only reblogs grouped: every other one alone')
  const favourites = await json<Grouped>('GET', '/api/v2/notifications?types[]=favourite', alice)
  t.same(
    favourites.notification_groups.map((group) => group.type),
    ['favourite'],
  )
  const without = await json<Grouped>('GET', '/api/v2/notifications?exclude_types[]=follow', alice)
  t.notOk(without.notification_groups.some((group) => group.type === 'follow'))
  const page = await call('GET', '/api/v2/notifications?limit=2', alice)
  t.same(
    page.json<Grouped>().notification_groups.map((group) => group.type),
    ['mention', 'reblog'],
    'a page of two notifications',
  )
  t.match(page.headers.link, /rel="next"/)
})

await t.test('the unread count, and clearing: every notification gone, to its recipient alone', async (t) => {
  t.same(await json('GET', '/api/v2/notifications/unread_count', alice), { count: 8 })
  t.same(await json('GET', '/api/v2/notifications/unread_count?limit=3', alice), { count: 3 }, 'up to limit')
  const before = await json<unknown[]>('GET', '/api/v1/notifications', first ?? alice)
  const reader = await person('read')
  const readOnly = { ...alice, bearer: reader.bearer }
  t.equal((await call('POST', '/api/v1/notifications/clear', readOnly)).statusCode, 403, 'a read token may not')
  t.equal((await call('POST', '/api/v1/notifications/clear')).statusCode, 401, 'a token is needed')
  t.equal((await json<unknown[]>('GET', '/api/v1/notifications', alice)).length, 8, 'nothing changed')
  t.same(await json('POST', '/api/v1/notifications/clear', alice), {})
  t.same(await json('GET', '/api/v1/notifications', alice), [], 'none left')
  t.same(await json('GET', '/api/v2/notifications', alice), { accounts: [], statuses: [], notification_groups: [] })
  t.same(await json('GET', '/api/v1/notifications/unread_count', alice), { count: 0 })
  t.same(await json('POST', '/api/v1/notifications/clear', alice), {}, 'again: no error')
  t.same(await json('GET', '/api/v1/notifications', first ?? alice), before, "another's are kept")
  await json('POST', `/api/v1/statuses/${status.id}/unfavourite`, first ?? alice)
  await json('POST', `/api/v1/statuses/${status.id}/favourite`, first ?? alice)
  t.equal((await json<unknown[]>('GET', '/api/v1/notifications', alice)).length, 1, 'new ones arrive as before')
})
