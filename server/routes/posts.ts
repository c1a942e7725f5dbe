import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { EmptyObjectSchema, ListQuerySchema, PageQuerySchema } from '../schemas/common.js'
import {
  IdParamsSchema,
  LikersReplySchema,
  PostDataSchema,
  PostIdParamsSchema,
  PostReplySchema,
  PostsReplySchema,
  PostWriteReplySchema,
  UserPostsQuerySchema,
} from '../schemas/posts.js'
import { PostsAuthorParamsSchema } from '../schemas/users.js'
import { CreatePostReplySchema, PostHistoryReplySchema } from '../schemas/post-plans.js'
import { sendPostList } from './post-list-reply.js'
import { ERRORS, emptyBody, me, readerOf, unwrap, viewer, writeReply, type RouteOptions } from './shared.js'

const routes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { services }) => {
  const { posts } = services
  const tags = ['posts']
  const writeResponse = { 201: PostWriteReplySchema, ...ERRORS }
  const idWrite = { tags, params: IdParamsSchema, body: EmptyObjectSchema, response: writeResponse }

  app.get(
    '/posts',
    {
      onRequest: [app.identify],
      schema: { tags, querystring: ListQuerySchema, response: { 200: PostsReplySchema, ...ERRORS } },
    },
    async (request, reply) => sendPostList(reply, await posts.list(request.query, readerOf(request))),
  )

  app.get(
    '/posts/:postId',
    {
      onRequest: [app.identify],
      schema: { tags, params: PostIdParamsSchema, response: { 200: PostReplySchema, ...ERRORS } },
    },
    async (request) => posts.get(request.params.postId, viewer(request)),
  )

  app.get(
    '/posts/:postId/likes',
    {
      onRequest: [app.identify],
      schema: {
        tags,
        description: 'Who likes the post, the most recent like first, 20 a page unless `limit` says otherwise.',
        params: PostIdParamsSchema,
        querystring: PageQuerySchema,
        response: { 200: LikersReplySchema, ...ERRORS },
      },
    },
    async (request) => posts.likers(request.params.postId, request.query, viewer(request)),
  )

  app.get(
    '/posts/user/:username',
    {
      onRequest: [app.identify],
      schema: {
        tags,
        params: PostsAuthorParamsSchema,
        querystring: UserPostsQuerySchema,
        response: { 200: PostsReplySchema, ...ERRORS },
      },
    },
    async (request, reply) =>
      sendPostList(reply, await posts.byUser(request.params.username, request.query, readerOf(request))),
  )

  app.post(
    '/posts',
    {
      onRequest: [app.authenticate],
      preValidation: unwrap('postData'),
      schema: {
        tags,
        description:
          'Writes a post; with `scheduledAt` (at least 5 minutes ahead) keeps it instead, to be published then, and answers `{ scheduledPost }`.',
        body: PostDataSchema,
        response: { 201: CreatePostReplySchema, ...ERRORS },
      },
    },
    async (request, reply) => {
      const { scheduledAt } = request.body
      if (scheduledAt !== undefined)
        return reply
          .code(201)
          .send(await services.scheduledPosts.schedule(me(request), { ...request.body, scheduledAt }))
      return writeReply(request, reply, posts, await posts.create(me(request), request.body))
    },
  )

  app.get(
    '/posts/:postId/history',
    {
      onRequest: [app.identify],
      schema: {
        tags,
        description:
          'Every version of the post, the first first and the current one last, to whoever may read the post.',
        params: PostIdParamsSchema,
        response: { 200: PostHistoryReplySchema, ...ERRORS },
      },
    },
    async (request) => posts.history(request.params.postId, viewer(request)),
  )

  app.post(
    '/posts/edit/:id',
    {
      onRequest: [app.authenticate],
      preValidation: unwrap('postData'),
      schema: { tags, params: IdParamsSchema, body: PostDataSchema, response: writeResponse },
    },
    async (request, reply) =>
      writeReply(request, reply, posts, await posts.edit(me(request), request.params.id, request.body)),
  )

  app.delete(
    '/posts/:id',
    { onRequest: [app.authenticate], schema: { tags, params: IdParamsSchema, response: writeResponse } },
    async (request, reply) => writeReply(request, reply, posts, await posts.remove(me(request), request.params.id)),
  )

  const write = { onRequest: [app.authenticate], preValidation: emptyBody, schema: idWrite }
  app.post('/posts/like/:id', write, async (request, reply) =>
    writeReply(request, reply, posts, await posts.like(me(request), request.params.id)),
  )
  app.post('/posts/dislike/:id', write, async (request, reply) =>
    writeReply(request, reply, posts, await posts.dislike(me(request), request.params.id)),
  )

  // Reposts answer as likes do (201); pins are changes, which answer 200 (DECISIONS §11).
  const repostWrite = {
    ...write,
    schema: { ...idWrite, response: { 201: PostReplySchema, ...ERRORS } },
  }
  app.post('/posts/repost/:id', repostWrite, async (request, reply) =>
    reply.code(201).send(await posts.repost(me(request), request.params.id)),
  )
  app.post('/posts/unrepost/:id', repostWrite, async (request, reply) =>
    reply.code(201).send(await posts.unrepost(me(request), request.params.id)),
  )
  const pinWrite = { ...write, schema: { ...idWrite, response: { 200: PostReplySchema, ...ERRORS } } }
  app.post('/posts/pin/:id', pinWrite, async (request) => posts.pin(me(request), request.params.id))
  app.post('/posts/unpin/:id', pinWrite, async (request) => posts.unpin(me(request), request.params.id))
}

export default routes
