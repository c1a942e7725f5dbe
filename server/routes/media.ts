import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { AppError, MSG } from '../errors.js'
import type {} from '@fastify/multipart'
import { MediaReplySchema } from '../schemas/media.js'
import { uploadError } from '../services/media.js'
import { ERRORS, type RouteOptions } from './shared.js'

const routes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { services }) => {
  app.post(
    '/media',
    {
      onRequest: [app.authenticate],
      schema: {
        tags: ['media'],
        description: 'Uploads one image as multipart/form-data, field `file`. JPEG, PNG, GIF or WebP by content; at most 20971520 bytes.',
        consumes: ['multipart/form-data'],
        response: { 201: MediaReplySchema, ...ERRORS },
      },
    },
    async (request, reply) => {
      const file = await request.file().catch((error: unknown) => Promise.reject(uploadError(error)))
      if (!file || file.fieldname !== 'file') throw new AppError(400, MSG.noFile)
      const saved = await services.media.save({ stream: file.file, truncated: () => file.file.truncated })
      return reply.code(201).send(saved)
    },
  )
}

export default routes
