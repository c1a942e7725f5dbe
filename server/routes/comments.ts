import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { EmptyObjectSchema, PageQuerySchema } from '../schemas/common.js'
import {
  CommentDataSchema,
  CommentParamsSchema,
  CommentsReplySchema,
  CommentWriteReplySchema,
  PostIdParamsSchema,
  type Post,
} from '../schemas/posts.js'
import { ERRORS, emptyBody, me, unwrap, viewer, writeReply, type RouteOptions } from './shared.js'

const routes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { services }) => {
  const { comments, posts } = services
  const tags = ['comments']
  const writeResponse = { 201: CommentWriteReplySchema, ...ERRORS }
  const textWrite = { onRequest: [app.authenticate], preValidation: unwrap('commentData') }
  const bare = { onRequest: [app.authenticate], preValidation: emptyBody }
  const bareSchema = { tags, params: CommentParamsSchema, body: EmptyObjectSchema, response: writeResponse }

  /** Every comment write answers alike (docs/api-contract.md §2): `{ posts, post, comments }`, or `{ post }` when minimal. */
  const commentReply = (request: FastifyRequest, reply: FastifyReply, result: { post: Post }) =>
    writeReply(request, reply, posts, result, { comments: result.post.comments })

  app.get(
    '/comments/:postId',
    {
      onRequest: [app.identify],
      schema: {
        tags,
        params: PostIdParamsSchema,
        querystring: PageQuerySchema,
        response: { 200: CommentsReplySchema, ...ERRORS },
      },
    },
    async (request) => comments.list(request.params.postId, request.query, viewer(request)),
  )

  app.post(
    '/comments/add/:postId',
    { ...textWrite, schema: { tags, params: PostIdParamsSchema, body: CommentDataSchema, response: writeResponse } },
    async (request, reply) =>
      commentReply(
        request,
        reply,
        await comments.add(me(request), request.params.postId, request.body.text, request.body.replyTo),
      ),
  )

  app.post(
    '/comments/edit/:postId/:commentId',
    { ...textWrite, schema: { tags, params: CommentParamsSchema, body: CommentDataSchema, response: writeResponse } },
    async (request, reply) => {
      const { postId, commentId } = request.params
      return commentReply(request, reply, await comments.edit(me(request), postId, commentId, request.body.text))
    },
  )

  // POST as in the original API; DELETE on the same path for clients that prefer it.
  app.route({
    method: ['POST', 'DELETE'],
    url: '/comments/delete/:postId/:commentId',
    ...bare,
    schema: bareSchema,
    handler: async (request, reply) => {
      const { postId, commentId } = request.params
      return commentReply(request, reply, await comments.remove(me(request), postId, commentId))
    },
  })

  app.post('/comments/upvote/:postId/:commentId', { ...bare, schema: bareSchema }, async (request, reply) => {
    const { postId, commentId } = request.params
    return commentReply(request, reply, await comments.upvote(me(request), postId, commentId))
  })
  app.post('/comments/downvote/:postId/:commentId', { ...bare, schema: bareSchema }, async (request, reply) => {
    const { postId, commentId } = request.params
    return commentReply(request, reply, await comments.downvote(me(request), postId, commentId))
  })
}

export default routes
