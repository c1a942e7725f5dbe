import { createOAuthAPIClient, createRestAPIClient, createStreamingAPIClient, type mastodon } from 'masto'
import t from 'tap'
import { IMAGE_BYTES, signup } from '../helpers/api.js'
import { listeningChirp } from './harness.js'

/**
 * masto.js, the library behind Elk and Phanpy, against Chirp (DECISIONS §13): it registers an app, logs in
 * by the password grant, reads the account and the instance, uploads and describes an image (v2, waiting
 * for it as it does), posts with it and with a poll, follows, favourites, reblogs, pages its home timeline
 * by the Link header, reads its notifications, streams its home over the WebSocket (a post, then its
 * deletion), and revokes its token. On whichever store runs (test/clients/masto-postgres.test.ts runs it
 * on PostgreSQL).
 */
const { api, base } = await listeningChirp(t)
const me = await signup(api, { password: 'a password masto types' })
const friend = await signup(api)
await api.as(friend.token, { method: 'POST', url: `/api/users/follow/${me.user._id}` })

const SCOPES = 'read write follow'
const oauth = createOAuthAPIClient({ url: base })
const registered = await createRestAPIClient({ url: base }).v1.apps.create({
  clientName: 'masto journey',
  redirectUris: 'urn:ietf:wg:oauth:2.0:oob',
  scopes: SCOPES,
})
const clientId = registered.clientId ?? ''
const clientSecret = registered.clientSecret ?? ''
const token = await oauth.token.create({
  grantType: 'password',
  clientId,
  clientSecret,
  username: me.username,
  password: 'a password masto types',
  scope: SCOPES,
  redirectUri: 'urn:ietf:wg:oauth:2.0:oob',
})
const masto = createRestAPIClient({ url: base, accessToken: token.accessToken })

/** The first event of `subscription` that `wanted` accepts, within a few seconds (undefined past them). */
async function first<T extends mastodon.streaming.Event>(
  subscription: mastodon.streaming.Subscription,
  wanted: (event: mastodon.streaming.Event) => event is T,
): Promise<T | undefined> {
  const timeout = new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 10_000).unref())
  const heard = (async () => {
    for await (const event of subscription) if (wanted(event)) return event
    return undefined
  })()
  return Promise.race([heard, timeout])
}

await t.test('masto.js logs in and reads the account and the instance', async (t) => {
  t.equal(token.scope, SCOPES)
  const account = await masto.v1.accounts.verifyCredentials()
  t.match(account, { id: me.user._id, username: me.username, acct: me.username })
  const instance = await masto.v2.instance.fetch()
  t.match(instance.configuration.urls, { streaming: /^ws:\/\// })
})

await t.test('masto.js uploads an image, describes it, and posts it; then a poll', async (t) => {
  const media = await masto.v2.media.create({
    file: new Blob([new Uint8Array(IMAGE_BYTES.png)], { type: 'image/png' }),
    description: 'a small gradient',
  })
  t.match(media, { type: 'image', description: 'a small gradient', url: /^http/ })
  const pictured = await masto.v1.statuses.create({ status: 'with a picture #mastojs', mediaIds: [media.id] })
  t.same(
    pictured.mediaAttachments.map((attachment) => [attachment.id, attachment.description]),
    [[media.id, 'a small gradient']],
  )
  t.same(
    pictured.tags.map((tag) => tag.name),
    ['mastojs'],
  )
  const polled = await masto.v1.statuses.create({
    status: 'which one?',
    poll: { options: ['this', 'that'], expiresIn: 3600 },
    visibility: 'unlisted',
  })
  t.same(
    polled.poll?.options.map((option) => option.title),
    ['this', 'that'],
  )
  t.equal(polled.visibility, 'unlisted')
})

await t.test('masto.js follows, favourites, reblogs, and pages its home by the Link header', async (t) => {
  const followed = await masto.v1.accounts.$select(friend.user._id).follow()
  t.equal(followed.following, true)
  await api.as(friend.token, { method: 'POST', url: '/api/posts', payload: { content: 'from a friend' } })
  const [newest] = await masto.v1.timelines.home.list({ limit: 1 })
  t.match(newest, { content: /from a friend/, account: { id: friend.user._id } }, "the friend's post, at the top")
  const postId = newest?.id ?? ''
  t.equal((await masto.v1.statuses.$select(postId).favourite()).favourited, true)
  t.equal((await masto.v1.statuses.$select(postId).reblog()).reblogged, true)

  const pages = masto.v1.timelines.home.list({ limit: 2 })
  const seen: string[][] = []
  for await (const page of pages) {
    seen.push(page.map((status) => status.reblog?.id ?? status.id))
    if (seen.length === 3) break
  }
  t.equal(seen[0]?.length, 2, 'a page of two')
  const all = seen.flat()
  t.equal(new Set(all).size, all.length, 'no status twice across pages')
  t.ok(all.includes(postId), "the friend's post, reblogged, is in the home timeline")
  t.ok(seen.length >= 2, 'a next page followed')
  const favourites = await masto.v1.favourites.list()
  t.same(
    favourites.map((status) => status.id),
    [postId],
  )
})

await t.test('masto.js reads its notifications', async (t) => {
  const notifications = await masto.v1.notifications.list()
  t.same(
    notifications.map((notification) => [notification.type, notification.account?.acct]),
    [['follow', friend.username]],
  )
})

await t.test('masto.js streams its home over the WebSocket: a post, then its deletion', async (t) => {
  const instance = await masto.v2.instance.fetch()
  const streaming = createStreamingAPIClient({
    streamingApiUrl: instance.configuration.urls.streaming,
    accessToken: token.accessToken,
  })
  t.teardown(() => streaming.close())
  const home = streaming.user.subscribe()
  await streaming.prepare()
  // The subscription is sent once the socket opens; a round trip through the API lets it land first.
  await masto.v1.accounts.verifyCredentials()
  const updated = first(home, (event): event is mastodon.streaming.UpdateEvent => event.event === 'update')
  const live = await masto.v1.statuses.create({ status: 'heard live' })
  t.equal((await updated)?.payload.id, live.id, 'the update')
  const deleted = first(home, (event): event is mastodon.streaming.DeleteEvent => event.event === 'delete')
  await masto.v1.statuses.$select(live.id).remove()
  t.equal((await deleted)?.payload, live.id, 'the deletion, a bare id')
})

await t.test('masto.js revokes its token, which then stops working', async (t) => {
  await oauth.revoke({ clientId, clientSecret, token: token.accessToken })
  const refused = await masto.v1.accounts.verifyCredentials().then(
    () => undefined,
    (error: unknown) => error,
  )
  t.match(refused, { name: 'MastoHttpError', statusCode: 401 })
})
