import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { EmptyObjectSchema, PageQuerySchema } from '../schemas/common.js'
import {
  CommentDataSchema,
  CommentParamsSchema,
  CommentsReplySchema,
  PostIdParamsSchema,
  PostWriteReplySchema,
} from '../schemas/posts.js'
import { ERRORS, emptyBody, me, unwrap, writeReply, type RouteOptions } from './shared.js'

const routes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { services }) => {
  const { comments, posts } = services
  const tags = ['comments']
  const writeResponse = { 201: PostWriteReplySchema, ...ERRORS }
  const textWrite = { onRequest: [app.authenticate], preValidation: unwrap('commentData') }
  const bare = { onRequest: [app.authenticate], preValidation: emptyBody }

  app.get(
    '/comments/:postId',
    { schema: { tags, params: PostIdParamsSchema, querystring: PageQuerySchema, response: { 200: CommentsReplySchema, ...ERRORS } } },
    async (request) => comments.list(request.params.postId, request.query),
  )

  app.post(
    '/comments/add/:postId',
    { ...textWrite, schema: { tags, params: PostIdParamsSchema, body: CommentDataSchema, response: writeResponse } },
    async (request, reply) =>
      writeReply(request, reply, posts, await comments.add(me(request), request.params.postId, request.body.text)),
  )

  app.post(
    '/comments/edit/:postId/:commentId',
    { ...textWrite, schema: { tags, params: CommentParamsSchema, body: CommentDataSchema, response: writeResponse } },
    async (request, reply) => {
      const { postId, commentId } = request.params
      return writeReply(request, reply, posts, await comments.edit(me(request), postId, commentId, request.body.text))
    },
  )

  // POST as in the original API; DELETE on the same path for clients that prefer it.
  app.route({
    method: ['POST', 'DELETE'],
    url: '/comments/delete/:postId/:commentId',
    ...bare,
    schema: { tags, params: CommentParamsSchema, body: EmptyObjectSchema, response: writeResponse },
    handler: async (request, reply) => {
      const { postId, commentId } = request.params
      return writeReply(request, reply, posts, await comments.remove(me(request), postId, commentId))
    },
  })

  const voteSchema = { tags, params: CommentParamsSchema, body: EmptyObjectSchema, response: { 201: CommentsReplySchema, ...ERRORS } }
  app.post('/comments/upvote/:postId/:commentId', { ...bare, schema: voteSchema }, async (request, reply) => {
    const { postId, commentId } = request.params
    const { post } = await comments.upvote(me(request), postId, commentId)
    return reply.code(201).send({ comments: post.comments })
  })
  app.post('/comments/downvote/:postId/:commentId', { ...bare, schema: voteSchema }, async (request, reply) => {
    const { postId, commentId } = request.params
    const { post } = await comments.downvote(me(request), postId, commentId)
    return reply.code(201).send({ comments: post.comments })
  })
}

export default routes
