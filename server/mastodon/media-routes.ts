import type { Multipart } from '@fastify/multipart'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import type { FastifyRequest } from 'fastify'
import { MSG, badRequest } from '../errors.js'
import { MAX_UPLOAD_BYTES } from '../schemas/media.js'
import type { AttachmentFields, MediaAttachmentRecord } from '../services/media-attachments.js'
import { uploadError } from '../services/media.js'
import { ERROR_REPLIES, recordNotFound } from './errors.js'
import type { MastodonOptions } from './options.js'
import { imageAttachment } from './status-entity.js'
import { MediaAttachmentSchema } from './status-schemas.js'

const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) })
const OneAttachment = { 200: MediaAttachmentSchema, ...ERROR_REPLIES }
const FieldsSchema = Type.Object({
  description: Type.Optional(Type.String()),
  focus: Type.Optional(Type.String({ maxLength: 100 })),
})

/** The file, its description and focal point; a thumbnail or anything more is more than an image upload holds. */
const LIMITS = { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 2, parts: 3, headerPairs: 50 }

/**
 * Media (DECISIONS §13): an image uploaded on its own, through the media service as POST /api/media (its
 * checks, limits and storage), kept under an id its uploader alone may read, describe and attach with
 * `media_ids` when posting. Both versions store the image before they answer, so v2 answers 200 as well.
 */
const routes: FastifyPluginAsyncTypebox<MastodonOptions> = async (app, { services, publicUrl }) => {
  const entityOf = (record: MediaAttachmentRecord) => imageAttachment(record, publicUrl)

  /** Reads the form: fields before the file or after it, one file under `file`. */
  async function upload(request: FastifyRequest) {
    const parts = request.parts({ limits: LIMITS })
    const fields: AttachmentFields = {}
    const next = (): Promise<Multipart | undefined> =>
      parts.next().then(
        (step) => (step.done ? undefined : step.value),
        (error: unknown) => Promise.reject(uploadError(error)),
      )
    const take = (part: Multipart) => {
      if (part.type === 'file') throw badRequest(MSG.uploadExtraPart)
      if (part.fieldname === 'description' || part.fieldname === 'focus') fields[part.fieldname] = String(part.value)
    }
    let part = await next()
    for (; part?.type === 'field'; part = await next()) take(part)
    if (part?.type !== 'file' || part.fieldname !== 'file') throw badRequest(MSG.noFile)
    const file = part.file
    const record = await services.mediaAttachments.upload(
      request.user._id,
      {
        stream: file,
        truncated: () => file.truncated,
        finish: async () => {
          for (let after = await next(); after; after = await next()) take(after)
        },
      },
      () => fields,
    )
    return entityOf(record)
  }

  for (const version of ['v1', 'v2']) {
    app.post(
      `/api/${version}/media`,
      {
        config: { scope: 'write:media' },
        schema: {
          tags: ['mastodon'],
          description:
            'Uploads an image as multipart/form-data (`file`, with `description` and `focus` "x,y" optional), with the checks and limits of POST /api/media; answers its MediaAttachment, to post with `media_ids`.',
          consumes: ['multipart/form-data'],
          response: OneAttachment,
        },
      },
      async (request) => upload(request),
    )
  }

  app.get(
    '/api/v1/media/:id',
    {
      config: { scope: 'write:media' },
      schema: {
        tags: ['mastodon'],
        description: "One of the person's uploads, for a day after it was made; anyone else's is not found.",
        params: IdParams,
        response: OneAttachment,
      },
    },
    async (request) => {
      const record = await services.mediaAttachments.own(request.user._id, request.params.id)
      if (!record) throw recordNotFound()
      return entityOf(record)
    },
  )

  app.put(
    '/api/v1/media/:id',
    {
      config: { scope: 'write:media' },
      schema: {
        tags: ['mastodon'],
        description:
          "Changes the description (alt text, which a post showing it takes) or focal point of one of the person's uploads.",
        params: IdParams,
        body: FieldsSchema,
        response: OneAttachment,
      },
    },
    async (request) => {
      const record = await services.mediaAttachments.update(request.user._id, request.params.id, request.body)
      if (!record) throw recordNotFound()
      return entityOf(record)
    },
  )
}

export default routes
