import type { IncomingMessage, ServerResponse } from 'node:http'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import helmet, { type HelmetOptions } from 'helmet'
import { installCrossSiteCheck } from './cross-site.js'
import { DEFAULT_RATE_LIMITS, installRateLimits, type RateLimitOptions, type RateLimitPolicy } from './rate-limits.js'
import { installTextHygiene } from './text-hygiene.js'

/**
 * What the built client needs and no more: its own scripts and styles as files (Vite emits no inline
 * script), images from uploads, data: and blob: previews and https avatars, and calls to this origin.
 * Spelled out in full, without Helmet's defaults, which add upgrade-insecure-requests and so break the
 * app when it is served over plain http on a LAN address. /media/ answers with its own, stricter policy.
 */
const CONTENT_SECURITY_POLICY = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'script-src-attr': ["'none'"],
  'style-src': ["'self'"],
  'img-src': ["'self'", 'data:', 'https:', 'blob:'],
  'font-src': ["'self'"],
  'connect-src': ["'self'"],
  'frame-ancestors': ["'none'"],
  'object-src': ["'none'"],
  'base-uri': ["'self'"],
  'form-action': ["'self'"],
}

/**
 * The Swagger UI at /api/docs runs under the same policy but for one inline <style>, its logo's; it is
 * allowed by hash, on those routes only. A newer swagger-ui with another logo style loses only the colours.
 */
const SWAGGER_LOGO_STYLE = "'sha256-RL3ie0nH+Lzz2YNqQN83mnU0J1ot4QL7b99vMdIX99w='"
export const swaggerUiCsp = {
  transformStaticCSP: (header: string) => header.replace("style-src 'self'", `style-src 'self' ${SWAGGER_LOGO_STYLE}`),
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Counts images a request stores besides an upload's one (an import's) against the caller's upload limit, or refuses (429). */
    spendUploads(request: FastifyRequest, reply: FastifyReply, count: number): Promise<void>
  }
}

interface SecurityOptions extends RateLimitOptions {
  /** False only for local load tests. */
  rateLimit: boolean
  /** Overrides of the default limits, for tests. */
  limits?: Partial<RateLimitPolicy> | undefined
  /** Other sites whose pages may send writes (ALLOWED_ORIGINS). */
  allowedOrigins: readonly string[]
  /** Paths that take no credential a browser sends on its own, which any site's page may call (the Mastodon API's). */
  crossSiteExempt?: (url: string) => boolean
}

const HELMET_OPTIONS: HelmetOptions = {
  contentSecurityPolicy: { useDefaults: false, directives: CONTENT_SECURITY_POLICY },
  referrerPolicy: { policy: 'no-referrer' },
  // HSTS only takes effect over https; includeSubDomains would reach sites that are not Chirp's.
  strictTransportSecurity: { maxAge: 180 * 24 * 3600, includeSubDomains: false },
}

/** What Helmet does to a response: headers set, headers removed. */
interface HeaderChanges {
  set: [string, string][]
  removed: string[]
}

/**
 * Helmet's headers, worked out once by running its middleware against a response that only records
 * what is done to it. Every directive above is a fixed string, so the answer is the same for every
 * request; @fastify/helmet instead rebuilt Helmet's middleware, re-parsing the policy, on each one.
 */
function helmetHeaders(options: HelmetOptions): HeaderChanges {
  const changes: HeaderChanges = { set: [], removed: [] }
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      changes.set.push([name, String(value)])
    },
    removeHeader(name: string) {
      changes.removed.push(name)
    },
  }
  let finished = false
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw new Error('Helmet could not work out its headers', { cause: error })
    finished = true
  })
  if (!finished) throw new Error('Helmet did not finish its headers at once')
  return changes
}

/**
 * Security headers on every answer, the refusal of cross-site writes, the rate limits and clean body text;
 * registered before any route. Hooks run in the order they are added: a cross-site write is refused
 * before any limit counts it, and its refusal carries the headers.
 */
async function security(app: FastifyInstance, options: SecurityOptions) {
  const { set, removed } = helmetHeaders(HELMET_OPTIONS)
  // On the raw response, as Helmet sets them, so that they also reach a stream that takes the socket over
  // (the event stream), and a route's own header of the same name (/media/'s policy) still wins.
  app.addHook('onRequest', (_request, reply, done) => {
    const raw = reply.raw
    for (const name of removed) raw.removeHeader(name)
    for (const [name, value] of set) raw.setHeader(name, value)
    done()
  })
  installCrossSiteCheck(app, options.allowedOrigins, options.crossSiteExempt)
  installTextHygiene(app)
  const limits = options.rateLimit
    ? await installRateLimits(app, { ...DEFAULT_RATE_LIMITS, ...options.limits }, options)
    : undefined
  app.decorate('spendUploads', limits?.spendUploads ?? (async () => {}))
}

export default fp(security, { name: 'chirp-security' })
