import type { InjectOptions, LightMyRequestResponse } from 'fastify'
import type { Test } from 'tap'
import { MSG } from '../../server/errors.js'
import type { RateLimitPolicy } from '../../server/plugins/rate-limits.js'

/** Loose enough that only the limit under test is ever met. */
const LOOSE = { max: 10_000, windowMs: 60_000 }

/** Every limit loose but those given. */
export const loose = (policy: Partial<RateLimitPolicy>): RateLimitPolicy => ({
  general: LOOSE,
  signupPerAddress: LOOSE,
  loginFailuresPerAddress: LOOSE,
  loginFailuresPerAddressAndAccount: LOOSE,
  loginSlowdownPerAccount: { ...LOOSE, firstDelayMs: 0, maxDelayMs: 0 },
  passwordFailuresPerAccount: LOOSE,
  twoFactorFailuresPerAccount: LOOSE,
  writesPerUser: LOOSE,
  uploadsPerUser: LOOSE,
  passwordResetsPerAddress: LOOSE,
  exportsPerUser: LOOSE,
  importsPerUser: LOOSE,
  ...policy,
})

export function expect429(t: Test, res: LightMyRequestResponse, what: string) {
  t.equal(res.statusCode, 429, `${what}: 429`)
  t.strictSame(res.json(), { errors: [MSG.tooManyRequests], code: 'too_many_requests' }, `${what}: { errors } body`)
  const retryAfter = Number(res.headers['retry-after'])
  t.ok(
    Number.isInteger(retryAfter) && retryAfter >= 1,
    `${what}: Retry-After in whole seconds (${res.headers['retry-after']})`,
  )
}

export const goodLogin = (username: string, password: string, remoteAddress?: string): InjectOptions => ({
  method: 'POST',
  url: '/api/auth/login',
  payload: { username, password },
  ...(remoteAddress ? { remoteAddress } : {}),
})

export const badLogin = (
  username: string,
  headers: Record<string, string> = {},
  remoteAddress?: string,
): InjectOptions => ({
  ...goodLogin(username, 'wrong-password', remoteAddress),
  headers,
})
