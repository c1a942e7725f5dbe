import fastifyRateLimit from '@fastify/rate-limit'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { counterStore } from './counter-store.js'
import { address, refuse, route, type Counter, type KeyOf, type Limit } from './limit-counters.js'
import { installLoginLimits, type LoginSlowdown } from './login-limits.js'
import { keepQuota } from './rate-quota.js'
import { installSecretLimits } from './secret-limits.js'
import { connectRedis } from './redis-client.js'

/** How many requests a client may make, per what key and in what window. */
export interface RateLimitPolicy {
  /** Every request, per client address. */
  general: Limit
  /** Signups, per client address; every attempt counts. */
  signupPerAddress: Limit
  /** Failed logins per address, whatever the username: slows one place trying a password on many accounts. */
  loginFailuresPerAddress: Limit
  /**
   * Failed logins per address and username together: slows guessing one account's password from one place,
   * without locking the account's owner out from anywhere else.
   */
  loginFailuresPerAddressAndAccount: Limit
  /** Failed logins per username from every address: past `max`, each login to it waits; it is never refused. */
  loginSlowdownPerAccount: LoginSlowdown
  /** Wrong current passwords in signed-in calls (password change, deletion, two-factor), per account: past it, 429. */
  passwordFailuresPerAccount: Limit
  /** Wrong two-factor codes, at login or in signed-in calls, per account: past it, 429. */
  twoFactorFailuresPerAccount: Limit
  /** Every signed-in call that changes something, per user. */
  writesPerUser: Limit
  /** Uploads, per user, on top of the write limit. */
  uploadsPerUser: Limit
  /** Password-reset mails asked for, per address; every request counts, known address or not. */
  passwordResetsPerAddress: Limit
  /** Archives of the account (GET /api/account/export), per user. */
  exportsPerUser: Limit
  /**
   * Imports (POST /api/account/import), per user: a few an hour, as Mastodon's three lists and an
   * archive come one file each. The images an import decodes count against `uploadsPerUser` besides.
   */
  importsPerUser: Limit
}

const MINUTE = 60_000

export const DEFAULT_RATE_LIMITS: RateLimitPolicy = {
  general: { max: 600, windowMs: MINUTE },
  signupPerAddress: { max: 5, windowMs: MINUTE },
  loginFailuresPerAddress: { max: 30, windowMs: 15 * MINUTE },
  loginFailuresPerAddressAndAccount: { max: 10, windowMs: 15 * MINUTE },
  loginSlowdownPerAccount: { max: 10, windowMs: 15 * MINUTE, firstDelayMs: 1_000, maxDelayMs: 10_000 },
  passwordFailuresPerAccount: { max: 10, windowMs: 15 * MINUTE },
  twoFactorFailuresPerAccount: { max: 10, windowMs: 15 * MINUTE },
  writesPerUser: { max: 60, windowMs: MINUTE },
  uploadsPerUser: { max: 30, windowMs: 30 * MINUTE },
  passwordResetsPerAddress: { max: 5, windowMs: 60 * MINUTE },
  exportsPerUser: { max: 1, windowMs: 60 * MINUTE },
  importsPerUser: { max: 5, windowMs: 60 * MINUTE },
}

export interface RateLimitOptions {
  /** Shares the counters between instances; without it each instance counts alone. */
  redisUrl?: string | undefined
  /** Put before every Redis key, so apps sharing one Redis (tests, two deployments) keep apart. */
  redisKeyPrefix?: string | undefined
  /** How a slowed-down login waits. */
  sleep?: ((ms: number) => Promise<void>) | undefined
}

/** Keys kept per limiter in memory, when there is no Redis: about 200 bytes each, so 4 MB per limiter at most. */
const LOCAL_KEYS_PER_LIMITER = 20_000
const DEFAULT_REDIS_PREFIX = 'chirp:rate-limit:'
/** Chirp's signup, and the Mastodon client API's. */
const SIGNUP_ROUTES = new Set(['/api/auth/signup', '/api/v1/accounts'])
/** Chirp's upload, and the Mastodon client API's (v1 and v2), which store images through the same service. */
const UPLOAD_ROUTES = new Set(['/api/media', '/api/v1/media', '/api/v2/media'])
const PASSWORD_RESET_ROUTE = '/api/auth/password-reset'
const EXPORT_ROUTE = '/api/account/export'
const IMPORT_ROUTE = '/api/account/import'
/**
 * Routes that store images: an upload; an import's archive, which spends as many as it holds; and the
 * Mastodon API's profile change, which spends its avatar and header.
 */
const IMAGE_ROUTES = new Set([...UPLOAD_ROUTES, IMPORT_ROUTE, '/api/v1/accounts/update_credentials'])
/** Signed-in POSTs that change nothing stored: a stream ticket is bounded by the hub itself. */
const NOT_WRITES = new Set(['/api/events/ticket'])
const READS = new Set(['GET', 'HEAD', 'OPTIONS'])

const signedIn = (request: FastifyRequest) => (request.user as { _id?: unknown } | null | undefined)?._id

/** The warning to log at start when instances share a database but each counts its own rate limits. */
export function perInstanceLimitsWarning(config: {
  rateLimit: boolean
  databaseUrl?: string | undefined
  redisUrl?: string | undefined
}) {
  return config.rateLimit && config.databaseUrl && !config.redisUrl
    ? 'rate limits are counted per instance: set REDIS_URL to share them between the instances of one database'
    : undefined
}

