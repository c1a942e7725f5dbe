import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { accountOf } from './account-entity.js'
import { ERROR_REPLIES, recordNotFound } from './errors.js'
import type { MastodonOptions } from './options.js'
import { PageQuerySchema, pageWindow } from './paging.js'
import { relationshipOf, relationshipsOf, RelationshipSchema } from './relationships.js'
import { AccountSchema } from './schemas.js'
import { readerIdOf, sendPage, statusesOf } from './status-page.js'
import { StatusSchema } from './status-schemas.js'

const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) })
const Ids = Type.Union([Type.String({ maxLength: 100 }), Type.Array(Type.String({ maxLength: 100 }), { maxItems: 40 })])
const Flag = Type.Optional(Type.Union([Type.Boolean(), Type.String({ maxLength: 8 })]))
const on = (flag: boolean | string | undefined) => flag === true || flag === 'true' || flag === '1'
/** A mute's length in seconds, as a number or, from a form, as digits; the service keeps its limits. */
const MuteFormSchema = Type.Object({
  duration: Type.Optional(Type.Union([Type.Integer(), Type.String({ pattern: '^[0-9]{1,12}$' })])),
})

/** People: their accounts, posts and follows, and where the signed-in person stands with them. */
const routes: FastifyPluginAsyncTypebox<MastodonOptions> = async (app, { services, publicUrl }) => {
  const accountFor = async (key: string, readerId: string | undefined) =>
    accountOf((await services.users.get(key, readerId)).user, publicUrl)

  app.get(
    '/api/v1/accounts/lookup',
    {
      onRequest: [app.identify],
      schema: {
        tags: ['mastodon'],
        description: "An account by its username (`acct`, with or without this server's domain).",
        querystring: Type.Object({ acct: Type.String({ minLength: 1, maxLength: 300 }) }),
        response: { 200: AccountSchema, ...ERROR_REPLIES },
      },
    },
    async (request) => {
      const [name = '', domain] = request.query.acct.replace(/^@/, '').split('@')
      const ours = domain === undefined || domain === new URL(publicUrl).host
      if (!ours || name === '') throw recordNotFound()
      return accountFor(name, readerIdOf(request))
    },
  )

  app.get(
    '/api/v1/accounts/relationships',
    {
      config: { scope: 'read:follows' },
      schema: {
        tags: ['mastodon'],
        description: 'Where the person stands with each account named: follows, requests, blocks and mutes.',
        querystring: Type.Object({ id: Type.Optional(Ids), 'id[]': Type.Optional(Ids) }),
        response: { 200: Type.Array(RelationshipSchema), ...ERROR_REPLIES },
      },
    },
    async (request) => {
      const ids = [request.query.id ?? [], request.query['id[]'] ?? []].flat()
      return relationshipsOf(services, request.user._id, [...new Set(ids)])
    },
  )

  app.get(
    '/api/v1/accounts/:id',
    {
      onRequest: [app.identify],
      schema: {
        tags: ['mastodon'],
        description: 'An account, as the reader may see it.',
        params: IdParams,
        response: { 200: AccountSchema, ...ERROR_REPLIES },
      },
    },
    async (request) => accountFor(request.params.id, readerIdOf(request)),
  )

  app.get(
    '/api/v1/accounts/:id/statuses',
    {
      onRequest: [app.identify],
      schema: {
        tags: ['mastodon'],
        description: "An account's posts as its profile shows them to the reader; `pinned` lists the pinned ones.",
        params: IdParams,
        querystring: Type.Composite([PageQuerySchema, Type.Object({ pinned: Flag, exclude_replies: Flag })]),
        response: { 200: Type.Array(StatusSchema), ...ERROR_REPLIES },
      },
    },
    async (request, reply) => {
      const readerId = readerIdOf(request)
      const { user } = await services.users.get(request.params.id, readerId)
      const reader = { userId: readerId, compact: false }
      const posts = on(request.query.pinned)
        ? request.query.max_id === undefined
          ? (await services.posts.byUser(user.username, { limit: 1 }, reader)).posts.filter((post) => post.pinned)
          : []
        : (await services.timelines.account(user.username, readerId, pageWindow(request.query))).map(
            (entry) => entry.post,
          )
      return sendPage(reply, request, publicUrl, await statusesOf(services, publicUrl, posts, readerId))
    },
  )

  for (const list of ['followers', 'following'] as const) {
    app.get(
      `/api/v1/accounts/:id/${list}`,
      {
        onRequest: [app.identify],
        schema: {
          tags: ['mastodon'],
          description: `The accounts ${list === 'followers' ? 'following this one' : 'this one follows'}, as the reader may see them.`,
          params: IdParams,
          querystring: Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 1 })) }),
          response: { 200: Type.Array(AccountSchema), ...ERROR_REPLIES },
        },
      },
      async (request) => {
        const readerId = readerIdOf(request)
        const { user } = await services.users.get(request.params.id, readerId)
        const limit = Math.min(request.query.limit ?? 40, 80)
        const people = user[list].slice(0, limit)
        return Promise.all(people.map((person) => accountFor(person._id, readerId)))
      },
    )
  }

  const changes = [
    { path: 'follow', scope: 'write:follows', change: services.users.follow },
    { path: 'unfollow', scope: 'write:follows', change: services.users.unfollow },
    {
      path: 'block',
      scope: 'write:blocks',
      change: (me: string, other: string) => services.relations.block(me, other),
    },
    { path: 'unblock', scope: 'write:blocks', change: services.relations.unblock },
    { path: 'unmute', scope: 'write:mutes', change: services.relations.unmute },
  ] as const
  for (const { path, scope, change } of changes) {
    app.post(
      `/api/v1/accounts/:id/${path}`,
      {
        config: { scope },
        schema: {
          tags: ['mastodon'],
          description: `${path[0]?.toUpperCase() ?? ''}${path.slice(1)}s the account; answers where the person then stands with it.`,
          params: IdParams,
          response: { 200: RelationshipSchema, ...ERROR_REPLIES },
        },
      },
      async (request) => {
        const meId = request.user._id
        const { user } = await services.users.get(request.params.id, meId)
        const before = await relationshipOf(services, meId, user._id)
        // As Mastodon does, asking for what already holds changes nothing and is no error.
        const holds: Record<typeof path, boolean> = {
          follow: before.following || before.requested,
          unfollow: !before.following && !before.requested,
          block: before.blocking,
          unblock: !before.blocking,
          unmute: !before.muting,
        }
        if (!holds[path]) await change(meId, user._id)
        return relationshipOf(services, meId, user._id)
      },
    )
  }

  app.post(
    '/api/v1/accounts/:id/mute',
    {
      config: { scope: 'write:mutes' },
      // The apps send no body at all for a mute for ever.
      preValidation: async (request) => {
        request.body ??= {}
      },
      schema: {
        tags: ['mastodon'],
        description:
          "Mutes the account for `duration` seconds, or for ever without one (or with 0); muting again sets the end anew. A mute hides the account's posts and notifications alike. Answers where the person then stands with it.",
        params: IdParams,
        body: MuteFormSchema,
        response: { 200: RelationshipSchema, ...ERROR_REPLIES },
      },
    },
    async (request) => {
      const meId = request.user._id
      const { user } = await services.users.get(request.params.id, meId)
      const { duration } = request.body
      await services.relations.mute(meId, user._id, duration === undefined ? {} : { duration: Number(duration) })
      return relationshipOf(services, meId, user._id)
    },
  )
}

export default routes
