import { setTimeout as sleep } from 'node:timers/promises'
import t from 'tap'
import type { Page } from 'playwright-core'
import { startPushService, type TestSubscription } from '../helpers/push-service.js'
import { journey, startE2E } from './harness.js'
import { call, signupUser, type NewUser } from './helpers.js'

/**
 * Web Push (DECISIONS §15) in a real browser: a signed-in person turns push on in Settings, someone likes
 * their post, and the browser's service worker shows the notification. Chromium has no push service here,
 * so the page's PushManager hands out a subscription of the test's push service (web-push-testing, over
 * https), which checks the server's VAPID signature and decrypts what the server sent; that payload is then
 * delivered to the service worker as a push service would (CDP's ServiceWorker.deliverPushMessage).
 */
const pushService = await startPushService(t)
const e2e = await startE2E(t, {
  env: { PUSH_ALLOW: pushService.host },
  app: { pushFetch: { ca: pushService.ca } },
})

interface Shown {
  title: string
  body: string
  url: unknown
}

/**
 * What the page's PushManager hands out in place of the browser's own push service's subscription; the
 * keys the page subscribed with are kept in `pushKeys`, base64. A script as text: a function would be
 * compiled for the test, with helpers the page does not have.
 */
async function fakePushManager(page: Page, subscription: TestSubscription): Promise<void> {
  const { endpoint, p256dh, auth } = subscription
  const json = JSON.stringify({ endpoint, expirationTime: null, keys: { p256dh, auth } })
  await page.addInitScript(`{
    const json = ${json}
    const fake = { endpoint: json.endpoint, expirationTime: null, toJSON: () => json, unsubscribe: async () => true }
    let current = null
    window.pushKeys = []
    PushManager.prototype.subscribe = async function (options) {
      const key = options && options.applicationServerKey
      window.pushKeys.push(key instanceof Uint8Array ? btoa(String.fromCharCode(...key)) : String(key))
      current = fake
      return fake
    }
    PushManager.prototype.getSubscription = async () => current
  }`)
}

/** The decrypted pushes that reached the subscription, once there are `count` (or after 20 s). */
async function pushesOf(subscription: TestSubscription, count: number): Promise<string[]> {
  for (let waited = 0; waited < 20_000 && subscription.messages().length < count; waited += 100) await sleep(100)
  return subscription.messages()
}

/** The notifications the page's service worker shows. */
const shownBy = (page: Page) =>
  page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready
    return (await registration.getNotifications()).map((notification): Shown => ({
      title: notification.title,
      body: notification.body,
      url: (notification.data as { url?: unknown } | null)?.url,
    }))
  })

const people = e2e && { owner: await signupUser(e2e, 'pushed'), fan: await signupUser(e2e, 'fan') }

await journey(
  t,
  e2e,
  'turn push on in Settings; a like of my post shows as a notification of the service worker',
  { session: async () => (people ? people.owner : Promise.reject(new Error('no owner'))) },
  async (page, t, e2e) => {
    if (!people) throw new Error('the people signed up')
    const { owner, fan }: { owner: NewUser; fan: NewUser } = people
    const instance = await call<{ configuration: { vapid: { public_key: string } } }>(e2e, 'GET', '/api/v2/instance')
    const serverKey = instance.configuration.vapid.public_key
    const subscription = await pushService.subscribe(serverKey)
    await fakePushManager(page, subscription)
    await page.context().grantPermissions(['notifications'], { origin: e2e.baseURL })

    await page.goto('/settings')
    const toggle = page.getByRole('switch', { name: 'Push notifications on this device' })
    await toggle.click()
    await page.getByRole('group', { name: 'Send a push for' }).waitFor()
    t.ok(await toggle.isChecked(), 'push is on')
    t.ok(await page.getByRole('checkbox', { name: 'Likes' }).isChecked(), 'likes are pushed')
    const keys = await page.evaluate(() => (window as unknown as { pushKeys: string[] }).pushKeys)
    t.same(
      keys.map((key) => Buffer.from(key, 'base64').toString('base64url')),
      [serverKey],
      'the browser subscribed with the server’s VAPID key',
    )
    const stored = await call<{ endpoint: string; alerts: Record<string, boolean> }>(
      e2e,
      'GET',
      '/api/v1/push/subscription',
      undefined,
      owner.token,
    )
    t.equal(stored.endpoint, subscription.endpoint, 'the server keeps the browser’s subscription')

    const content = `Push me, ${owner.username}`
    const { post } = await call<{ post: { _id: string } }>(
      e2e,
      'POST',
      '/api/posts',
      { postData: { content } },
      owner.token,
    )
    await call(e2e, 'POST', `/api/posts/like/${post._id}`, undefined, fan.token)
    const [message] = await pushesOf(subscription, 1)
    if (message === undefined) throw new Error('the push service received no push from the server')
    t.match(
      JSON.parse(message),
      { notification_type: 'favourite', url: new RegExp(`/post-detail/${post._id}$`) },
      'the push service decrypted a like of the post',
    )
    t.same(await shownBy(page), [], 'nothing is shown before the push arrives')
    // The worker registered itself on the first visit; the push reaches it as the browser's push service would.
    const cdp = await page.context().newCDPSession(page)
    const registrations: { registrationId: string; scopeURL: string; isDeleted: boolean }[] = []
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations: updated }) => registrations.push(...updated))
    await cdp.send('ServiceWorker.enable')
    for (let waited = 0; waited < 5_000 && registrations.length === 0; waited += 50) await sleep(50)
    const registration = registrations.find((each) => !each.isDeleted && each.scopeURL === `${e2e.baseURL}/`)
    if (!registration) throw new Error(`no service worker for ${e2e.baseURL}/: ${JSON.stringify(registrations)}`)
    await cdp.send('ServiceWorker.deliverPushMessage', {
      origin: e2e.baseURL,
      registrationId: registration.registrationId,
      data: message,
    })

    let shown: Shown[] = []
    for (let waited = 0; waited < 10_000 && shown.length === 0; waited += 100) {
      shown = await shownBy(page)
      if (shown.length === 0) await sleep(100)
    }
    // The page a click opens is the post's, where the server's public address is this page's origin.
    t.same(
      shown.map(({ title, body }) => ({ title, body })),
      [{ title: `${fan.username} liked your post`, body: content }],
      'the service worker shows who liked which post',
    )
    t.ok(String(shown[0]?.url).startsWith(`${e2e.baseURL}/`), 'and opens a page of this site on a click')
  },
)
