import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { MARKER_TIMELINES, type MarkerRecord, type MarkerTimeline } from '../services/markers.js'
import { mastodonEmojis, ownAccountOf, VISIBILITY_NAMES } from './account-entity.js'
import { ERROR_REPLIES } from './errors.js'
import type { MastodonOptions } from './options.js'
import { CredentialAccountSchema, CustomEmojiSchema, MarkersSchema, PreferencesSchema } from './schemas.js'

const TimelineSchema = Type.Union(MARKER_TIMELINES.map((timeline) => Type.Literal(timeline)))
const MarkersQuerySchema = Type.Object({
  timeline: Type.Optional(Type.Union([TimelineSchema, Type.Array(TimelineSchema, { maxItems: 2 })])),
  'timeline[]': Type.Optional(Type.Union([TimelineSchema, Type.Array(TimelineSchema, { maxItems: 2 })])),
})
const LastRead = Type.Object({ last_read_id: Type.String({ minLength: 1, maxLength: 100 }) })
/** Sent as JSON (`{ home: { last_read_id } }`) or as a form (`home[last_read_id]`), which arrives flat. */
const MarkersBodySchema = Type.Object({
  home: Type.Optional(LastRead),
  notifications: Type.Optional(LastRead),
  'home[last_read_id]': Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  'notifications[last_read_id]': Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
})

const asArray = <T>(value: T | T[] | undefined): T[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value]

function markersOf(markers: readonly MarkerRecord[]) {
  const answer: Partial<Record<MarkerTimeline, { last_read_id: string; version: number; updated_at: string }>> = {}
  for (const marker of markers) {
    answer[marker.timeline] = { last_read_id: marker.lastReadId, version: marker.version, updated_at: marker.updatedAt }
  }
  return answer
}

/** The signed-in person: their account, preferences and reading markers; and the custom emoji (none yet). */
const routes: FastifyPluginAsyncTypebox<MastodonOptions> = async (app, { services, publicUrl }) => {
  app.get(
    '/api/v1/accounts/verify_credentials',
    {
      config: { scope: 'profile' },
      schema: {
        tags: ['mastodon'],
        description: "The signed-in person's own account, with the source of what they wrote and their role.",
        response: { 200: CredentialAccountSchema, ...ERROR_REPLIES },
      },
    },
    async (request) => ownAccountOf(services, publicUrl, request.user._id),
  )

  app.get(
    '/api/v1/preferences',
    {
      config: { scope: 'read:accounts' },
      schema: {
        tags: ['mastodon'],
        description: "The person's posting and reading preferences: their default audience.",
        response: { 200: PreferencesSchema, ...ERROR_REPLIES },
      },
    },
    async (request) => {
      const { user } = await services.users.own(request.user._id)
      return {
        'posting:default:visibility': VISIBILITY_NAMES[user.defaultVisibility ?? 'public'],
        'posting:default:sensitive': false,
        'posting:default:language': null,
        'reading:expand:media': 'default',
        'reading:expand:spoilers': false,
      }
    },
  )

  app.get(
    '/api/v1/markers',
    {
      config: { scope: 'read:statuses' },
      schema: {
        tags: ['mastodon'],
        description: 'Where the person stopped reading their home timeline and notifications, for every app of theirs.',
        querystring: MarkersQuerySchema,
        response: { 200: MarkersSchema, ...ERROR_REPLIES },
      },
    },
    async (request) => {
      const timelines = [...asArray(request.query.timeline), ...asArray(request.query['timeline[]'])]
      return markersOf(await services.markers.get(request.user._id, timelines))
    },
  )

  app.post(
    '/api/v1/markers',
    {
      config: { scope: 'write:statuses' },
      schema: {
        tags: ['mastodon'],
        description: 'Moves the markers given; each version rises by one.',
        body: MarkersBodySchema,
        response: { 200: MarkersSchema, ...ERROR_REPLIES },
      },
    },
    async (request) => {
      const body = request.body
      const home = body.home?.last_read_id ?? body['home[last_read_id]']
      const notifications = body.notifications?.last_read_id ?? body['notifications[last_read_id]']
      const changes = {
        ...(home === undefined ? {} : { home }),
        ...(notifications === undefined ? {} : { notifications }),
      }
      return markersOf(await services.markers.set(request.user._id, changes))
    },
  )

  app.get(
    '/api/v1/custom_emojis',
    {
      schema: {
        tags: ['mastodon'],
        description: "The community's custom emoji, by shortcode.",
        response: { 200: Type.Array(CustomEmojiSchema), ...ERROR_REPLIES },
      },
    },
    async () =>
      mastodonEmojis(
        publicUrl,
        (await services.customEmojis.list()).map((emoji) => ({ shortcode: emoji._id, url: emoji.url })),
      ),
  )
}

export default routes
