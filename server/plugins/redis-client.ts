import { once } from 'node:events'
import type { FastifyBaseLogger } from 'fastify'
import { Redis } from 'ioredis'

/**
 * The Redis connection that holds the rate-limit counters of every instance. It must never take the
 * app down: requests are not queued while it is away (each limiter then fails open, as
 * @fastify/rate-limit's skipOnError does), a slow answer gives up quickly, and each outage is logged
 * once, with its end, rather than on every reconnect attempt.
 */
export async function connectRedis(url: string, log: FastifyBaseLogger): Promise<Redis> {
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2_000,
    commandTimeout: 500,
  })
  let reachable = true
  redis.on('error', (err: Error) => {
    if (reachable) log.warn({ err }, 'Redis is unreachable: rate limits are not enforced until it is back')
    reachable = false
  })
  redis.on('ready', () => {
    if (!reachable) log.info('Redis is reachable again: rate limits are enforced')
    reachable = true
  })
  // The first connection is waited for, so a healthy Redis counts from the first request; a failed one
  // has been logged and is retried in the background.
  await once(redis, 'ready').catch(() => undefined)
  return redis
}
