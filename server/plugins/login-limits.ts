import { setTimeout as wait } from 'node:timers/promises'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { usernameKey } from '../usernames.js'
import { address, createInFlight, refuse, route, type Counter, type KeyOf, type Limit } from './limit-counters.js'

/** Failed logins to one account, from anywhere, past which every login to it waits a little longer. */
export interface LoginSlowdown extends Limit {
  firstDelayMs: number
  maxDelayMs: number
}

export interface LoginLimitsOptions {
  counter: (name: string, limit: Limit, keyOf: KeyOf) => Counter
  policy: {
    loginFailuresPerAddress: Limit
    loginFailuresPerAddressAndAccount: Limit
    loginSlowdownPerAccount: LoginSlowdown
  }
  sleep?: ((ms: number) => Promise<void>) | undefined
}

/**
 * The ways to try a password, and the answers a wrong guess gets there: Chirp's login (a wrong password,
 * an unknown username), and the Mastodon client API's sign-in page and password grant (DECISIONS §13).
 */
const LOGIN_ROUTES: ReadonlyMap<string, ReadonlySet<number>> = new Map([
  ['/api/auth/login', new Set([401, 404])],
  ['/oauth/authorize', new Set([401])],
  ['/oauth/token', new Set([400, 401])],
])
/** The slow-down grows with the count itself, so its counter's max is only a bound on what it can tell. */
const COUNT_BOUND = 1_000_000

/** The account a login is for, by the same usernameKey the store finds it by, so no spelling of a name escapes its limit. */
function usernameOf(request: FastifyRequest): string | undefined {
  const body = request.body as { username?: unknown } | null | undefined
  return typeof body?.username === 'string' && body.username !== ''
    ? usernameKey(body.username.slice(0, 64))
    : undefined
}

/** How long a login waits after `failures` failed ones to its account: nothing up to the max, then doubling to a ceiling. */
export function loginDelayMs(failures: number, slowdown: LoginSlowdown): number {
  if (failures < slowdown.max) return 0
  return Math.min(slowdown.firstDelayMs * 2 ** Math.min(failures - slowdown.max, 30), slowdown.maxDelayMs)
}

/**
 * Login limits that count failures only, so the guest button keeps working however many people use
 * it, and that refuse by address and username together, so no one can lock anyone else out: guessing
 * at an account from many addresses only slows that account's logins down (as Mastodon and Bluesky
 * do), it never refuses them. Each login is checked before its password is, and counted when it is
 * answered as a failure; logins still being judged count too, so a burst sent at once cannot all
 * squeeze through before the first of them is counted.
 */
export function installLoginLimits(app: FastifyInstance, { counter, policy, sleep = wait }: LoginLimitsOptions) {
  const isLogin = (request: FastifyRequest) => {
    const url = route(request)
    if (!LOGIN_ROUTES.has(url) || request.method !== 'POST') return false
    // The token endpoint takes a password only in the password grant; its other grants guess no password.
    return url !== '/oauth/token' || (request.body as { grant_type?: unknown } | null)?.grant_type === 'password'
  }
  const accountOf = (request: FastifyRequest) => (isLogin(request) ? usernameOf(request) : undefined)
  const perAddress = counter('login-address', policy.loginFailuresPerAddress, (r) =>
    isLogin(r) ? address(r) : undefined,
  )
  const perPair = counter('login-address-account', policy.loginFailuresPerAddressAndAccount, (r) => {
    const account = accountOf(r)
    return account === undefined ? undefined : `${address(r)} ${account}`
  })
  const slowdown = policy.loginSlowdownPerAccount
  const perAccount = counter('login-account', { max: COUNT_BOUND, windowMs: slowdown.windowMs }, accountOf)
  const refusing = [perAddress, perPair]
  const inFlight = createInFlight()
  const judged = new WeakSet<FastifyRequest>()

  app.addHook('preValidation', async (request, reply) => {
    if (!isLogin(request)) return
    const [seen, failures] = await Promise.all([
      Promise.all(refusing.map((c) => c.hit(request, false))),
      perAccount.hit(request, false),
    ])
    // Nothing is awaited from the check to the reservation, so two logins at once cannot both take the last try.
    const keys: string[] = []
    refusing.forEach((limited, i) => {
      const hit = seen[i]
      const key = limited.key(request)
      if (hit === undefined || key === undefined) return
      if (hit.current + inFlight.of(key) >= limited.limit.max) refuse(reply, limited.limit, hit.ttlInSeconds)
      keys.push(key)
    })
    inFlight.hold(reply, keys)
    judged.add(request)
    const delay = loginDelayMs(failures?.current ?? 0, slowdown)
    if (delay > 0) await sleep(delay)
  })

  app.addHook('onSend', async (request, reply) => {
    if (!judged.has(request) || !LOGIN_ROUTES.get(route(request))?.has(reply.statusCode)) return
    await Promise.all([perAddress, perPair, perAccount].map((limited) => limited.hit(request)))
  })
}
