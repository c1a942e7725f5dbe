import { http } from './http.js'

/** Mastodon's push API, which Chirp's own client uses too (DECISIONS §17): this session's subscription. */

export interface PushSubscriptionReply {
  id: string
  endpoint: string
  alerts: Record<string, boolean>
  policy: string
  server_key: string
}

export function apiGetPush(): Promise<PushSubscriptionReply> {
  return http<PushSubscriptionReply>('/v1/push/subscription')
}

export function apiSubscribePush(subscription: PushSubscriptionJSON, alerts: Record<string, boolean>) {
  return http<PushSubscriptionReply>('/v1/push/subscription', {
    method: 'POST',
    body: { subscription, data: { alerts, policy: 'all' } },
  })
}

export function apiSetPushAlerts(alerts: Record<string, boolean>) {
  return http<PushSubscriptionReply>('/v1/push/subscription', { method: 'PUT', body: { data: { alerts } } })
}

export async function apiEndPush(): Promise<void> {
  await http('/v1/push/subscription', { method: 'DELETE' })
}

/** The server's VAPID public key, which a browser's subscription is made for. */
export async function apiPushKey(): Promise<string> {
  const instance = await http<{ configuration: { vapid: { public_key: string } } }>('/v2/instance')
  return instance.configuration.vapid.public_key
}
