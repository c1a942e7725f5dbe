import type { FastifyInstance } from 'fastify'
import { contentTypeOf, MEDIA_KEY, type MediaStorage } from '../media/media-storage.js'

/**
 * Public images (uploads, the preset avatars) may be shown by pages of other sites: the profiles and posts
 * other servers show of this one's people link them there (DECISIONS §14), as Mastodon apps of other
 * origins do (§13).
 */
export const PUBLIC_IMAGE_POLICY = { 'cross-origin-resource-policy': 'cross-origin' } as const

/** Uploaded files never change (their names are fresh uuids), and are never run as anything but an image. */
export const MEDIA_HEADERS = {
  'cache-control': 'public, max-age=31536000, immutable',
  'x-content-type-options': 'nosniff',
  'content-security-policy': "default-src 'none'; sandbox",
  ...PUBLIC_IMAGE_POLICY,
} as const

/**
 * Serves /media/<key> from storage that is not a folder here (a bucket), streamed as it arrives, with
 * the headers the folder's static files carry. A name that is no upload's is a 404 without asking the bucket.
 */
export async function registerStoredMedia(app: FastifyInstance, media: MediaStorage) {
  app.get<{ Params: { key: string } }>('/media/:key', async (request, reply) => {
    const { key } = request.params
    if (!MEDIA_KEY.test(key)) return reply.callNotFound()
    const object = await media.open(key)
    if (!object) return reply.callNotFound()
    reply.headers(MEDIA_HEADERS).header('content-type', contentTypeOf(key))
    if (object.lastModified) reply.header('last-modified', object.lastModified.toUTCString())
    if (object.etag) {
      reply.header('etag', object.etag)
      if (request.headers['if-none-match'] === object.etag) {
        object.body.destroy()
        return reply.code(304).send()
      }
    }
    return reply.header('content-length', object.size).send(object.body)
  })
}
