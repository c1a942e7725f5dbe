import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type, type Static } from '@sinclair/typebox'
import type { ListRecord } from '../services/lists.js'
import { accountsOf } from './account-entity.js'
import { ERROR_REPLIES, orNotFound } from './errors.js'
import type { MastodonOptions } from './options.js'
import { PageQuerySchema, pageWindow } from './paging.js'
import { AccountSchema } from './schemas.js'
import { sendTimeline } from './status-page.js'
import { StatusSchema } from './status-schemas.js'

const ListSchema = Type.Object(
  { id: Type.String(), title: Type.String(), replies_policy: Type.String(), exclusive: Type.Boolean() },
  { title: 'MastodonList' },
)
const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) })
const Flag = Type.Union([Type.Boolean(), Type.String({ maxLength: 8 })])
const ListBody = Type.Object({
  title: Type.Optional(Type.String({ maxLength: 1000 })),
  replies_policy: Type.Optional(Type.Union([Type.Literal('followed'), Type.Literal('list'), Type.Literal('none')])),
  exclusive: Type.Optional(Flag),
})
const AccountIds = Type.Object({
  account_ids: Type.Union([
    Type.Array(Type.String({ maxLength: 100 }), { maxItems: 500 }),
    Type.String({ maxLength: 100 }),
  ]),
})
const on = (flag: boolean | string | undefined) =>
  flag === undefined ? undefined : flag === true || flag === 'true' || flag === '1'
const idsOf = ({ account_ids }: Static<typeof AccountIds>) => (Array.isArray(account_ids) ? account_ids : [account_ids])
const inputOf = (body: Static<typeof ListBody>) => ({
  title: body.title,
  repliesPolicy: body.replies_policy,
  exclusive: on(body.exclusive),
})

const listEntity = (list: ListRecord) => ({
  id: list._id,
  title: list.title,
  replies_policy: list.repliesPolicy,
  exclusive: list.exclusive,
})

/**
 * Lists (DECISIONS §15), over the lists service: the person's own alone, anyone else's answering 404 as an
 * unknown one does. A list's timeline reads as the home timeline does, paged by status ids.
 */
const routes: FastifyPluginAsyncTypebox<MastodonOptions> = async (app, { services, publicUrl }) => {
  const { lists } = services
  const read = { config: { scope: 'read:lists' } } as const
  const write = { config: { scope: 'write:lists' } } as const
  const tags = ['mastodon']
  const one = { 200: ListSchema, ...ERROR_REPLIES }

  app.get(
    '/api/v1/lists',
    {
      ...read,
      schema: { tags, description: "The person's lists.", response: { 200: Type.Array(ListSchema), ...ERROR_REPLIES } },
    },
    async (request) => (await lists.list(request.user._id)).map(listEntity),
  )

  app.post(
    '/api/v1/lists',
    { ...write, schema: { tags, description: 'Makes a list.', body: ListBody, response: one } },
    async (request) => listEntity(await lists.create(request.user._id, inputOf(request.body))),
  )

  app.get(
    '/api/v1/lists/:id',
    { ...read, schema: { tags, description: 'One list.', params: IdParams, response: one } },
    async (request) => listEntity(await orNotFound(lists.get(request.user._id, request.params.id))),
  )

  app.put(
    '/api/v1/lists/:id',
    {
      ...write,
      schema: { tags, description: 'Renames or changes a list.', params: IdParams, body: ListBody, response: one },
    },
    async (request) =>
      listEntity(await orNotFound(lists.update(request.user._id, request.params.id, inputOf(request.body)))),
  )

  app.delete(
    '/api/v1/lists/:id',
    {
      ...write,
      schema: {
        tags,
        description: 'Deletes a list.',
        params: IdParams,
        response: { 200: Type.Object({}), ...ERROR_REPLIES },
      },
    },
    async (request) => {
      await orNotFound(lists.remove(request.user._id, request.params.id))
      return {}
    },
  )

  app.get(
    '/api/v1/lists/:id/accounts',
    {
      ...read,
      schema: {
        tags,
        description: 'The people on the list whom its owner follows.',
        params: IdParams,
        querystring: PageQuerySchema,
        response: { 200: Type.Array(AccountSchema), ...ERROR_REPLIES },
      },
    },
    async (request) => {
      const userId = request.user._id
      const ids = await orNotFound(lists.members(userId, request.params.id))
      return accountsOf(services, publicUrl, ids, userId)
    },
  )

  app.post(
    '/api/v1/lists/:id/accounts',
    {
      ...write,
      schema: {
        tags,
        description: 'Adds people the owner follows to the list.',
        params: IdParams,
        body: AccountIds,
        response: { 200: Type.Object({}), ...ERROR_REPLIES },
      },
    },
    async (request) => {
      await orNotFound(lists.addMembers(request.user._id, request.params.id, idsOf(request.body)))
      return {}
    },
  )

  app.delete(
    '/api/v1/lists/:id/accounts',
    {
      ...write,
      schema: {
        tags,
        description: 'Takes people off the list.',
        params: IdParams,
        body: AccountIds,
        response: { 200: Type.Object({}), ...ERROR_REPLIES },
      },
    },
    async (request) => {
      await orNotFound(lists.removeMembers(request.user._id, request.params.id, idsOf(request.body)))
      return {}
    },
  )

  app.get(
    '/api/v1/accounts/:id/lists',
    {
      ...read,
      schema: {
        tags,
        description: "The person's lists that hold the account.",
        params: IdParams,
        response: { 200: Type.Array(ListSchema), ...ERROR_REPLIES },
      },
    },
    async (request) => (await lists.holding(request.user._id, request.params.id)).map(listEntity),
  )

  app.get(
    '/api/v1/timelines/list/:id',
    {
      config: { scope: 'read:lists' },
      schema: {
        tags,
        description: "A list's timeline: its people's posts as the owner's home timeline shows them.",
        params: IdParams,
        querystring: PageQuerySchema,
        response: { 200: Type.Array(StatusSchema), ...ERROR_REPLIES },
      },
    },
    async (request, reply) => {
      const userId = request.user._id
      const entries = await orNotFound(services.timelines.list(userId, request.params.id, pageWindow(request.query)))
      return sendTimeline(reply, request, services, publicUrl, entries, userId)
    },
  )
}

export default routes
