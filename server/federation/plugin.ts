import type { Federation } from '@fedify/fedify'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { MSG, gone, notFound } from '../errors.js'
import type { ChirpFederationData } from './context.js'
import { hostMeta } from './host-meta.js'

/** The largest activity an inbox reads; Mastodon's own limit is 1 MB too. */
const INBOX_BODY_LIMIT = 1024 * 1024

export interface FederationPluginOptions {
  federation: Federation<ChirpFederationData>
  /** What Fedify hands every dispatcher and listener. */
  data: ChirpFederationData
  /** PUBLIC_URL: the origin every request is taken to be addressed to. */
  origin: string
}

const DISCOVERY = ['/.well-known/webfinger', '/.well-known/nodeinfo', '/nodeinfo/2.1']
/** A person's collections; with their actor, 404 for someone without an actor, 410 once the account is deleted. */
const COLLECTIONS = ['/outbox', '/followers', '/following', '/featured'].map((tail) => `/ap/users/:id${tail}`)

/**
 * Fastify's request as the web Request Fedify reads. Its URL is PUBLIC_URL's origin with the request's
 * path, never the Host or scheme the request came with: behind a proxy that ends TLS the app sees plain
 * http, and ids, WebFinger subjects and what a signature covers must all name the public address.
 */
function webRequest(request: FastifyRequest, origin: string): Request {
  const headers = new Headers()
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue
    for (const one of [value].flat()) headers.append(name, one)
  }
  const body = request.method === 'POST' && Buffer.isBuffer(request.body) ? new Uint8Array(request.body) : undefined
  return new Request(new URL(request.url, origin), { method: request.method, headers, ...(body ? { body } : {}) })
}

async function send(reply: FastifyReply, response: Response) {
  reply.status(response.status)
  response.headers.forEach((value, name) => {
    reply.header(name, value)
  })
  return reply.send(Buffer.from(await response.arrayBuffer()))
}

/**
 * Federation's routes: each hands its request to Fedify (`federation.fetch`) with the services as context
 * data, and sends back what Fedify answers. What Fedify finds nothing for is Chirp's own 404, with the
 * catalogue's message; a deleted person's actor and collections are 410, as other servers expect.
 */
export default async function federationRoutes(app: FastifyInstance, options: FederationPluginOptions) {
  const { federation, data, origin } = options
  const { people } = data
  // Activities are read as bytes: Fedify verifies the signature over exactly what was sent, digest included.
  app.removeAllContentTypeParsers()
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: INBOX_BODY_LIMIT }, (_request, body, done) =>
    done(null, body),
  )

  /**
   * `page`, when given, is where a browser asking for HTML is sent instead of the JSON-LD (a person's
   * profile, a post's page): the links other servers show lead there.
   */
  const handOver =
    (missing: string, page?: (request: FastifyRequest) => Promise<string>) =>
    async (request: FastifyRequest, reply: FastifyReply) => {
      const response = await federation.fetch(webRequest(request, origin), {
        contextData: data,
        onNotFound: () => {
          throw notFound(missing)
        },
        ...(page
          ? {
              onNotAcceptable: async () =>
                new Response(null, { status: 302, headers: { location: await page(request) } }),
            }
          : {}),
      })
      return send(reply, response)
    }
  const profilePage = async (request: FastifyRequest) => {
    const found = await people.person((request.params as { id: string }).id)
    if (found.kind !== 'person') throw notFound(MSG.userNotFound)
    return `/profile/${encodeURIComponent(found.user.username)}`
  }
  const postPage = async (request: FastifyRequest) =>
    `/post-detail/${encodeURIComponent((request.params as { id: string }).id)}`

  /**
   * Before Fedify, which builds a collection's first document from its counter and cursors alone: only a
   * person with an actor has one, and a deleted person is gone, which Fedify's dispatchers cannot say.
   */
  const onlyPeople = async (request: FastifyRequest<{ Params: { id: string } }>) => {
    const found = await people.person(request.params.id)
    if (found.kind === 'gone') throw gone(MSG.accountGone)
    if (found.kind === 'none') throw notFound(MSG.userNotFound)
  }

  for (const url of DISCOVERY) app.get(url, handOver(MSG.userNotFound))
  app.get('/ap/users/:id', { preHandler: onlyPeople }, handOver(MSG.userNotFound, profilePage))
  for (const url of COLLECTIONS) app.get(url, { preHandler: onlyPeople }, handOver(MSG.userNotFound))
  app.get('/ap/posts/:id', handOver(MSG.postNotFound, postPage))
  app.post('/ap/users/:id/inbox', { preHandler: onlyPeople }, handOver(MSG.userNotFound))
  app.post('/ap/inbox', handOver(MSG.routeNotFound))
  app.get('/.well-known/host-meta', async (_request, reply) =>
    reply.type('application/xrd+xml; charset=utf-8').send(hostMeta(origin)),
  )
}
