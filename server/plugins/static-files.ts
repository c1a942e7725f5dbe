import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import fastifyStatic from '@fastify/static'
import type { FastifyInstance } from 'fastify'
import { errorBody, MSG } from '../errors.js'
import type { MediaStorage } from '../media/media-storage.js'
import { MEDIA_HEADERS, PUBLIC_IMAGE_POLICY, registerStoredMedia } from './stored-media.js'

/**
 * Serves uploads at /media/ (a folder's as static files, a bucket's through stored-media.ts) and the
 * built client at /, with the SPA fallback: a GET that asks for HTML and matches nothing gets index.html, while /api and /media keep their JSON 404s. The client's
 * files go out as the brotli or gzip copy made at build time (scripts/client-build/compress.ts) when the
 * browser accepts it, so nothing is compressed per request; uploads are images and go out as they are.
 */
export async function registerStaticFiles(
  app: FastifyInstance,
  { clientDir, media }: { clientDir: string; media: MediaStorage },
) {
  if (media.localDir === undefined) await registerStoredMedia(app, media)
  else
    await app.register(fastifyStatic, {
      root: media.localDir,
      prefix: '/media/',
      decorateReply: false,
      wildcard: true,
      dotfiles: 'ignore',
      index: false,
      setHeaders: (res) => {
        for (const [name, value] of Object.entries(MEDIA_HEADERS)) res.header(name, value)
      },
    })

  const hasClient = existsSync(path.join(clientDir, 'index.html'))
  const avatarsDir = path.join(path.resolve(clientDir), 'avatars') + path.sep
  if (hasClient) {
    await app.register(fastifyStatic, {
      root: clientDir,
      prefix: '/',
      wildcard: false,
      index: ['index.html'],
      preCompressed: true,
      // The copies are picked by accept-encoding for their original's URL; they need no URL of their own.
      globIgnore: ['**/*.br', '**/*.gz'],
      setHeaders: (res, file) => {
        const hashed = file.includes(`${path.sep}assets${path.sep}`)
        res.header('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache')
        if (file.startsWith(avatarsDir))
          for (const [name, value] of Object.entries(PUBLIC_IMAGE_POLICY)) res.header(name, value)
      },
    })
  }

  app.setNotFoundHandler((request, reply) => {
    const isApp = !request.url.startsWith('/api/') && request.url !== '/api' && !request.url.startsWith('/media/')
    const wantsHtml = (request.headers.accept ?? '').includes('text/html')
    if (hasClient && isApp && (request.method === 'GET' || request.method === 'HEAD') && wantsHtml) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html')
    }
    return reply.code(404).send(errorBody(404, MSG.routeNotFound))
  })
}

/** The built client's index.html, or undefined when the client has not been built. */
export async function readClientPage(clientDir: string): Promise<string | undefined> {
  const file = path.join(clientDir, 'index.html')
  return existsSync(file) ? readFile(file, 'utf8') : undefined
}
