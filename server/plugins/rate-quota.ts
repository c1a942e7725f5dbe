import type { FastifyRequest } from 'fastify'

/** Where a request stands with the limit every request counts against (the general one, per address). */
export interface RateQuota {
  limit: number
  remaining: number
  /** When the window ends, counted from now. */
  resetSeconds: number
}

const quotas = new WeakMap<FastifyRequest, RateQuota>()

/** Kept by the rate limiter as it counts the request. */
export const keepQuota = (request: FastifyRequest, quota: RateQuota) => quotas.set(request, quota)

/** The request's quota, when the rate limiter counted it (rate limits may be off). */
export const quotaOf = (request: FastifyRequest): RateQuota | undefined => quotas.get(request)
