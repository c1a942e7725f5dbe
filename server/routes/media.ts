import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { Multipart } from '@fastify/multipart'
import { MSG, badRequest } from '../errors.js'
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
        description:
          'Uploads one image as multipart/form-data: one part, the file in the field `file`; a second file or a text field is a 400. ' +
          'JPEG, PNG, GIF or WebP by content; at most 20971520 bytes, 16384 pixels a side and 50 megapixels. The image is stored ' +
          're-encoded in its own format, upright by its EXIF orientation and without metadata (EXIF, GPS); animations stay animated. ' +
          'Answers its URL and its stored size in pixels, after orientation (one frame of an animation).',
        consumes: ['multipart/form-data'],
        response: { 201: MediaReplySchema, ...ERRORS },
      },
    },
    async (request, reply) => {
      const parts = request.parts()
      const nextPart = (): Promise<Multipart | undefined> =>
        parts.next().then(
          (next) => (next.done ? undefined : next.value),
          (error: unknown) => Promise.reject(uploadError(error)),
        )
      const part = await nextPart()
      if (part?.type !== 'file' || part.fieldname !== 'file') throw badRequest(MSG.noFile)
      const saved = await services.media.save({
        stream: part.file,
        truncated: () => part.file.truncated,
        finish: async () => {
          if (await nextPart()) throw badRequest(MSG.uploadExtraPart)
        },
      })
      return reply.code(201).send(saved)
    },
  )
}

export default routes
