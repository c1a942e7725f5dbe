import t, { type Test } from 'tap'
import { setTimeout as sleep } from 'node:timers/promises'
import { bearer, mastodonClient, type MastodonPerson } from '../helpers/mastodon.js'
import { startPushService, type TestSubscription } from '../helpers/push-service.js'
import { MSG } from '../../server/errors.js'

/**
 * Web Push (DECISIONS §15) end to end: a subscription made through Mastodon's push API, a notification,
 * the job that encrypts and signs the push, and a push service on this machine (web-push-testing) that
 * checks the VAPID signature and decrypts the payload. Runs on the store the suite runs on.
 */

const pushService = await startPushService(t)
const { api, person, call, json } = await mastodonClient(t, {
  config: { pushAllow: [pushService.host], jobsRetryMs: 50 },
  options: { pushFetch: { ca: pushService.ca } },
})
const { public_key: serverKey } = (
  await json<{ configuration: { vapid: { public_key: string } } }>('GET', '/api/v2/instance')
).configuration.vapid

interface Pushed {
  notification_id: string
  notification_type: string
  title: string
  body: string
  icon: string
  access_token: string
  preferred_locale: string
  url: string
}

/** Subscribes `who`'s token at the test's push service, with `alerts` (form fields' names) on. */
async function subscribe(who: MastodonPerson, alerts: Record<string, boolean>, policy = 'all') {
  const subscription = await pushService.subscribe(serverKey)
  const res = await call('POST', '/api/v1/push/subscription', who, {
    subscription: { endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
    data: { alerts, policy },
  })
  if (res.statusCode !== 200) throw new Error(`subscribe ${subscription.endpoint}: ${res.statusCode} ${res.body}`)
  return subscription
}

/** A Mastodon refusal: its status and `{ error }`. */
function refusal(t: Test, res: { statusCode: number; json<T>(): T }, status: number, message: string, what: string) {
  t.equal(res.statusCode, status, `${what}: ${status}`)
  t.equal(res.json<{ error: string }>().error, message, `${what}: says why`)
}

/** The pushes that reached `subscription`, once there are `count` of them (or after 15 s). */
async function pushesOf(subscription: TestSubscription, count: number): Promise<Pushed[]> {
  for (let waited = 0; waited < 15_000 && subscription.messages().length < count; waited += 50) await sleep(50)
  return subscription.messages().map((message) => JSON.parse(message) as Pushed)
}

const put = (who: MastodonPerson, payload: Record<string, unknown>) =>
  api.app.inject({ method: 'PUT', url: '/api/v1/push/subscription', headers: bearer(who.bearer), payload })

/** A call of Chirp's own API with `who`'s session token. */
const chirp = (who: MastodonPerson, url: string, payload?: Record<string, unknown>) =>
  api.app.inject({ method: 'POST', url, headers: { authorization: who.token }, ...(payload ? { payload } : {}) })
const post = async (who: MastodonPerson, content: string, visibility = 'public') => {
  const res = await chirp(who, '/api/posts', { content, visibility })
  if (res.statusCode !== 201) throw new Error(`post: ${res.statusCode} ${res.body}`)
  return (res.json() as { post: { _id: string } }).post._id
}
const act = async (who: MastodonPerson, url: string) => {
  const res = await chirp(who, url)
  if (res.statusCode !== 200 && res.statusCode !== 201) throw new Error(`${url}: ${res.statusCode}`)
}

await t.test('a mention reaches the closed browser as Mastodon apps expect it, encrypted and signed', async (t) => {
  const [ana, bo] = [await person(), await person()]
  const subscription = await subscribe(ana, { mention: true, favourite: true })
  await post(bo, `hello @${ana.username}, are you there?`)
  const [pushed] = await pushesOf(subscription, 1)
  t.ok(pushed, 'the push service decrypted one push')
  t.equal(pushed?.notification_type, 'mention')
  t.match(pushed?.title, / mentioned you$/)
  t.match(pushed?.body, /are you there\?/)
  t.equal(pushed?.access_token, ana.bearer, 'the token of the subscribing app')
  t.equal(pushed?.preferred_locale, 'en')
  t.match(pushed?.icon, /^https?:\/\//)
  t.match(pushed?.url, /^https:\/\/chirp\.example\/post-detail\//)
  const listed = await json<{ id: string; type: string }[]>('GET', '/api/v1/notifications', ana)
  t.equal(pushed?.notification_id, listed[0]?.id, "the notification's Mastodon id")
})

await t.test('only the kinds turned on are pushed', async (t) => {
  const [ana, bo] = [await person(), await person()]
  const subscription = await subscribe(ana, { mention: true, direct: false, favourite: false, follow: true })
  const postId = await post(ana, 'something to like')
  await act(bo, `/api/posts/like/${postId}`)
  await post(bo, `a direct word @${ana.username}`, 'direct')
  await act(bo, `/api/users/follow/${ana.user._id}`)
  const pushes = await pushesOf(subscription, 1)
  await post(bo, `and a public one @${ana.username}`)
  const after = await pushesOf(subscription, 2)
  t.strictSame(
    after.map((each) => each.notification_type).sort(),
    ['follow', 'mention'],
    'the follow and the public mention; not the like, not the direct message',
  )
  t.ok(pushes.length >= 1)
  // Changed through PUT: likes on, follows off.
  const changed = await put(ana, { data: { alerts: { favourite: true } } })
  t.equal(changed.statusCode, 200)
  t.equal(changed.json<{ alerts: Record<string, boolean> }>().alerts.favourite, true)
  t.equal(changed.json<{ alerts: Record<string, boolean> }>().alerts.follow, false, 'alerts not sent are off')
  await act(bo, `/api/users/unfollow/${ana.user._id}`)
  await act(bo, `/api/users/follow/${ana.user._id}`)
  const other = await post(ana, 'another')
  await act(bo, `/api/posts/like/${other}`)
  const last = await pushesOf(subscription, 3)
  t.strictSame(last.map((each) => each.notification_type).slice(2), ['favourite'], 'the like, not the new follow')
})

await t.test('a muted or blocked person pushes nothing, as they notify nothing', async (t) => {
  const [ana, bo, cy, di] = [await person(), await person(), await person(), await person()]
  const subscription = await subscribe(ana, { mention: true })
  await act(ana, `/api/users/mute/${bo.user._id}`)
  await act(ana, `/api/users/block/${cy.user._id}`)
  await post(bo, `muted @${ana.username}`)
  await post(cy, `blocked @${ana.username}`)
  await post(di, `anyone @${ana.username}`)
  await pushesOf(subscription, 1)
  await sleep(300)
  const pushes = await pushesOf(subscription, 1)
  t.equal(pushes.length, 1, 'one push')
  t.match(pushes[0]?.body, /anyone/, 'from the one ana hears from')
})

await t.test('the policy says from whom pushes come', async (t) => {
  const [ana, bo, cy] = [await person(), await person(), await person()]
  const subscription = await subscribe(ana, { mention: true }, 'followed')
  await act(ana, `/api/users/follow/${cy.user._id}`)
  await post(bo, `a stranger @${ana.username}`)
  await post(cy, `someone followed @${ana.username}`)
  const pushes = await pushesOf(subscription, 1)
  await sleep(300)
  t.strictSame(
    (await pushesOf(subscription, 1)).map((each) => each.body),
    [pushes[0]?.body],
    'one push',
  )
  t.match(pushes[0]?.body, /someone followed/)
})

await t.test('a push service answering 410 Gone ends the subscription', async (t) => {
  const [ana, bo] = [await person(), await person()]
  const subscription = await subscribe(ana, { mention: true })
  t.equal((await call('GET', '/api/v1/push/subscription', ana)).statusCode, 200)
  subscription.expire()
  await post(bo, `gone? @${ana.username}`)
  let status = 200
  for (let waited = 0; waited < 15_000 && status === 200; waited += 50) {
    await sleep(50)
    status = (await call('GET', '/api/v1/push/subscription', ana)).statusCode
  }
  t.equal(status, 404, 'the subscription is gone')
})

await t.test("Mastodon's push API: one subscription a token, refused input changes nothing", async (t) => {
  const [ana, readOnly] = [await person(), await person('read')]
  refusal(t, await call('GET', '/api/v1/push/subscription', ana), 404, MSG.pushSubscriptionNotFound, 'none yet')
  const subscription = await pushService.subscribe(serverKey)
  const keys = { p256dh: subscription.p256dh, auth: subscription.auth }
  const form = `subscription[endpoint]=${encodeURIComponent(subscription.endpoint)}&subscription[keys][p256dh]=${keys.p256dh}&subscription[keys][auth]=${keys.auth}&data[alerts][mention]=true&data[alerts][favourite]=false&data[policy]=follower`
  const made = await api.app.inject({
    method: 'POST',
    url: '/api/v1/push/subscription',
    headers: { ...bearer(ana.bearer), 'content-type': 'application/x-www-form-urlencoded' },
    payload: form,
  })
  t.equal(made.statusCode, 200, 'a form, as Mastodon apps send it')
  const entity = made.json<{
    id: string
    endpoint: string
    alerts: Record<string, boolean>
    policy: string
    server_key: string
  }>()
  t.equal(entity.endpoint, subscription.endpoint)
  t.equal(entity.server_key, serverKey, "the instance's VAPID key")
  t.equal(entity.policy, 'follower')
  t.match(entity.alerts, { mention: true, direct: true, reply: true, favourite: false, reblog: false, status: false })
  t.strictSame((await call('GET', '/api/v1/push/subscription', ana)).json(), entity, 'read back')

  const refused = async (payload: Record<string, unknown>, message: string, what: string) =>
    refusal(t, await call('POST', '/api/v1/push/subscription', ana, payload), 400, message, what)
  await refused({ subscription: { endpoint: 'http://push.example/x', keys } }, MSG.pushEndpointInvalid, 'plain http')
  await refused(
    { subscription: { endpoint: 'https://127.0.0.1/x', keys } },
    MSG.pushEndpointInvalid,
    'a private address',
  )
  await refused({ subscription: { endpoint: 'https://10.1.2.3/x', keys } }, MSG.pushEndpointInvalid, 'another')
  await refused({ subscription: { endpoint: 'not a url', keys } }, MSG.pushEndpointInvalid, 'no address')
  await refused(
    { subscription: { endpoint: subscription.endpoint, keys: { p256dh: 'short', auth: keys.auth } } },
    MSG.pushKeyInvalid,
    'a key that is no P-256 key',
  )
  const badPolicy = await put(ana, { data: { policy: 'everyone' } })
  t.equal(badPolicy.statusCode, 400, 'an unknown policy')
  const badAlert = await put(ana, { data: { alerts: { mention: 'maybe' } } })
  t.equal(badAlert.statusCode, 400, 'an alert that is neither true nor false')
  t.strictSame((await call('GET', '/api/v1/push/subscription', ana)).json(), entity, 'nothing changed')

  const otherToken = await person()
  t.equal(
    (await call('GET', '/api/v1/push/subscription', otherToken)).statusCode,
    404,
    "another token's is not this one",
  )
  t.equal((await call('GET', '/api/v1/push/subscription', readOnly)).statusCode, 403, 'a token without the push scope')
  t.equal((await call('GET', '/api/v1/push/subscription')).statusCode, 401, 'signed out')

  // Chirp's own session token is accepted there too (DECISIONS §17).
  const session = await api.app.inject({
    method: 'PUT',
    url: '/api/v1/push/subscription',
    headers: { authorization: ana.token },
    payload: { data: { policy: 'all' } },
  })
  t.equal(session.statusCode, 404, "the session's own token has no subscription yet")

  t.equal((await call('DELETE', '/api/v1/push/subscription', ana)).statusCode, 200)
  t.equal((await call('GET', '/api/v1/push/subscription', ana)).statusCode, 404, 'ended')
  t.equal((await call('DELETE', '/api/v1/push/subscription', ana)).statusCode, 200, 'ending it again is fine')
})

await t.test('signing out ends the token and its pushes', async (t) => {
  const [ana, bo] = [await person(), await person()]
  const subscription = await subscribe(ana, { mention: true })
  const revoked = await chirp(ana, '/api/auth/logout-all')
  t.equal(revoked.statusCode, 200, 'every session of ana ends')
  await post(bo, `still there? @${ana.username}`)
  await sleep(1500)
  t.equal(subscription.messages().length, 0, 'nothing is pushed')
})
