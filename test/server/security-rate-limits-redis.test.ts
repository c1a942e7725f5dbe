import { randomUUID } from 'node:crypto'
import { Redis } from 'ioredis'
import t from 'tap'
import { buildSeededApp } from '../helpers/seeded.js'
import { fileUpload, PNG } from '../helpers/images.js'
import { badLogin, expect429, loose } from '../helpers/rate-limits.js'

/**
 * Shared counters in the real Redis on 127.0.0.1:6379. Every app here uses one key prefix of this run's
 * own, and only keys under it are removed afterwards. Without Redis the file is skipped, except in CI,
 * where Redis is part of the machine and its absence is a failure.
 */
const REDIS_URL = 'redis://127.0.0.1:6379'
const prefix = `chirp-test:${randomUUID()}:`
const redis = new Redis(REDIS_URL, {
  lazyConnect: true,
  enableOfflineQueue: false,
  maxRetriesPerRequest: 0,
  retryStrategy: () => null,
})
redis.on('error', () => {})
const reachable = await redis.connect().then(
  () => true,
  () => false,
)

async function removeOwnKeys() {
  for await (const keys of redis.scanStream({ match: `${prefix}*`, count: 500 })) {
    if ((keys as string[]).length > 0) await redis.del(...(keys as string[]))
  }
}

const ownKeys = async () => {
  const found: string[] = []
  for await (const keys of redis.scanStream({ match: `${prefix}*`, count: 500 })) found.push(...(keys as string[]))
  return found
}

if (!reachable && !process.env.CI) {
  t.plan(0, `no Redis on ${REDIS_URL}: shared rate-limit counters are not tested here`)
} else {
  t.ok(reachable, `Redis answers on ${REDIS_URL}`)
  t.teardown(async () => {
    await removeOwnKeys()
    redis.disconnect()
  })

  const withRedis = (policy: Parameters<typeof loose>[0]) => ({
    config: { rateLimit: true, redisUrl: REDIS_URL },
    options: { rateLimits: loose(policy), rateLimitKeyPrefix: prefix },
  })

  await t.test('two instances share one count: a limit reached through one holds on the other', async (t) => {
    await removeOwnKeys()
    const policy = { loginFailuresPerAddressAndAccount: { max: 3, windowMs: 60_000 } }
    const a = await buildSeededApp(t, withRedis(policy))
    const b = await buildSeededApp(t, withRedis(policy))
    t.equal((await a.app.inject(badLogin('guest'))).statusCode, 401)
    t.equal((await b.app.inject(badLogin('guest'))).statusCode, 401)
    t.equal((await a.app.inject(badLogin('guest'))).statusCode, 401)
    expect429(t, await b.app.inject(badLogin('guest')), 'the fourth guess, on the other instance')
    t.ok(
      (await ownKeys()).some((key) => key.includes('login-address-account:')),
      'the count is in Redis, under the prefix',
    )
  })

  await t.test('limiters keyed alike keep apart: writes and uploads, both by user id, count separately', async (t) => {
    await removeOwnKeys()
    const api = await buildSeededApp(
      t,
      withRedis({ writesPerUser: { max: 5, windowMs: 60_000 }, uploadsPerUser: { max: 5, windowMs: 60_000 } }),
    )
    const token = await api.login('guest')
    // Each upload is a write and an upload: one shared counter would reach 6 on the third.
    for (let i = 1; i <= 3; i++)
      t.equal(
        (await api.as(token, { method: 'POST', url: '/api/media', ...fileUpload(PNG) })).statusCode,
        201,
        `upload ${i}`,
      )
    const post = () => api.as(token, { method: 'POST', url: '/api/posts', payload: { content: 'counted once' } })
    t.equal((await post()).statusCode, 201, 'write 4')
    t.equal((await post()).statusCode, 201, 'write 5')
    expect429(t, await post(), 'write 6')
    const keys = await ownKeys()
    t.ok(keys.some((key) => /writes:/.test(key)) && keys.some((key) => /uploads:/.test(key)), 'one key per limiter', {
      keys,
    })
    t.notOk(
      keys.some((key) => !key.startsWith(prefix)),
      'every key under the prefix',
    )
  })

  await t.test('an unreachable Redis fails open with a warning, and never stops the app', async (t) => {
    const lines: string[] = []
    const api = await buildSeededApp(t, {
      config: { rateLimit: true, redisUrl: 'redis://127.0.0.1:1', logLevel: 'warn' },
      options: {
        rateLimits: loose({ loginFailuresPerAddressAndAccount: { max: 1, windowMs: 60_000 } }),
        logStream: { write: (line) => void lines.push(line) },
      },
    })
    for (let i = 1; i <= 3; i++)
      t.equal((await api.app.inject(badLogin('guest'))).statusCode, 401, `login ${i} is judged`)
    t.equal((await api.app.inject({ method: 'GET', url: '/api/posts' })).statusCode, 200)
    const warnings = lines.filter((line) => line.includes('Redis is unreachable'))
    t.equal(warnings.length, 1, 'one warning for the outage, not one per retry or request')
    await api.app.close()
  })
}
