import type { FastifyInstance } from 'fastify'
import { quotaOf } from '../plugins/rate-quota.js'

const isoIn = (seconds: number) => new Date(Date.now() + Math.max(0, seconds) * 1000).toISOString()

/**
 * Mastodon's `X-RateLimit-Limit`, `-Remaining` and `-Reset` (a time, as Mastodon gives it) on every answer
 * of its paths, from the count Chirp's rate limiter keeps of the request: the limit every request meets,
 * or, on a refusal, the limit that refused it. None when rate limits are off.
 */
export function installRateLimitHeaders(app: FastifyInstance) {
  app.addHook('onSend', async (request, reply) => {
    if (reply.hasHeader('x-ratelimit-limit')) {
      void reply.header('x-ratelimit-reset', isoIn(Number(reply.getHeader('x-ratelimit-reset'))))
      return
    }
    const quota = quotaOf(request)
    if (!quota) return
    void reply.header('x-ratelimit-limit', quota.limit)
    void reply.header('x-ratelimit-remaining', quota.remaining)
    void reply.header('x-ratelimit-reset', isoIn(quota.resetSeconds))
  })
}
