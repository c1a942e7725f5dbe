import { lookup as dnsLookup } from 'node:dns/promises'
import type { IncomingMessage } from 'node:http'
import { request } from 'node:https'
import { isIP, type LookupFunction } from 'node:net'
import { isPublicAddress } from './address-class.js'

/**
 * Fetches other people's pages for link cards: the one place where Chirp's server requests an address a
 * user chose, so every step is checked. Only https, on its default port. The name is resolved here and
 * every address it has must be public (address-class.ts); the connection then goes to the address that
 * was checked (the socket's lookup answers with it), so a name that resolves elsewhere a moment later
 * (DNS rebinding) changes nothing. Each redirect is checked the same way, at most MAX_REDIRECTS of them;
 * the whole fetch, redirects and body, has one deadline; the body is read up to a cap and no further.
 */

type Resolve = (hostname: string) => Promise<{ address: string; family: number }[]>

export interface LinkFetchOptions {
  /**
   * Host names (`name` or `name:port`) fetched without the address check and on any port: for tests,
   * whose pages run on this machine (LINK_PREVIEW_ALLOW).
   */
  allow?: readonly string[]
  /** How names are resolved; the system resolver by default. */
  resolve?: Resolve
  /** Certificates trusted besides the system's, for a test's own authority. */
  ca?: string | Buffer
  /** The deadline of one fetch, redirects included. */
  timeoutMs?: number
  /**
   * Every address and port allowed, for tests whose servers are all on this machine
   * (FEDERATION_ALLOW_PRIVATE); https, the caps and the deadline still hold.
   */
  allowPrivate?: boolean
  /** Who the requests say they are from. */
  userAgent?: string
}

/** Why a fetch gave up; a refusal is the normal end of a fetch of a page that cannot be shown. */
export type Refusal =
  | 'not-https'
  | 'bad-url'
  | 'private-address'
  | 'unresolved'
  | 'too-many-redirects'
  | 'status'
  | 'too-large'
  | 'timeout'
  | 'wrong-type'
  | 'network'

export class LinkFetchError extends Error {
  constructor(
    readonly reason: Refusal,
    message: string,
  ) {
    super(message)
    this.name = 'LinkFetchError'
  }
}

export interface Fetched {
  /** Where the body came from, after redirects. */
  url: URL
  /** The media type, lower case, without parameters. */
  type: string
  /** The `charset` parameter of Content-Type, lower case, when there is one. */
  charset: string | undefined
  body: Buffer
}

export interface FetchRequest {
  /** Whether a response of this media type is read at all; any other is refused before its body. */
  accept: (type: string) => boolean
  maxBytes: number
  /** The Accept header sent; a page or an image by default. */
  acceptHeader?: string
  /** Ends the fetch early (the app shutting down). */
  signal?: AbortSignal
}

const MAX_REDIRECTS = 3
const FETCH_TIMEOUT_MS = 5000
const REDIRECTS = new Set([301, 302, 303, 307, 308])

const defaultResolve: Resolve = (hostname) => dnsLookup(hostname, { all: true, verbatim: true })

/** The host as a URL spells it: lower case, an IPv6 literal without its brackets. */
const bareHost = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1')

/**
 * The address rules every request to an address a user chose obeys (link cards, push endpoints): https
 * on its default port, no credentials, and a name whose every address is public, pinned to the address
 * checked. `allow` and `allowPrivate` lift the address rules for tests, as LinkFetchOptions says.
 */
export function createAddressRules({
  allow = [],
  resolve = defaultResolve,
  allowPrivate = false,
}: Pick<LinkFetchOptions, 'allow' | 'resolve' | 'allowPrivate'>) {
  const allowed = new Set(allow.map((entry) => entry.toLowerCase()))
  const isAllowed = (url: URL) =>
    allowPrivate || allowed.has(url.hostname) || allowed.has(`${url.hostname}:${url.port || '443'}`)

  /** The refusal of a URL before any connection: scheme, credentials, port, and an address written as one. */
  function check(url: URL): void {
    if (url.protocol !== 'https:') throw new LinkFetchError('not-https', `not an https link: ${url.protocol}`)
    if (url.username || url.password) throw new LinkFetchError('bad-url', 'a link with credentials')
    if (isAllowed(url)) return
    const host = bareHost(url)
    if (isIP(host) !== 0 && !isPublicAddress(host))
      throw new LinkFetchError('private-address', `a link to a private address: ${host}`)
    if (url.port !== '') throw new LinkFetchError('bad-url', `a link to port ${url.port}`)
  }

  /**
   * The socket's lookup: resolves the name, refuses it when any of its addresses is not public (which
   * one the socket would pick is not ours to choose), and answers with the first, which the socket then
   * connects to without resolving again.
   */
  function pinnedLookup(checked: boolean): LookupFunction {
    return (hostname, options, callback) => {
      resolve(hostname)
        .then((addresses) => {
          const [first] = addresses
          if (!first) throw new LinkFetchError('unresolved', `${hostname} has no address`)
          const refused = addresses.find(({ address }) => !isPublicAddress(address))
          if (checked && refused)
            throw new LinkFetchError('private-address', `${hostname} resolves to a private address: ${refused.address}`)
          if (options.all) callback(null, [first])
          else callback(null, first.address, first.family)
        })
        .catch((error: unknown) => {
          const failure =
            error instanceof LinkFetchError ? error : new LinkFetchError('unresolved', `${hostname} cannot be resolved`)
          callback(failure, '', 0)
        })
    }
  }

  return {
    check,
    /** The lookup for a connection to `url`: checked unless its host is allowed. */
    lookupFor: (url: URL) => pinnedLookup(!isAllowed(url)),
    /** Resolves `url`'s host as a connection would, refusing it as the connection would. */
    async checkResolved(url: URL): Promise<void> {
      check(url)
      const lookup = pinnedLookup(!isAllowed(url))
      await new Promise<void>((done, fail) => {
        lookup(bareHost(url), {}, (error) => (error ? fail(error) : done()))
      })
    },
  }
}

