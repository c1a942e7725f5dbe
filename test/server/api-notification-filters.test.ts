import { type Static } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import t, { type Test } from 'tap'
import { NotificationCreatedEventSchema } from '../../server/schemas/events.js'
import { signup, type SignedUp } from '../helpers/api.js'
import { buildLiveApi } from '../helpers/live-api.js'
import type { SseClient } from '../helpers/sse.js'

/**
 * Keyword filters of the `notifications` context (DECISIONS §15, §17): a notification whose words by
 * someone else match a `hide` filter is left out of /api/notifications, the Mastodon notifications and
 * the live stream; a `warn` match carries `filtered` there (on the status, in Mastodon's entity). The
 * recipient's own post (a like of it) is never filtered, and a filter of other contexts does nothing
 * here. On whichever store runs.
 */
const { api, write, newPost, stream } = await buildLiveApi(t)

/** The stream's next notification.created, past the other events of the same writes. */
async function nextNotification(t: Test, client: SseClient) {
  const message = await client.until((each) => each.event === 'notification.created', 3000)
  const data = JSON.parse(message.data ?? 'null') as unknown
  t.ok(Value.Check(NotificationCreatedEventSchema, data), 'notification.created data matches its schema')
  return data as Static<typeof NotificationCreatedEventSchema>
}

interface Listed {
  notifications: { _id: string; type: string; comment?: { text: string }; filtered?: { filter: { title: string } }[] }[]
}
interface MastodonNotification {
  type: string
  status?: { filtered?: { filter: { title: string; filter_action: string }; keyword_matches: string[] }[] }
}

const addFilter = async (who: SignedUp, title: string, context: string[], action: 'warn' | 'hide', keyword: string) => {
  const res = await api.as(who.token, {
    method: 'POST',
    url: '/api/v2/filters',
    payload: { title, context, filter_action: action, keywords_attributes: [{ keyword, whole_word: true }] },
  })
  t.equal(res.statusCode, 200, `the filter ${title} is made`)
}
const listed = async (who: SignedUp) =>
  ((await api.as(who.token, { method: 'GET', url: '/api/notifications' })).json() as Listed).notifications
const mastodonListed = async (who: SignedUp) =>
  (await api.as(who.token, { method: 'GET', url: '/api/v1/notifications' })).json() as MastodonNotification[]
const comment = (who: SignedUp, postId: string, text: string) =>
  write(who, 'POST', `/api/comments/add/${postId}`, { text })

await t.test('a warn filter of notifications marks them, in /api, the Mastodon API and live', async (t) => {
  const [alice, bob] = [await signup(api), await signup(api)]
  await addFilter(alice, 'Spoilers', ['notifications'], 'warn', 'finale')
  const post = await newPost(alice, 'What did you think?')
  const hers = await stream(t, alice)
  t.equal((await comment(bob, post._id, 'The finale, wow')).statusCode, 201)
  const created = await nextNotification(t, hers)
  t.match(created, { type: 'comment', filtered: [{ filter: { title: 'Spoilers' }, keyword_matches: ['finale'] }] })
  const [first] = await listed(alice)
  t.match(first, { type: 'comment', filtered: [{ filter: { title: 'Spoilers', filter_action: 'warn' } }] })
  const [entity] = await mastodonListed(alice)
  t.match(entity?.status?.filtered, [
    { filter: { title: 'Spoilers', filter_action: 'warn' }, keyword_matches: ['finale'] },
  ])
  // Her own post's words are never filtered: a like of it comes as it is.
  const own = await newPost(alice, 'My finale thoughts')
  t.equal((await write(bob, 'POST', `/api/posts/like/${own._id}`)).statusCode, 201)
  const liked = (await listed(alice)).find((each) => each.type === 'like')
  t.ok(liked, 'the like is listed')
  t.equal(liked?.filtered, undefined, 'her own post is not filtered')
})

await t.test('a hide filter of notifications leaves them out everywhere; a filter of home does not', async (t) => {
  const [alice, bob] = [await signup(api), await signup(api)]
  await addFilter(alice, 'Coins', ['notifications'], 'hide', 'crypto')
  await addFilter(alice, 'Weather', ['home'], 'hide', 'rain')
  const post = await newPost(alice, 'Ask me anything')
  const hers = await stream(t, alice)
  t.equal((await comment(bob, post._id, 'Buy crypto now')).statusCode, 201)
  t.equal((await comment(bob, post._id, 'Will it rain?')).statusCode, 201)
  const created = await nextNotification(t, hers)
  t.equal(created.comment?.text, 'Will it rain?', 'the hidden one was not streamed; the next one was')
  t.notMatch(
    hers.text.split('\n').filter((line) => line.includes('"type":"comment"')),
    /crypto/,
    'no notification of the hidden one on her stream',
  )
  const texts = (await listed(alice)).map((each) => each.comment?.text)
  t.same(texts, ['Will it rain?'], 'the hidden one is not listed')
  const entities = await mastodonListed(alice)
  t.equal(entities.length, 1, 'nor in the Mastodon API')
  // Bob, who has no filter, is told of Alice's words as they are.
  const his = await newPost(bob, 'Mine')
  const bobs = await stream(t, bob)
  t.equal((await comment(alice, his._id, 'crypto is fine')).statusCode, 201)
  const told = await nextNotification(t, bobs)
  t.equal(told.comment?.text, 'crypto is fine')
  // Taken out, the filter no longer hides it.
  const filters = (await api.as(alice.token, { method: 'GET', url: '/api/v2/filters' })).json() as {
    id: string
    title: string
  }[]
  const coins = filters.find((each) => each.title === 'Coins')
  t.equal((await api.as(alice.token, { method: 'DELETE', url: `/api/v2/filters/${coins?.id}` })).statusCode, 200)
  t.equal((await listed(alice)).length, 2, 'listed again once its filter is gone')
})

await t.test('a notification a filter hides does not count as unread', async (t) => {
  const [alice, bob] = [await signup(api), await signup(api)]
  await addFilter(alice, 'Coins', ['notifications'], 'hide', 'crypto')
  await addFilter(alice, 'Spoilers', ['notifications'], 'warn', 'finale')
  const post = await newPost(alice, 'Ask me anything')
  const hers = await stream(t, alice)
  t.equal((await comment(bob, post._id, 'Buy crypto now')).statusCode, 201)
  t.equal((await comment(bob, post._id, 'The finale!')).statusCode, 201)
  const created = await nextNotification(t, hers)
  t.equal(created.unread, 1, 'the stream counts the shown one only')
  const page = (await api.as(alice.token, { method: 'GET', url: '/api/notifications' })).json() as { unread: number }
  t.equal(page.unread, 1, '/api/notifications counts it alone, a warned one included')
  const count = async (url: string) =>
    ((await api.as(alice.token, { method: 'GET', url })).json() as { count: number }).count
  t.equal(await count('/api/v1/notifications/unread_count'), 1, 'as the Mastodon unread count does')
  t.equal(await count('/api/v2/notifications/unread_count'), 1, 'and the grouped one')
  // Another comment the filter hides, with a like to tell: the count the like brings leaves it out too.
  t.equal((await comment(bob, post._id, 'crypto again')).statusCode, 201)
  t.equal((await write(bob, 'POST', `/api/posts/like/${post._id}`)).statusCode, 201)
  const liked = await nextNotification(t, hers)
  t.match(liked, { type: 'like', unread: 2 }, 'the like counts with the warned comment, not the hidden ones')
  const marked = await api.as(alice.token, { method: 'POST', url: '/api/notifications/read', payload: {} })
  t.equal((marked.json() as { unread: number }).unread, 0, 'none once read')
})
