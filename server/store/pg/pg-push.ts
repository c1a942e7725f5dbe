import type { PushAlert, PushPolicy, PushSubscriptionRecord } from '../types.js'
import type { Queryable } from './connect.js'
import { isUuid } from './records.js'

/** Web Push subscriptions on PostgreSQL (migration 45). */

interface PushRow {
  token_id: string
  user_id: string
  endpoint: string
  p256dh: string
  auth: string
  alerts: PushAlert[]
  policy: PushPolicy
  sealed_token: string
  expires_at: Date
  created_at: Date
}

const subscriptionOf = (row: PushRow): PushSubscriptionRecord => ({
  _id: row.token_id,
  userId: row.user_id,
  endpoint: row.endpoint,
  p256dh: row.p256dh,
  auth: row.auth,
  alerts: row.alerts,
  policy: row.policy,
  sealedToken: row.sealed_token,
  expiresAt: row.expires_at.toISOString(),
  createdAt: row.created_at.toISOString(),
})

/** The row of a subscription, as inserted here and by a move from the embedded store. */
export const pushRowOf = (subscription: PushSubscriptionRecord) => ({
  token_id: subscription._id,
  user_id: subscription.userId,
  endpoint: subscription.endpoint,
  p256dh: subscription.p256dh,
  auth: subscription.auth,
  alerts: [...subscription.alerts],
  policy: subscription.policy,
  sealed_token: subscription.sealedToken,
  expires_at: subscription.expiresAt,
  created_at: subscription.createdAt,
})

export async function listPushSubscriptions(sql: Queryable, userId: string): Promise<PushSubscriptionRecord[]> {
  if (!isUuid(userId)) return []
  const rows = await sql<PushRow[]>`SELECT * FROM push_subscriptions WHERE user_id = ${userId}`
  return rows.map(subscriptionOf)
}

export async function getPushSubscription(sql: Queryable, id: string): Promise<PushSubscriptionRecord | undefined> {
  const [row] = await sql<PushRow[]>`SELECT * FROM push_subscriptions WHERE token_id = ${id}`
  return row && subscriptionOf(row)
}

export async function putPushSubscription(sql: Queryable, subscription: PushSubscriptionRecord): Promise<boolean> {
  if (!isUuid(subscription.userId)) return false
  const row = pushRowOf(subscription)
  const done = await sql`
    INSERT INTO push_subscriptions (token_id, user_id, endpoint, p256dh, auth, alerts, policy, sealed_token,
      expires_at, created_at)
    SELECT ${row.token_id}, u.id, ${row.endpoint}, ${row.p256dh}, ${row.auth}, ${row.alerts}, ${row.policy},
      ${row.sealed_token}, ${row.expires_at}, ${row.created_at}
    FROM users u WHERE u.id = ${row.user_id}
    ON CONFLICT (token_id) DO UPDATE SET user_id = EXCLUDED.user_id, endpoint = EXCLUDED.endpoint,
      p256dh = EXCLUDED.p256dh, auth = EXCLUDED.auth, alerts = EXCLUDED.alerts, policy = EXCLUDED.policy,
      sealed_token = EXCLUDED.sealed_token, expires_at = EXCLUDED.expires_at, created_at = EXCLUDED.created_at`
  return done.count > 0
}

export async function removePushSubscription(sql: Queryable, id: string): Promise<boolean> {
  const done = await sql`DELETE FROM push_subscriptions WHERE token_id = ${id}`
  return done.count > 0
}
