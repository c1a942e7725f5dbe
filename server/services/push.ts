import { Agent } from 'node:https'
import webpush, { WebPushError } from 'web-push'
import { badRequest, MSG, notFound } from '../errors.js'
import type {
  ClaimedJob,
  NotificationRecord,
  PushAlert,
  PushPolicy,
  PushSubscriptionRecord,
  StoreTx,
} from '../store/types.js'
import { NOTIFICATION_TYPES } from '../mastodon/notification-types.js'
import type { AccountSecrets } from './account-secrets.js'
import type { AuthService, TokenPayload } from './auth.js'
import type { ServiceDeps } from './deps.js'
import { newJob, PermanentJobError } from './jobs.js'
import type { Subject } from './notification-views.js'
import type { NotificationsService } from './notifications.js'
import { pushEndpointRules } from './push-endpoints.js'
import type { LinkFetchOptions } from './link-fetch.js'
import { timedIdOf } from './status-ids.js'

export {
  PUSH_POLICIES,
  type PushAlert,
  type PushPolicy,
  type PushSubscriptionRecord,
} from '../store/client-app-types.js'

/** The server's VAPID key pair (RFC 8292), base64url, and whom push services may contact about it. */
interface VapidKeys {
  publicKey: string
  privateKey: string
  subject: string
}

/** A token as the request that subscribes carried it. */
export interface SubscribingToken {
  id: string
  expiresAt: string
  /** The token itself, which the payload hands back to Mastodon apps. */
  raw: string
}

export interface NewSubscription {
  endpoint: string
  p256dh: string
  auth: string
  alerts: readonly PushAlert[]
  policy: PushPolicy
}

export interface PushDeps extends ServiceDeps {
  vapid: VapidKeys
  secrets: AccountSecrets
  auth: Pick<AuthService, 'userOfToken'>
  notifications: Pick<NotificationsService, 'get'>
  /** Where the server is reached: for the page a push opens and for avatars given by path. */
  publicUrl: string
  /** Host names (with an optional `:port`) taken whatever they resolve to, plain http included: PUSH_ALLOW. */
  allow: readonly string[]
  /** Certificate authorities trusted besides the system's, for tests. */
  ca?: string
  /** How endpoints' names are resolved; the system resolver by default. */
  resolve?: LinkFetchOptions['resolve']
  log: (message: string, error?: unknown) => void
}

/** A push waits this long at its push service for a device that is off (RFC 8030 TTL): two days. */
const PUSH_TTL_SECONDS = 48 * 3600
const PUSH_TIMEOUT_MS = 10_000

/** The kind of push a notification is: a mention in a direct message is a direct message. */
function alertOf(type: NotificationRecord['type'], subject: Pick<Subject, 'post'>): PushAlert {
  return type === 'mention' && subject.post?.visibility === 'direct' ? 'direct' : type
}

/**
 * Within the write that adds a notification: a push job for each of the recipient's subscriptions that
 * wants its kind. Whether the recipient still hears of it is asked again when the push is sent.
 */
export async function queuePushes(tx: StoreTx, record: NotificationRecord, subject: Subject): Promise<void> {
  const alert = alertOf(record.type, subject)
  for (const subscription of await tx.listPushSubscriptions(record.recipientId)) {
    if (!subscription.alerts.includes(alert) || subscription.policy === 'none') continue
    const payload = { subscriptionId: subscription._id, notificationId: record._id }
    await tx.enqueueJob(newJob('push', payload, record.createdAt), record.createdAt)
  }
}

/** The claims of a token Chirp signed, read without checking the signature that was checked when it came. */
function claimsOf(token: string): TokenPayload | undefined {
  const [, body] = token.split('.')
  if (body === undefined) return undefined
  try {
    return JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as TokenPayload
  } catch {
    return undefined
  }
}

const decodedLength = (value: string) =>
  /^[A-Za-z0-9_-]+={0,2}$/.test(value) ? Buffer.from(value, 'base64url').length : -1

