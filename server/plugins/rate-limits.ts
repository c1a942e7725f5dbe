import fastifyRateLimit, { normalizeIP } from '@fastify/rate-limit'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { AppError, MSG } from '../errors.js'

export interface Limit {
  max: number
  windowMs: number
}

/** How many requests a client may make, per what key and in what window. */
export interface RateLimitPolicy {
  /** Every request, per client address. */
  general: Limit
  /** Each of login and signup, per client address: slows password guessing from one place. */
  authPerAddress: Limit
  /** Each of login and signup, per username: slows guessing one account's password from many places. */
  authPerAccount: Limit
  /** Every signed-in call that changes something, per user. */
  writesPerUser: Limit
  /** Uploads, per user, on top of the write limit. */
  uploadsPerUser: Limit
}

const MINUTE = 60_000

export const DEFAULT_RATE_LIMITS: RateLimitPolicy = {
  general: { max: 600, windowMs: MINUTE },
  authPerAddress: { max: 5, windowMs: MINUTE },
  authPerAccount: { max: 10, windowMs: 15 * MINUTE },
  writesPerUser: { max: 60, windowMs: MINUTE },
  uploadsPerUser: { max: 30, windowMs: 30 * MINUTE },
}

const AUTH_ROUTES = new Set(['/api/auth/login', '/api/auth/signup'])
const UPLOAD_ROUTE = '/api/media'
/** Signed-in POSTs that change nothing stored: a stream ticket is bounded by the hub itself. */
const NOT_WRITES = new Set(['/api/events/ticket'])
const READS = new Set(['GET', 'HEAD', 'OPTIONS'])

type KeyOf = (request: FastifyRequest) => string | undefined

/** Keys by address: the socket's, or X-Forwarded-For's only when trustProxy says so; IPv6 by /64, as one host usually holds one. */
const address = (request: FastifyRequest) => normalizeIP(request.ip, 64)
const route = (request: FastifyRequest) => request.routeOptions.url ?? ''
const signedIn = (request: FastifyRequest) => (request.user as { _id?: unknown } | null | undefined)?._id

function usernameOf(request: FastifyRequest): string | undefined {
  const body = request.body as { username?: unknown } | null | undefined
  return typeof body?.username === 'string' && body.username !== '' ? body.username.slice(0, 64).toLowerCase() : undefined
}

/**
 * The limits, each kept by @fastify/rate-limit's own in-memory store. They run as app-wide hooks
 * rather than route options because a request can meet several (address, account, user), and the
 * plugin applies only one per route; and because app-wide hooks run before `authenticate`, so a flood
 * of bad tokens is counted too. A refused call gets 429 `{ errors }` with Retry-After.
 */
export async function installRateLimits(app: FastifyInstance, policy: RateLimitPolicy) {
  await app.register(fastifyRateLimit, { global: false })

  function limiter(limit: Limit, keyOf: KeyOf) {
    const check = app.createRateLimit({
      max: limit.max,
      timeWindow: limit.windowMs,
      keyGenerator: (request) => keyOf(request) ?? '',
    })
    return async (request: FastifyRequest, reply: FastifyReply) => {
      if (keyOf(request) === undefined) return
      const result = await check(request)
      if (result.isAllowed || !result.isExceeded) return
      reply.header('retry-after', result.ttlInSeconds)
      reply.header('x-ratelimit-limit', result.max)
      reply.header('x-ratelimit-remaining', 0)
      reply.header('x-ratelimit-reset', result.ttlInSeconds)
      throw new AppError(429, MSG.tooManyRequests)
    }
  }

  const isAuth = (request: FastifyRequest) => AUTH_ROUTES.has(route(request))
  const isWrite = (request: FastifyRequest) =>
    !READS.has(request.method) && !NOT_WRITES.has(route(request)) && signedIn(request) !== undefined
  const general = limiter(policy.general, address)
  const authPerAddress = limiter(policy.authPerAddress, (r) => (isAuth(r) ? `${route(r)} ${address(r)}` : undefined))
  const authPerAccount = limiter(policy.authPerAccount, (r) => {
    const username = isAuth(r) ? usernameOf(r) : undefined
    return username === undefined ? undefined : `${route(r)} ${username}`
  })
  const writes = limiter(policy.writesPerUser, (r) => (isWrite(r) ? String(signedIn(r)) : undefined))
  const uploads = limiter(policy.uploadsPerUser, (r) => (isWrite(r) && route(r) === UPLOAD_ROUTE ? String(signedIn(r)) : undefined))

  // onRequest: before the body is read or a token is checked. preValidation: the body is parsed (for the
  // username) and `authenticate` has run (for the user), but nothing has been validated or done.
  app.addHook('onRequest', async (request, reply) => {
    await general(request, reply)
    await authPerAddress(request, reply)
  })
  app.addHook('preValidation', async (request, reply) => {
    await authPerAccount(request, reply)
    await writes(request, reply)
    await uploads(request, reply)
  })
}