export function createLinkFetcher({
  allow = [],
  resolve = defaultResolve,
  ca,
  timeoutMs = FETCH_TIMEOUT_MS,
  allowPrivate = false,
  userAgent = 'Chirp link preview',
}: LinkFetchOptions = {}) {
  const { check, lookupFor } = createAddressRules({ allow, resolve, allowPrivate })

  /** One request: the response, once its headers are in. */
  function get(url: URL, accept: string, signal: AbortSignal): Promise<IncomingMessage> {
    return new Promise((resolvePromise, reject) => {
      const req = request(url, {
        method: 'GET',
        // No pooled socket: each connection is made, and checked, for its own request.
        agent: false,
        lookup: lookupFor(url),
        signal,
        ...(ca !== undefined ? { ca } : {}),
        headers: {
          'user-agent': userAgent,
          accept,
          // Nothing compressed: the cap is on the bytes read, and an inflated body would escape it.
          'accept-encoding': 'identity',
        },
      })
      req.once('response', resolvePromise)
      // Every error, not only the first: one that follows another must not go unheard (and crash the process).
      req.on('error', reject)
      req.end()
    })
  }

  async function readCapped(res: IncomingMessage, maxBytes: number): Promise<Buffer> {
    const chunks: Buffer[] = []
    let size = 0
    for await (const chunk of res as AsyncIterable<Buffer>) {
      size += chunk.length
      if (size > maxBytes) {
        res.destroy()
        throw new LinkFetchError('too-large', `the body is larger than ${maxBytes} bytes`)
      }
      chunks.push(chunk)
    }
    return Buffer.concat(chunks)
  }

  async function follow(start: URL, request: FetchRequest, signal: AbortSignal): Promise<Fetched> {
    const { accept, maxBytes, acceptHeader = 'text/html, image/*;q=0.9' } = request
    let url = start
    for (let redirects = 0; ; redirects++) {
      check(url)
      const res = await get(url, acceptHeader, signal)
      const location = res.headers.location
      if (REDIRECTS.has(res.statusCode ?? 0) && location !== undefined) {
        res.destroy()
        if (redirects >= MAX_REDIRECTS) throw new LinkFetchError('too-many-redirects', 'more than 3 redirects')
        if (!URL.canParse(location, url.href)) throw new LinkFetchError('bad-url', 'a redirect to no address')
        url = new URL(location, url)
        continue
      }
      const status = res.statusCode ?? 0
      if (status < 200 || status > 299) {
        res.destroy()
        throw new LinkFetchError('status', `the server answered ${status}`)
      }
      const [type = '', ...parameters] = (res.headers['content-type'] ?? '').toLowerCase().split(';')
      const encoding = res.headers['content-encoding']
      if (!accept(type.trim()) || (encoding !== undefined && encoding !== 'identity')) {
        res.destroy()
        throw new LinkFetchError('wrong-type', `not what was asked for: ${type || 'no type'}`)
      }
      if (Number(res.headers['content-length'] ?? 0) > maxBytes) {
        res.destroy()
        throw new LinkFetchError('too-large', `the body is larger than ${maxBytes} bytes`)
      }
      const charset = parameters
        .map((parameter) => parameter.trim())
        .find((parameter) => parameter.startsWith('charset='))
        ?.slice('charset='.length)
        .replace(/"/g, '')
      return { url, type: type.trim(), charset, body: await readCapped(res, maxBytes) }
    }
  }

  return {
    /** The body at `link`, or a LinkFetchError that says why not. */
    async fetch(link: string, request: FetchRequest): Promise<Fetched> {
      if (!URL.canParse(link)) throw new LinkFetchError('bad-url', 'not an address')
      const deadline = AbortSignal.timeout(timeoutMs)
      const signal = request.signal ? AbortSignal.any([deadline, request.signal]) : deadline
      try {
        return await follow(new URL(link), request, signal)
      } catch (error) {
        if (deadline.aborted) throw new LinkFetchError('timeout', `no answer within ${timeoutMs} ms`)
        if (error instanceof LinkFetchError) throw error
        throw new LinkFetchError('network', error instanceof Error ? error.message : 'the fetch failed')
      }
    },
  }
}

export type LinkFetcher = ReturnType<typeof createLinkFetcher>