/** What a push says of a notification: a line on who did what, and the text it is about. */
function wordsOf(alert: PushAlert, who: string): string {
  switch (alert) {
    case 'direct':
      return `${who} sent you a direct message`
    case 'mention':
      return `${who} mentioned you`
    case 'comment':
      return `${who} commented on your post`
    case 'reply':
      return `${who} replied to you`
    case 'quote':
      return `${who} quoted your post`
    case 'like':
      return `${who} liked your post`
    case 'repost':
      return `${who} reposted your post`
    case 'follow':
      return `${who} followed you`
    case 'follow_request':
      return `${who} asked to follow you`
    case 'poll':
      return 'Your poll has ended'
  }
}

/**
 * Web Push (DECISIONS §15): each token's subscription, kept per device with the kinds it wants, and the
 * job that encrypts (RFC 8291, aes128gcm) and sends one notification to one subscription, signed with
 * the server's VAPID key.
 */
export function createPushService(deps: PushDeps) {
  const { store, now, vapid, secrets, auth, notifications, publicUrl, log } = deps
  const endpoints = pushEndpointRules({ allow: deps.allow, resolve: deps.resolve })

  async function subscriptionOf(userId: string, tokenId: string): Promise<PushSubscriptionRecord> {
    const subscription = await store.getPushSubscription(tokenId)
    if (subscription?.userId !== userId) throw notFound(MSG.pushSubscriptionNotFound)
    return subscription
  }

  /** Sends one push; false when the push service says the subscription is gone (404, 410). */
  async function send(subscription: PushSubscriptionRecord, payload: object, signal: AbortSignal): Promise<boolean> {
    // A socket of its own, through the address rules: a name that resolves to a private address is refused.
    const agent = new Agent({ lookup: endpoints.lookupFor(subscription.endpoint), ...(deps.ca ? { ca: deps.ca } : {}) })
    const abort = () => agent.destroy()
    signal.addEventListener('abort', abort)
    try {
      await webpush.sendNotification(
        { endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
        JSON.stringify(payload),
        {
          vapidDetails: vapid,
          TTL: PUSH_TTL_SECONDS,
          contentEncoding: 'aes128gcm',
          timeout: PUSH_TIMEOUT_MS,
          agent,
        },
      )
      return true
    } catch (error) {
      if (error instanceof WebPushError && (error.statusCode === 404 || error.statusCode === 410)) return false
      if (error instanceof WebPushError) throw new Error(`the push service answered ${error.statusCode}: ${error.body}`)
      throw error
    } finally {
      signal.removeEventListener('abort', abort)
      agent.destroy()
    }
  }

  async function forget(id: string, why: string) {
    await store.transaction((tx) => tx.removePushSubscription(id))
    log(`push subscription ${id} ended: ${why}`)
  }

  /** Whether the actor of a notification is someone the subscription hears from. */
  async function policyAllows(subscription: PushSubscriptionRecord, actorId: string): Promise<boolean> {
    if (subscription.policy === 'all') return true
    if (subscription.policy === 'none') return false
    const [recipient, actor] = await store.getUsers([subscription.userId, actorId])
    if (subscription.policy === 'followed') return recipient?.following.includes(actorId) ?? false
    return actor?.following.includes(subscription.userId) ?? false
  }

  const absolute = (url: string) => (url === '' || /^https?:\/\//.test(url) ? url : `${publicUrl}${url}`)

  return {
    publicKey: vapid.publicKey,

    /** The subscription of the caller's token, made or made anew (one a token, as in Mastodon). */
    async subscribe(userId: string, token: SubscribingToken, input: NewSubscription): Promise<PushSubscriptionRecord> {
      await endpoints.check(input.endpoint)
      // The browser's P-256 public key, uncompressed, and a 16-byte secret (RFC 8291 §3).
      if (decodedLength(input.p256dh) !== 65) throw badRequest(MSG.pushKeyInvalid)
      if (decodedLength(input.auth) !== 16) throw badRequest(MSG.pushKeyInvalid)
      const subscription: PushSubscriptionRecord = {
        _id: token.id,
        userId,
        endpoint: input.endpoint,
        p256dh: input.p256dh,
        auth: input.auth,
        alerts: [...new Set(input.alerts)],
        policy: input.policy,
        sealedToken: secrets.seal(token.raw),
        expiresAt: token.expiresAt,
        createdAt: now().toISOString(),
      }
      await store.transaction(async (tx) => {
        if (!(await tx.putPushSubscription(subscription))) throw notFound(MSG.userNotRegistered)
      })
      return subscription
    },

    /** The subscription of the caller's token; 404 when it has none. */
    get: subscriptionOf,

    /** Changes what the subscription of the caller's token is told of. */
    async update(
      userId: string,
      tokenId: string,
      change: { alerts?: readonly PushAlert[]; policy?: PushPolicy },
    ): Promise<PushSubscriptionRecord> {
      return store.transaction(async (tx) => {
        const before = await tx.getPushSubscription(tokenId)
        if (before?.userId !== userId) throw notFound(MSG.pushSubscriptionNotFound)
        const after = {
          ...before,
          ...(change.alerts ? { alerts: [...new Set(change.alerts)] } : {}),
          ...(change.policy ? { policy: change.policy } : {}),
        }
        await tx.putPushSubscription(after)
        return after
      })
    },

    /** Ends the subscription of the caller's token, if it has one. */
    async remove(userId: string, tokenId: string): Promise<Record<string, never>> {
      await store.transaction(async (tx) => {
        const subscription = await tx.getPushSubscription(tokenId)
        if (subscription?.userId === userId) await tx.removePushSubscription(tokenId)
      })
      return {}
    },

    /**
     * A push job: the notification, while it is there and its recipient would see it in their list, sent
     * to one subscription while that wants it; a subscription whose token ended, or whose push service
     * says it is gone, ends.
     */
    async runJob(job: ClaimedJob, signal: AbortSignal): Promise<void> {
      const { subscriptionId, notificationId } = job.payload
      if (typeof subscriptionId !== 'string' || typeof notificationId !== 'string')
        throw new PermanentJobError('a push job names no subscription or notification')
      const subscription = await store.getPushSubscription(subscriptionId)
      if (!subscription) return
      const token = secrets.open(subscription.sealedToken)
      const claims = token === undefined ? undefined : claimsOf(token)
      if (token === undefined || claims === undefined || subscription.expiresAt <= now().toISOString())
        return forget(subscription._id, 'its token expired')
      try {
        await auth.userOfToken(claims, subscription._id)
      } catch {
        return forget(subscription._id, 'its token was signed out')
      }
      let notification
      try {
        notification = await notifications.get(subscription.userId, notificationId)
      } catch {
        // Taken back, or about someone or something the recipient no longer hears of.
        return
      }
      const record = await store.getNotification(notificationId)
      const post = record?.postId === undefined ? undefined : await store.getPost(record.postId)
      const alert = alertOf(notification.type, { post })
      if (!subscription.alerts.includes(alert) || !(await policyAllows(subscription, notification.actor._id))) return
      const who = notification.actor.displayName || notification.actor.username
      const page = notification.post
        ? `/post-detail/${encodeURIComponent(notification.post._id)}`
        : notification.type === 'follow_request'
          ? '/follow-requests'
          : `/profile/${encodeURIComponent(notification.actor.username)}`
      const payload = {
        notification_id: timedIdOf(notification.createdAt, notification._id),
        notification_type: NOTIFICATION_TYPES[notification.type],
        title: wordsOf(alert, who),
        body: notification.comment?.text ?? notification.post?.content ?? `@${notification.actor.username}`,
        icon: absolute(notification.actor.avatarURL),
        access_token: token,
        preferred_locale: 'en',
        url: `${publicUrl}${page}`,
      }
      if (!(await send(subscription, payload, signal))) await forget(subscription._id, 'its push service ended it')
    },
  }
}

export type PushService = ReturnType<typeof createPushService>
