/** What the rate limiters share: their shape, how requests are keyed, and how a refusal is answered. */
import { normalizeIP } from '@fastify/rate-limit'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { tooManyRequests } from '../errors.js'

export interface Limit {
  max: number
  windowMs: number
}

export type KeyOf = (request: FastifyRequest) => string | undefined

/** Keys by address: the socket's, or X-Forwarded-For's only when trustProxy says so; IPv6 by /64, as one host usually holds one. */
export const address = (request: FastifyRequest) => normalizeIP(request.ip, 64)
export const route = (request: FastifyRequest) => request.routeOptions.url ?? ''

interface Hit {
  /** The count so far, told only up to the limit's max. */
  current: number
  /** Past the max. */
  exceeded: boolean
  ttlInSeconds: number
}

/** One limiter's counter for a request: counted, or only looked at; undefined when the request has no key here. */
export interface Counter {
  readonly limit: Limit
  /** The request's key, prefixed with the limiter's name: no two limiters ever share a count. */
  key(request: FastifyRequest): string | undefined
  hit(request: FastifyRequest, count?: boolean): Promise<Hit | undefined>
}

/** Answers 429 `{ errors }` with the headers @fastify/rate-limit would send. */
export function refuse(reply: FastifyReply, limit: Limit, ttlInSeconds: number): never {
  const wait = Math.max(1, ttlInSeconds)
  reply.header('retry-after', wait)
  reply.header('x-ratelimit-limit', limit.max)
  reply.header('x-ratelimit-remaining', 0)
  reply.header('x-ratelimit-reset', wait)
  throw tooManyRequests()
}

/**
 * Requests still being judged, by key: each counts against its limits until it is answered, so a burst
 * sent at once gets no more tries than the limit, though no failure of it is counted yet.
 */
export function createInFlight() {
  const counts = new Map<string, number>()
  return {
    of: (key: string) => counts.get(key) ?? 0,
    /** Counts the request under these keys until its connection closes. */
    hold(reply: FastifyReply, keys: readonly string[]) {
      for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + 1)
      reply.raw.once('close', () => {
        for (const key of keys) {
          const left = (counts.get(key) ?? 1) - 1
          if (left > 0) counts.set(key, left)
          else counts.delete(key)
        }
      })
    },
  }
}
