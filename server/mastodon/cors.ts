import type { FastifyInstance } from 'fastify'
import { isMastodonApiPath } from './paths.js'

const ALLOWED_METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS'
/** What a page may read of an answer: paging, limits, the request's id and the key that made a post once. */
const EXPOSED = 'Link, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Idempotency-Key'
const ALLOWED_HEADERS = 'Authorization, Content-Type, Idempotency-Key, Accept'

/**
 * CORS on the Mastodon API paths only (DECISIONS §13): web apps served from anywhere (Phanpy, Elk) call
 * them with a bearer token, which a browser never adds on its own, so answering every origin opens nothing.
 * A preflight is answered at once; every other answer, refusals included, carries the headers.
 */
export function installCors(app: FastifyInstance) {
  app.addHook('onRequest', async (request, reply) => {
    if (request.method !== 'OPTIONS' || request.headers['access-control-request-method'] === undefined) return
    if (!isMastodonApiPath(request.url)) return
    const asked = request.headers['access-control-request-headers']
    reply
      .code(204)
      .header('access-control-allow-origin', '*')
      .header('access-control-allow-methods', ALLOWED_METHODS)
      .header('access-control-allow-headers', typeof asked === 'string' && asked !== '' ? asked : ALLOWED_HEADERS)
      .header('access-control-max-age', '86400')
      .header('vary', 'Access-Control-Request-Headers')
      .send()
    return reply
  })
  // On the way out, so that refusals made before any route ran (a rate limit) can be read by the page too.
  app.addHook('onSend', async (request, reply, payload) => {
    if (!isMastodonApiPath(request.url)) return payload
    reply.header('access-control-allow-origin', '*')
    reply.header('access-control-expose-headers', EXPOSED)
    return payload
  })
}
