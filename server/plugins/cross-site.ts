import type { FastifyInstance, FastifyRequest } from 'fastify'
import { MSG, forbidden } from '../errors.js'

/** Methods that change nothing. Every other one may, a stream ticket's POST included. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/** An origin as URL.origin spells it, to compare with ALLOWED_ORIGINS; undefined when it is none (`null`). */
function originOf(header: string): URL | undefined {
  return URL.canParse(header) ? new URL(header) : undefined
}

/**
 * Whether the origin names the host the request was sent to. The host is Fastify's: the Host header, or
 * X-Forwarded-Host where TRUST_PROXY trusts the proxy that set it. The scheme is not compared, as a proxy
 * that ends TLS tells the app none unless trusted; a page on the same host and port is the same server.
 * The host is read as the origin's scheme would write it, so `example.com:443` equals `https://example.com`.
 */
function sameHost(origin: URL, request: FastifyRequest): boolean {
  const host = request.host
  if (!host) return false
  const target = `${origin.protocol}//${host}`
  return URL.canParse(target) && new URL(target).host === origin.host
}

/**
 * Whether a browser sent this request on behalf of a page of another site. The browser's own verdict,
 * Sec-Fetch-Site, comes first: no page can forge it and no proxy changes it. Browsers that do not send it
 * (older ones, and every one on a plain-http address other than localhost) still send Origin on every
 * cross-origin write, which is then compared with the host. A request with neither comes from no page
 * (curl, a native app) and has no visitor to act for. The same logic as Go's CrossOriginProtection.
 */
function isCrossSite(request: FastifyRequest, allowedOrigins: ReadonlySet<string>): boolean {
  if (SAFE_METHODS.has(request.method)) return false
  const { origin, 'sec-fetch-site': site } = request.headers
  const from = typeof origin === 'string' ? originOf(origin) : undefined
  if (from && allowedOrigins.has(from.origin)) return false
  if (site === 'same-origin' || site === 'none') return false
  if (site !== undefined) return true
  if (origin === undefined) return false
  return !from || !sameHost(from, request)
}

/**
 * A text/plain body is read as JSON (lenient framing), and such a body is one any page may send anywhere
 * without asking: so a write from another site is refused before anything else looks at it, before any
 * body is read, any limit counts it or any token is checked. Registered ahead of the rate limits. Paths
 * that only a bearer token or an app's secret opens (`exempt`: the Mastodon API's) have nothing to protect.
 */
export function installCrossSiteCheck(
  app: FastifyInstance,
  allowedOrigins: readonly string[],
  exempt: (url: string) => boolean = () => false,
) {
  const allowed = new Set(allowedOrigins)
  app.addHook('onRequest', async (request) => {
    if (isCrossSite(request, allowed) && !exempt(request.url)) throw forbidden(MSG.crossSite)
  })
}