/**
 * The limits, counted by @fastify/rate-limit in Redis when there is one, else in this process. They run
 * as app-wide hooks rather than route options because a request can meet several (address, account,
 * user), and the plugin applies only one per route; and because app-wide hooks run before
 * `authenticate`, so a flood of bad tokens is counted too. A refused call gets 429 `{ errors }` with Retry-After.
 */
export async function installRateLimits(app: FastifyInstance, policy: RateLimitPolicy, options: RateLimitOptions = {}) {
  const redis = options.redisUrl ? await connectRedis(options.redisUrl, app.log) : undefined
  if (redis) app.addHook('onClose', () => redis.disconnect())
  await app.register(fastifyRateLimit, {
    global: false,
    ...(redis
      ? { redis, nameSpace: options.redisKeyPrefix ?? DEFAULT_REDIS_PREFIX, skipOnError: true }
      : { store: counterStore(LOCAL_KEYS_PER_LIMITER) }),
  })

  // Every limiter made with createRateLimit shares the plugin's one key space (in Redis the keys read
  // `<prefix>undefinedundefined-<name>:<key>`, the plugin's empty route part in the middle), so each key
  // starts with its limiter's name: writes and uploads, both keyed by user id, never share a count.
  function counter(name: string, limit: Limit, keyOf: KeyOf): Counter {
    const key = (request: FastifyRequest) => {
      const own = keyOf(request)
      return own === undefined ? undefined : `${name}:${own}`
    }
    const check = app.createRateLimit({
      max: limit.max,
      timeWindow: limit.windowMs,
      keyGenerator: (request) => key(request) ?? '',
    })
    return {
      limit,
      key,
      async hit(request, count = true) {
        if (key(request) === undefined) return undefined
        const result = await check(request, { increment: count })
        if (result.isAllowed) return undefined
        return {
          current: result.max - result.remaining,
          exceeded: result.isExceeded,
          ttlInSeconds: result.ttlInSeconds,
        }
      },
    }
  }

  const limiter = (name: string, limit: Limit, keyOf: KeyOf) => guard(counter(name, limit, keyOf))
  function guard(limited: Counter) {
    const { limit } = limited
    return async (request: FastifyRequest, reply: FastifyReply) => {
      const hit = await limited.hit(request)
      if (hit?.exceeded) refuse(reply, limit, hit.ttlInSeconds)
    }
  }

  const isWrite = (request: FastifyRequest) =>
    !READS.has(request.method) && !NOT_WRITES.has(route(request)) && signedIn(request) !== undefined
  const generalCount = counter('general', policy.general, address)
  /** The general limit, whose standing the request keeps for the headers the Mastodon API sends. */
  async function general(request: FastifyRequest, reply: FastifyReply) {
    const hit = await generalCount.hit(request)
    if (!hit) return
    const { max } = policy.general
    keepQuota(request, { limit: max, remaining: Math.max(0, max - hit.current), resetSeconds: hit.ttlInSeconds })
    if (hit.exceeded) refuse(reply, policy.general, hit.ttlInSeconds)
  }
  const signup = limiter('signup', policy.signupPerAddress, (r) =>
    SIGNUP_ROUTES.has(route(r)) && r.method === 'POST' ? address(r) : undefined,
  )
  const resets = limiter('password-reset', policy.passwordResetsPerAddress, (r) =>
    route(r) === PASSWORD_RESET_ROUTE ? address(r) : undefined,
  )
  const writes = limiter('writes', policy.writesPerUser, (r) => (isWrite(r) ? String(signedIn(r)) : undefined))
  const uploadCount = counter('uploads', policy.uploadsPerUser, (r) =>
    isWrite(r) && IMAGE_ROUTES.has(route(r)) ? String(signedIn(r)) : undefined,
  )
  const uploads = guard(uploadCount)
  const ownRoute = (path: string) => (r: FastifyRequest) =>
    route(r) === path && signedIn(r) !== undefined ? String(signedIn(r)) : undefined
  const exports = limiter('exports', policy.exportsPerUser, ownRoute(EXPORT_ROUTE))
  const imports = limiter('imports', policy.importsPerUser, ownRoute(IMPORT_ROUTE))

  /**
   * Counts `count` images against the caller's upload limit, refused only when nothing is left of it: an
   * archive's images beyond what is left are bounded by the import's own limits (pixels, imports an hour).
   */
  async function spendUploads(request: FastifyRequest, reply: FastifyReply, count: number) {
    if (count === 0) return
    const seen = await uploadCount.hit(request, false)
    if (seen?.exceeded || (seen && seen.current >= policy.uploadsPerUser.max)) {
      refuse(reply, policy.uploadsPerUser, seen.ttlInSeconds)
    }
    const left = policy.uploadsPerUser.max - (seen?.current ?? 0)
    for (let i = 0; i < Math.min(count, left); i++) await uploadCount.hit(request)
  }

  // onRequest: before the body is read or a token is checked. preValidation: the body is parsed (for the
  // username) and `authenticate` has run (for the user), but nothing has been validated or done.
  app.addHook('onRequest', async (request, reply) => {
    await general(request, reply)
    await signup(request, reply)
    await resets(request, reply)
  })
  installLoginLimits(app, { counter, sleep: options.sleep, policy })
  installSecretLimits(app, { counter, policy })
  app.addHook('preValidation', async (request, reply) => {
    await writes(request, reply)
    if (UPLOAD_ROUTES.has(route(request))) await uploads(request, reply)
    await exports(request, reply)
    await imports(request, reply)
  })
  return { spendUploads }
}
