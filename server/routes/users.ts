import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { EmptyObjectSchema, LimitSchema, ListQuerySchema, PageQuerySchema } from '../schemas/common.js'
import { BookmarksReplySchema, FeedReplySchema, IdParamsSchema } from '../schemas/posts.js'
import {
  FollowReplySchema,
  UserEditSchema,
  UserIdParamsSchema,
  UserReplySchema,
  UserLookupParamsSchema,
  UsernameParamsSchema,
  UsersReplySchema,
} from '../schemas/users.js'
import { sendPostList } from './post-list-reply.js'
import { ERRORS, emptyBody, me, readerOf, unwrap, viewer, type RouteOptions } from './shared.js'

const SuggestionsQuerySchema = Type.Object({ limit: Type.Optional(LimitSchema) })

const routes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { services }) => {
  const { users, posts } = services
  const write = { onRequest: [app.authenticate], preValidation: emptyBody }
  const tags = ['users']

  app.get(
    '/users',
    {
      onRequest: [app.identify],
      schema: { tags, querystring: PageQuerySchema, response: { 200: UsersReplySchema, ...ERRORS } },
    },
    async (request) => users.list(viewer(request), request.query),
  )

  // Declared before /users/:username so that these names are never read as usernames.
  app.get(
    '/users/suggestions',
    {
      onRequest: [app.authenticate],
      schema: { tags, querystring: SuggestionsQuerySchema, response: { 200: UsersReplySchema, ...ERRORS } },
    },
    async (request) => users.suggestions(me(request), request.query.limit ?? 5),
  )

  app.get(
    '/users/bookmark',
    {
      onRequest: [app.authenticate],
      schema: { tags, querystring: ListQuerySchema, response: { 200: BookmarksReplySchema, ...ERRORS } },
    },
    async (request) => users.bookmarks(me(request), request.query, readerOf(request)),
  )

  app.get(
    '/users/:username',
    {
      onRequest: [app.identify],
      schema: { tags, params: UserLookupParamsSchema, response: { 200: UserReplySchema, ...ERRORS } },
    },
    async (request) => users.get(request.params.username, viewer(request)),
  )

  app.get(
    '/users/:username/likes',
    {
      onRequest: [app.identify],
      schema: {
        tags,
        description: 'The posts the user likes, the most recent like first.',
        params: UsernameParamsSchema,
        querystring: ListQuerySchema,
        response: { 200: FeedReplySchema, ...ERRORS },
      },
    },
    async (request, reply) =>
      sendPostList(reply, await posts.likedBy(request.params.username, request.query, readerOf(request))),
  )

  app.post(
    '/users/edit',
    {
      onRequest: [app.authenticate],
      preValidation: unwrap('userData'),
      schema: { tags, body: UserEditSchema, response: { 201: UserReplySchema, ...ERRORS } },
    },
    async (request, reply) => reply.code(201).send(await users.edit(me(request), request.body)),
  )

  const followSchema = {
    tags,
    params: UserIdParamsSchema,
    body: EmptyObjectSchema,
    response: { 200: FollowReplySchema, ...ERRORS },
  }
  app.post('/users/follow/:id', { ...write, schema: followSchema }, async (request) =>
    users.follow(me(request), request.params.id),
  )
  app.post('/users/unfollow/:id', { ...write, schema: followSchema }, async (request) =>
    users.unfollow(me(request), request.params.id),
  )

  const bookmarkSchema = {
    tags,
    params: IdParamsSchema,
    body: EmptyObjectSchema,
    response: { 200: BookmarksReplySchema, ...ERRORS },
  }
  app.post('/users/bookmark/:id', { ...write, schema: bookmarkSchema }, async (request) =>
    users.addBookmark(me(request), request.params.id),
  )
  app.post('/users/remove-bookmark/:id', { ...write, schema: bookmarkSchema }, async (request) =>
    users.removeBookmark(me(request), request.params.id),
  )
}

export default routes
