import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { EmptyObjectSchema, PageQuerySchema } from '../schemas/common.js'
import {
  IdParamsSchema,
  PostDataSchema,
  PostIdParamsSchema,
  PostReplySchema,
  PostsReplySchema,
  PostWriteReplySchema,
} from '../schemas/posts.js'
import { UsernameParamsSchema } from '../schemas/users.js'
import { sendPostList } from './post-list-reply.js'
import { ERRORS, emptyBody, me, unwrap, writeReply, type RouteOptions } from './shared.js'

const routes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { services }) => {
  const { posts } = services
  const tags = ['posts']
  const writeResponse = { 201: PostWriteReplySchema, ...ERRORS }
  const idWrite = { tags, params: IdParamsSchema, body: EmptyObjectSchema, response: writeResponse }

  app.get(
    '/posts',
    { schema: { tags, querystring: PageQuerySchema, response: { 200: PostsReplySchema, ...ERRORS } } },
    async (request, reply) => sendPostList(reply, await posts.list(request.query)),
  )

  app.get(
    '/posts/:postId',
    { schema: { tags, params: PostIdParamsSchema, response: { 200: PostReplySchema, ...ERRORS } } },
    async (request) => posts.get(request.params.postId),
  )

  app.get(
    '/posts/user/:username',
    {
      schema: {
        tags,
        params: UsernameParamsSchema,
        querystring: PageQuerySchema,
        response: { 200: PostsReplySchema, ...ERRORS },
      },
    },
    async (request, reply) => sendPostList(reply, await posts.byUser(request.params.username, request.query)),
  )

  app.post(
    '/posts',
    {
      onRequest: [app.authenticate],
      preValidation: unwrap('postData'),
      schema: { tags, body: PostDataSchema, response: writeResponse },
    },
    async (request, reply) => writeReply(request, reply, posts, await posts.create(me(request), request.body)),
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
}

export default routes
