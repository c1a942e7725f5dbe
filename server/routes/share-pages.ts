import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { registerCompression } from '../plugins/compression.js'
import type { LinkPreview, LinkPreviews } from '../services/link-previews.js'
import { pageWithPreview } from './preview-html.js'

export interface SharePagesOptions {
  previews: LinkPreviews
  /** The built client's index.html. */
  indexHtml: string
  /** Visitors without an account may read these pages (PUBLIC_READ). */
  publicRead: boolean
}

/**
 * The pages people share (a post, a profile, a tag): the client's page as the fallback sends it, with the
 * tags a chat app's unfurler reads in its head. A page whose post or user is not there answers 404 with
 * the plain page, which the client draws as its own "not found".
 */
export default async function sharePages(app: FastifyInstance, { previews, indexHtml, publicRead }: SharePagesOptions) {
  await registerCompression(app)
  const page =
    (read: (params: Record<string, string>) => LinkPreview | undefined | Promise<LinkPreview | undefined>) =>
    async (request: FastifyRequest<{ Params: Record<string, string> }>, reply: FastifyReply) => {
      const preview = await read(request.params)
      const origin = `${request.protocol}://${request.host}`
      const { pathname } = new URL(request.url, origin)
      const pageUrl = `${origin}${pathname}`
      return reply
        .code(preview ? 200 : 404)
        .header('cache-control', 'no-cache')
        .type('text/html; charset=utf-8')
        .send(pageWithPreview(indexHtml, { preview, pageUrl, origin, publicRead }))
    }
  const hidden = { schema: { hide: true } }
  app.get(
    '/post-detail/:postId',
    hidden,
    page(({ postId = '' }) => previews.post(postId)),
  )
  app.get(
    '/profile/:username',
    hidden,
    page(({ username = '' }) => previews.profile(username)),
  )
  app.get(
    '/tag/:tag',
    hidden,
    page(({ tag = '' }) => previews.tag(tag)),
  )
}
