import { createHash, randomBytes } from 'node:crypto'
import { readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import fastifyJwt from '@fastify/jwt'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { unauthorized } from '../errors.js'
import type { AuthService, TokenPayload } from '../services/auth.js'
import type { AppTokenPayload } from '../services/client-apps.js'

declare module '@fastify/jwt' {
  interface FastifyJWT {
    payload: TokenPayload | AppTokenPayload
    user: { _id: string; username: string; token: TokenOfRequest }
  }
}

/** The token a request carried: its id, and when it expires (until when its logout must be kept). */
interface TokenOfRequest {
  id: string
  expiresAt: string
  /** A Mastodon app's token: the scopes it was granted, and the app's client_id; absent from Chirp's own. */
  scopes?: readonly string[]
  app?: string
}

declare module 'fastify' {
  interface FastifyInstance {
    /** onRequest hook for protected routes: 401/404 unless the token names a current user. */
    authenticate: (request: FastifyRequest) => Promise<void>
    /** onRequest hook for open routes that show more to the signed-in owner; never fails. */
    identify: (request: FastifyRequest) => Promise<void>
    signToken: (payload: TokenPayload) => string
    signAppToken: (payload: AppTokenPayload) => string
    /** What a token names, if Chirp signed it for a person: who, and the token itself; whether it was logged out is not checked. */
    readToken: (token: string) => { userId: string; token: TokenOfRequest } | undefined
    /** The app a request's own app token (client_credentials) names, with its scopes; undefined for any other token. */
    appTokenOf: (request: FastifyRequest) => { app: string; scopes: readonly string[] } | undefined
  }
}

/** Signed-in clients whose verified token is kept between their requests. */
const VERIFIED_TOKENS = 10_000

/** Far larger than any token Chirp issues; a bigger header is refused before any parsing. */
const MAX_TOKEN_LENGTH = 2048

/** JWT_SECRET when set; otherwise a 256-bit secret made once and kept in the data directory, readable only by its owner. */
export async function loadJwtSecret(configured: string | undefined, dataDir: string): Promise<string> {
  if (configured) return configured
  const file = path.join(dataDir, 'jwt-secret')
  try {
    return (await readFile(file, 'utf8')).trim()
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
  const secret = randomBytes(32).toString('base64url')
  try {
    await writeFile(file, secret, { mode: 0o600, flag: 'wx' })
    return secret
  } catch (error) {
    // Another start won the race: use the secret it wrote.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return (await readFile(file, 'utf8')).trim()
    throw error
  }
}

/** The raw token, as the original client sends it, or `Bearer <token>`. */
function tokenOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization
  if (typeof header !== 'string' || header === '') return undefined
  const token = /^bearer\s+/i.test(header) ? header.replace(/^bearer\s+/i, '') : header
  return token.trim()
}

/** A verified payload as Chirp signs them; `exp` is the signer's, and `jti` absent from tokens made before it. */
type Verified = TokenPayload & { exp: number }

function isPayload(value: unknown): value is Verified {
  const payload = value as Partial<Verified> | null
  return (
    typeof payload === 'object' &&
    payload !== null &&
    typeof payload._id === 'string' &&
    typeof payload.username === 'string' &&
    typeof payload.tv === 'number' &&
    typeof payload.exp === 'number' &&
    (payload.jti === undefined || typeof payload.jti === 'string') &&
    (payload.scope === undefined || typeof payload.scope === 'string') &&
    (payload.app === undefined || typeof payload.app === 'string')
  )
}

function isAppPayload(value: unknown): value is AppTokenPayload {
  const payload = value as Partial<Verified & AppTokenPayload> | null
  return (
    typeof payload === 'object' &&
    payload !== null &&
    payload._id === undefined &&
    typeof payload.app === 'string' &&
    typeof payload.scope === 'string'
  )
}

/**
 * The token's id: its `jti`. A token signed before tokens carried one is named by its own hash instead,
 * so it can still be logged out alone rather than outliving its logout until it expires.
 */
function tokenOfRequest(token: string, payload: Verified): TokenOfRequest {
  return {
    id: payload.jti ?? `sha256:${createHash('sha256').update(token).digest('base64url')}`,
    expiresAt: new Date(payload.exp * 1000).toISOString(),
    ...(payload.scope === undefined ? {} : { scopes: payload.scope.split(' ') }),
    ...(payload.app === undefined ? {} : { app: payload.app }),
  }
}

interface AuthPluginOptions {
  secret: string
  expiresIn: number
  auth: AuthService
}

async function authPlugin(app: FastifyInstance, { secret, expiresIn, auth }: AuthPluginOptions) {
  await app.register(fastifyJwt, {
    secret,
    sign: { algorithm: 'HS256', expiresIn },
    // Pinned: a token that names any other algorithm, `none` included, is refused. Verified tokens are
    // kept (fast-jwt's LRU, each entry only until the token's own expiry), so a client's repeated requests
    // skip the HMAC and the parse; a cached token still meets the revocation check of verify() below.
    verify: { algorithms: ['HS256'], cache: VERIFIED_TOKENS },
  })

  async function verify(request: FastifyRequest) {
    const token = tokenOf(request)
    if (!token || token.length > MAX_TOKEN_LENGTH) throw unauthorized()
    let payload: unknown
    try {
      payload = app.jwt.verify(token)
    } catch {
      throw unauthorized()
    }
    if (!isPayload(payload)) throw unauthorized()
    const ofRequest = tokenOfRequest(token, payload)
    const user = await auth.userOfToken(payload, ofRequest.id)
    request.user = { _id: user._id, username: user.username, token: ofRequest }
  }

  app.decorate('signToken', (payload: TokenPayload) => app.jwt.sign(payload))
  app.decorate('signAppToken', (payload: AppTokenPayload) => app.jwt.sign(payload))
  app.decorate('readToken', (token: string) => {
    if (token.length > MAX_TOKEN_LENGTH) return undefined
    let payload: unknown
    try {
      payload = app.jwt.verify(token)
    } catch {
      return undefined
    }
    return isPayload(payload) ? { userId: payload._id, token: tokenOfRequest(token, payload) } : undefined
  })
  app.decorate('appTokenOf', (request: FastifyRequest) => {
    const token = tokenOf(request)
    if (!token || token.length > MAX_TOKEN_LENGTH) return undefined
    let payload: unknown
    try {
      payload = app.jwt.verify(token)
    } catch {
      return undefined
    }
    return isAppPayload(payload) ? { app: payload.app, scopes: payload.scope.split(' ') } : undefined
  })
  app.decorate('authenticate', verify)
  app.decorate('identify', async (request: FastifyRequest) => {
    if (!tokenOf(request)) return
    await verify(request).catch(() => undefined)
  })
}

export default fp(authPlugin, { name: 'chirp-auth' })
