import type { FastifyInstance, FastifyRequest } from 'fastify'
import { MSG } from '../errors.js'
import { usernameKey } from '../usernames.js'
import { createInFlight, refuse, route, type Counter, type KeyOf, type Limit } from './limit-counters.js'

export interface SecretLimitsOptions {
  counter: (name: string, limit: Limit, keyOf: KeyOf) => Counter
  policy: {
    /** Wrong passwords where a signed-in call asks for it again (password change, deletion, two-factor). */
    passwordFailuresPerAccount: Limit
    /** Wrong two-factor codes, at login or where a signed-in call asks for one. */
    twoFactorFailuresPerAccount: Limit
  }
}

/** The calls that check the current password, by method and route. */
const PASSWORD_CALLS = new Set([
  'POST /api/account/password',
  'DELETE /api/account',
  'POST /api/account/2fa/enable',
  'POST /api/account/2fa/disable',
])
/** The calls that check a two-factor code. */
const CODE_CALLS = new Set(['POST /api/auth/login', 'POST /api/account/2fa/enable', 'POST /api/account/2fa/disable'])

const callOf = (request: FastifyRequest) => `${request.method} ${route(request)}`

/**
 * The account a request is about, by the same usernameKey the store finds it by: the signed-in user's
 * own, or at login the username it names. Both kinds of count are per account, wherever the guesses
 * come from: a stolen token, or a known password, lets its holder guess only so many times.
 */
function accountOf(request: FastifyRequest): string | undefined {
  const user = request.user as { username?: unknown } | null | undefined
  if (typeof user?.username === 'string') return usernameKey(user.username)
  const body = request.body as { username?: unknown } | null | undefined
  return typeof body?.username === 'string' && body.username !== ''
    ? usernameKey(body.username.slice(0, 64))
    : undefined
}

/**
 * Caps on guessing what only an account's owner knows once past the login's own limits: the password
 * where a signed-in call asks for it again (a stolen token must not become a way to guess it), and
 * the two-factor code (a stolen password must not become a way to guess that). Each failure is counted
 * when it is answered; past the cap, those calls answer 429 until the window ends. Calls being judged
 * count as failures meanwhile, so a burst sent at once cannot all slip in before the first is counted.
 */
export function installSecretLimits(app: FastifyInstance, { counter, policy }: SecretLimitsOptions) {
  const guarded = (calls: ReadonlySet<string>) => (request: FastifyRequest) =>
    calls.has(callOf(request)) ? accountOf(request) : undefined
  const limits = [
    {
      counter: counter('password-failures', policy.passwordFailuresPerAccount, guarded(PASSWORD_CALLS)),
      message: MSG.passwordIncorrect,
    },
    {
      counter: counter('two-factor-failures', policy.twoFactorFailuresPerAccount, guarded(CODE_CALLS)),
      message: MSG.twoFactorInvalid,
    },
  ]
  const inFlight = createInFlight()

  app.addHook('preValidation', async (request, reply) => {
    const seen = await Promise.all(limits.map(({ counter }) => counter.hit(request, false)))
    const keys: string[] = []
    limits.forEach(({ counter }, i) => {
      const key = counter.key(request)
      if (key === undefined) return
      const current = (seen[i]?.current ?? 0) + inFlight.of(key)
      if (current >= counter.limit.max)
        refuse(reply, counter.limit, seen[i]?.ttlInSeconds ?? counter.limit.windowMs / 1000)
      keys.push(key)
    })
    if (keys.length > 0) inFlight.hold(reply, keys)
  })

  app.addHook('onError', async (request, _reply, error) => {
    for (const { counter, message } of limits) if (error.message === message) await counter.hit(request)
  })
}
