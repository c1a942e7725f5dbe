import { createRequire } from 'node:module'
import type { RequestListener } from 'node:http'
import { issueCertificate, serveHttps } from './https-pages.js'
import type { TestContext } from './app.js'

/** web-push-testing's model of a push service: it keeps subscriptions and decrypts what is pushed to them. */
interface PushApiModel {
  notifyUrl: string
  createSubscription(options: { userVisibleOnly: boolean; applicationServerKey: string }): Promise<{
    endpoint: string
    keys: { p256dh: string; auth: string }
    clientHash: string
  }>
  expireSubscription(clientHash: string): void
  getNotifications(body: { clientHash: string }): { messages: string[] }
}

const require = createRequire(import.meta.url)
const { PushApiModel } = require('web-push-testing/src/PushApiModel.js') as { PushApiModel: new () => PushApiModel }
const WebPushTestingServer = require('web-push-testing/src/server.js') as new (
  model: PushApiModel,
  port: number,
) => { _app: RequestListener; setRequestHandlers(): void }

export interface TestSubscription {
  /** What the browser would hand the app: the endpoint (on the https face of the service) and keys. */
  endpoint: string
  p256dh: string
  auth: string
  /** The payloads pushed to it so far, decrypted, in order. */
  messages(): string[]
  /** Makes the service answer 410 Gone for it from now on. */
  expire(): void
}

export interface TestPushService {
  /** The certificate authority its certificate is signed by. */
  ca: string
  /** `localhost:<port>`, as PUSH_ALLOW names it. */
  host: string
  subscribe(applicationServerKey: string): Promise<TestSubscription>
}

/**
 * A push service on 127.0.0.1 for the test: web-push-testing (from the npm registry), which checks a push's
 * VAPID signature and decrypts its payload (RFC 8291), served over https with a certificate of the test's
 * own authority, as a real push service is.
 */
export async function startPushService(t: TestContext): Promise<TestPushService> {
  const { ca, key, cert } = await issueCertificate([
    { type: 2, value: 'localhost' },
    { type: 7, ip: '127.0.0.1' },
  ])
  const model = new PushApiModel()
  const service = new WebPushTestingServer(model, 0)
  service.setRequestHandlers()
  const port = await serveHttps(t, { key, cert }, service._app)
  const host = `localhost:${port}`
  model.notifyUrl = `https://${host}/notify/`
  return {
    ca,
    host,
    async subscribe(applicationServerKey) {
      const made = await model.createSubscription({ userVisibleOnly: true, applicationServerKey })
      return {
        endpoint: made.endpoint,
        p256dh: made.keys.p256dh,
        auth: made.keys.auth,
        messages: () => model.getNotifications({ clientHash: made.clientHash }).messages,
        expire: () => model.expireSubscription(made.clientHash),
      }
    },
  }
}
