import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import type { FastifyRequest } from 'fastify'
import { badRequest, unauthorized } from '../errors.js'
import { PUSH_POLICIES, type PushAlert, type PushPolicy } from '../services/push.js'
import type { PushSubscriptionRecord } from '../services/push.js'
import { ERROR_REPLIES } from './errors.js'
import type { MastodonOptions } from './options.js'

/**
 * Mastodon's Web Push API (`/api/v1/push/subscription`, DECISIONS §15): one subscription a token, over
 * services/push.ts. Alerts carry Mastodon's names, and Chirp's finer kinds beside them (`direct`,
 * `comment`, `reply`), which Chirp's own Settings sets one by one.
 */

/** Mastodon's alert names, and the kinds of Chirp's each turns on. */
const ALERTS_OF_PUSH_KEY: Record<string, readonly PushAlert[]> = {
  mention: ['mention', 'direct', 'comment', 'reply'],
  favourite: ['like'],
  reblog: ['repost'],
  follow: ['follow'],
  follow_request: ['follow_request'],
  poll: ['poll'],
  quote: ['quote'],
  // Chirp's finer kinds, each on its own.
  direct: ['direct'],
  comment: ['comment'],
  reply: ['reply'],
}
/** Mastodon's kinds that Chirp never pushes (it has no such notifications): always off. */
const NEVER = ['status', 'update', 'admin.sign_up', 'admin.report'] as const

const AlertsSchema = Type.Record(Type.String(), Type.Boolean())
const WebPushSubscriptionSchema = Type.Object(
  {
    id: Type.String(),
    endpoint: Type.String(),
    standard: Type.Boolean(),
    alerts: AlertsSchema,
    policy: Type.Union(PUSH_POLICIES.map((policy) => Type.Literal(policy))),
    server_key: Type.String(),
  },
  { title: 'MastodonWebPushSubscription' },
)
/** JSON (`{ subscription: { endpoint, keys }, data: { alerts, policy } }`) or a form (`data[alerts][mention]`), read by fieldsOf. */
const BodySchema = Type.Object(
  { subscription: Type.Optional(Type.Unknown()), data: Type.Optional(Type.Unknown()) },
  { patternProperties: { '^(subscription|data)\\[': {} }, maxProperties: 60 },
)

/** The body as flat bracketed names, however it was sent: `subscription[keys][auth]`, `data[policy]`. */
function fieldsOf(body: unknown, prefix = '', into = new Map<string, unknown>()): Map<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    into.set(prefix, body)
    return into
  }
  for (const [name, value] of Object.entries(body)) fieldsOf(value, prefix === '' ? name : `${prefix}[${name}]`, into)
  return into
}

const TRUE = new Set([true, 'true', '1', 'on'])
const FALSE = new Set([false, 'false', '0', 'off', ''])

/** The kinds the alerts sent turn on; undefined when none is sent. A named kind wins over Mastodon's `mention`. */
function alertsOf(fields: Map<string, unknown>): PushAlert[] | undefined {
  const on = new Set<PushAlert>()
  const named = new Map<PushAlert, boolean>()
  let any = false
  for (const [name, value] of fields) {
    const key = /^data\[alerts\]\[([a-z_.]+)\]$/.exec(name)?.[1]
    if (key === undefined) continue
    if (!TRUE.has(value as string) && !FALSE.has(value as string))
      throw badRequest(`data[alerts][${key}] must be true or false`)
    any = true
    const kinds = ALERTS_OF_PUSH_KEY[key]
    if (!kinds) continue
    if (kinds.length === 1 && kinds[0] !== undefined) named.set(kinds[0], TRUE.has(value as string))
    else if (TRUE.has(value as string)) for (const kind of kinds) on.add(kind)
  }
  for (const [kind, value] of named) {
    if (value) on.add(kind)
    else on.delete(kind)
  }
  return any ? [...on] : undefined
}

function policyOf(fields: Map<string, unknown>): PushPolicy | undefined {
  const policy = fields.get('data[policy]')
  if (policy === undefined) return undefined
  if (!(PUSH_POLICIES as readonly unknown[]).includes(policy))
    throw badRequest(`data[policy] must be one of ${PUSH_POLICIES.join(', ')}`)
  return policy as PushPolicy
}

const text = (fields: Map<string, unknown>, name: string) => {
  const value = fields.get(name)
  return typeof value === 'string' ? value : ''
}

/** The token the request carried, as it was sent. */
function rawTokenOf(request: FastifyRequest): string {
  const header = request.headers.authorization
  if (typeof header !== 'string') throw unauthorized()
  return header.replace(/^bearer\s+/i, '').trim()
}

const routes: FastifyPluginAsyncTypebox<MastodonOptions> = async (app, { services }) => {
  const entityOf = (subscription: PushSubscriptionRecord) => {
    const alerts: Record<string, boolean> = {}
    for (const [name, kinds] of Object.entries(ALERTS_OF_PUSH_KEY))
      alerts[name] = subscription.alerts.includes(kinds[0] as PushAlert)
    for (const name of NEVER) alerts[name] = false
    return {
      id: subscription._id,
      endpoint: subscription.endpoint,
      standard: true,
      alerts,
      policy: subscription.policy,
      server_key: services.push.publicKey,
    }
  }
  const schema = (description: string, body = false) => ({
    tags: ['mastodon'],
    description,
    ...(body ? { body: BodySchema } : {}),
    response: { 200: WebPushSubscriptionSchema, ...ERROR_REPLIES },
  })

  app.post(
    '/api/v1/push/subscription',
    {
      config: { scope: 'push' },
      schema: schema("Subscribes the token's device to Web Push, in place of its earlier subscription.", true),
    },
    async (request) => {
      const fields = fieldsOf(request.body)
      const subscription = await services.push.subscribe(
        request.user._id,
        { id: request.user.token.id, expiresAt: request.user.token.expiresAt, raw: rawTokenOf(request) },
        {
          endpoint: text(fields, 'subscription[endpoint]'),
          p256dh: text(fields, 'subscription[keys][p256dh]'),
          auth: text(fields, 'subscription[keys][auth]'),
          alerts: alertsOf(fields) ?? [],
          policy: policyOf(fields) ?? 'all',
        },
      )
      return entityOf(subscription)
    },
  )

  app.get(
    '/api/v1/push/subscription',
    { config: { scope: 'push' }, schema: schema("The token's push subscription; 404 when it has none.") },
    async (request) => entityOf(await services.push.get(request.user._id, request.user.token.id)),
  )

  app.put(
    '/api/v1/push/subscription',
    {
      config: { scope: 'push' },
      schema: schema("Changes which notifications the token's push subscription is sent, and from whom.", true),
    },
    async (request) => {
      const fields = fieldsOf(request.body)
      const alerts = alertsOf(fields)
      const policy = policyOf(fields)
      const change = { ...(alerts ? { alerts } : {}), ...(policy ? { policy } : {}) }
      return entityOf(await services.push.update(request.user._id, request.user.token.id, change))
    },
  )

  app.delete(
    '/api/v1/push/subscription',
    {
      config: { scope: 'push' },
      schema: {
        tags: ['mastodon'],
        description: "Ends the token's push subscription, if it has one.",
        response: { 200: Type.Object({}), ...ERROR_REPLIES },
      },
    },
    async (request) => services.push.remove(request.user._id, request.user.token.id),
  )
}

export default routes
