import t from 'tap'
import { ConfigError, parseConfig } from '../../server/config.js'
import { hashPassword, verifyPassword } from '../../server/services/passwords.js'
import { startApp, tempDataDir, testConfig } from '../helpers/app.js'
import { startS3 } from '../helpers/s3.js'

await t.test('defaults', async (t) => {
  const config = parseConfig({}, '/srv/chirp')
  t.equal(config.host, '127.0.0.1')
  t.equal(config.port, 3000)
  t.equal(config.dataDir, '/srv/chirp/data')
  t.equal(config.jwtSecret, undefined)
  t.equal(config.jwtExpiresIn, 7 * 24 * 3600)
  t.equal(config.logLevel, 'info')
  t.equal(config.guestLogin, true)
  t.equal(config.trustProxy, false)
  t.equal(config.rateLimit, true)
  t.equal(config.passwordHashCost, 14, 'passwords are hashed with scrypt at N = 2^14')
})

await t.test('PASSWORD_HASH_COST sets the hashes of new passwords; the stored ones keep theirs', async (t) => {
  const production = await hashPassword('correct horse', parseConfig({}).passwordHashCost)
  t.match(production, /^scrypt\$16384\$8\$1\$[\w-]+\$[\w-]+$/, 'by default N = 16384, r = 8, p = 1')
  const cheap = await hashPassword('correct horse', parseConfig({ PASSWORD_HASH_COST: '4' }).passwordHashCost)
  t.match(cheap, /^scrypt\$16\$8\$1\$/)
  t.ok(await verifyPassword('correct horse', production))
  t.ok(await verifyPassword('correct horse', cheap), 'each hash is checked with its own parameters')
  t.notOk(await verifyPassword('wrong horse', cheap))
  for (const bad of ['0', '21', 'high'])
    t.throws(() => parseConfig({ PASSWORD_HASH_COST: bad }), /PASSWORD_HASH_COST must be a whole number from 1 to 20/)
})

await t.test('every bad variable is reported at once', async (t) => {
  const error = t.throws(() =>
    parseConfig({ PORT: 'eighty', LOG_LEVEL: 'loud', GUEST_LOGIN: 'maybe', JWT_SECRET: 'short', JWT_EXPIRES_IN: '5' }),
  ) as ConfigError
  t.type(error, ConfigError)
  t.equal(error.problems.length, 5)
  for (const name of ['PORT', 'LOG_LEVEL', 'GUEST_LOGIN', 'JWT_SECRET', 'JWT_EXPIRES_IN']) {
    t.ok(
      error.problems.some((problem) => problem.startsWith(name)),
      `${name} is named`,
    )
  }
})

await t.test('TRUST_PROXY: off, a hop count, named proxies, or everything', async (t) => {
  t.equal(parseConfig({ TRUST_PROXY: 'false' }).trustProxy, false)
  t.equal(parseConfig({ TRUST_PROXY: '0' }).trustProxy, 0)
  t.equal(parseConfig({ TRUST_PROXY: '1' }).trustProxy, 1, 'a number is a hop count, not true')
  t.equal(parseConfig({ TRUST_PROXY: 'loopback,10.0.0.0/8' }).trustProxy, 'loopback,10.0.0.0/8')
  t.equal(parseConfig({ TRUST_PROXY: 'true' }).trustProxy, true)
})

await t.test('GUEST_LOGIN and RATE_LIMIT read the usual spellings of true and false', async (t) => {
  t.equal(parseConfig({ GUEST_LOGIN: 'false' }).guestLogin, false)
  t.equal(parseConfig({ GUEST_LOGIN: '0' }).guestLogin, false)
  t.equal(parseConfig({ RATE_LIMIT: 'off' }).rateLimit, false)
  t.equal(parseConfig({ RATE_LIMIT: 'yes' }).rateLimit, true)
})

await t.test('PUBLIC_READ: off unless set, read like the other switches, and a bad value refused', async (t) => {
  t.equal(parseConfig({}).publicRead, false, 'visitors meet the auth guard by default')
  t.equal(parseConfig({ PUBLIC_READ: 'true' }).publicRead, true)
  t.equal(parseConfig({ PUBLIC_READ: 'off' }).publicRead, false)
  t.throws(() => parseConfig({ PUBLIC_READ: 'sometimes' }), /PUBLIC_READ must be true or false, got "sometimes"/)
})

await t.test('a hop count of 1 takes the address the one proxy appended, not what the client forged', async (t) => {
  const dataDir = await tempDataDir(t)
  const app = await startApp(testConfig(dataDir, { trustProxy: parseConfig({ TRUST_PROXY: '1' }).trustProxy }))
  t.teardown(() => app.close())
  app.get('/ip', async (request) => ({ ip: request.ip }))
  const res = await app.inject({
    method: 'GET',
    url: '/ip',
    remoteAddress: '127.0.0.1',
    headers: { 'x-forwarded-for': '6.6.6.6, 203.0.113.7' },
  })
  t.equal(res.json<{ ip: string }>().ip, '203.0.113.7')
})

await t.test('the store: embedded by default, PostgreSQL with DATABASE_URL', async (t) => {
  const embedded = parseConfig({}, '/srv/chirp')
  t.equal(embedded.databaseUrl, undefined)
  t.equal(embedded.mediaDir, '/srv/chirp/data/media', 'uploads live in the data directory by default')
  t.equal(embedded.databasePoolMax, 10)
  t.equal(embedded.databaseSchema, 'public')
  const shared = parseConfig(
    {
      DATABASE_URL: 'postgres://chirp@db:5432/chirp',
      DATABASE_POOL_MAX: '4',
      DATABASE_SCHEMA: 'community_b',
      MEDIA_DIR: '/shared/media',
    },
    '/srv/chirp',
  )
  t.match(shared, {
    databaseUrl: 'postgres://chirp@db:5432/chirp',
    databasePoolMax: 4,
    databaseSchema: 'community_b',
    mediaDir: '/shared/media',
  })
  const error = t.throws(() =>
    parseConfig({ DATABASE_URL: 'mysql://db/chirp', DATABASE_POOL_MAX: '0', DATABASE_SCHEMA: 'Robert"; drop' }),
  ) as ConfigError
  for (const name of ['DATABASE_URL', 'DATABASE_POOL_MAX', 'DATABASE_SCHEMA']) {
    t.ok(
      error.problems.some((problem) => problem.startsWith(name)),
      `${name} is named`,
    )
  }
})

await t.test(
  'REDIS_URL: optional, a redis:// or rediss:// URL, never repeated in an error since it may hold a password',
  async (t) => {
    t.equal(parseConfig({}).redisUrl, undefined)
    t.equal(parseConfig({ REDIS_URL: '' }).redisUrl, undefined)
    t.equal(parseConfig({ REDIS_URL: 'redis://127.0.0.1:6379' }).redisUrl, 'redis://127.0.0.1:6379')
    t.equal(
      parseConfig({ REDIS_URL: 'rediss://:s3cret@cache.internal:6380/2' }).redisUrl,
      'rediss://:s3cret@cache.internal:6380/2',
    )
    for (const bad of ['http://:s3cret@cache.internal', 'cache.internal:6379', 'redis://', 'not a url s3cret']) {
      const error = t.throws(() => parseConfig({ REDIS_URL: bad }), bad) as ConfigError
      t.strictSame(error.problems, ['REDIS_URL must be a redis:// or rediss:// URL with a host'], bad)
      t.notMatch(error.message, /s3cret/, `${bad}: the value is not echoed`)
    }
  },
)

await t.test('ALLOWED_ORIGINS: origins as browsers send them, every bad entry named', async (t) => {
  t.strictSame(parseConfig({}).allowedOrigins, [], 'none by default: every other site is refused')
  t.strictSame(
    parseConfig({ ALLOWED_ORIGINS: ' https://App.Example.com/ ,http://127.0.0.1:5173,,https://b.example:443' })
      .allowedOrigins,
    ['https://app.example.com', 'http://127.0.0.1:5173', 'https://b.example'],
    'spelled as the Origin header spells them: lower case, no slash, no default port',
  )
  const bad = [
    '*',
    'null',
    'app.example.com',
    'ftp://app.example.com',
    'https://app.example.com/path',
    'https://u@a.example',
  ]
  const error = t.throws(() => parseConfig({ ALLOWED_ORIGINS: bad.join(',') })) as ConfigError
  t.strictSame(
    error.problems,
    bad.map(
      (entry) => `ALLOWED_ORIGINS must be origins such as https://app.example.com, comma-separated; got "${entry}"`,
    ),
  )
})

await t.test('SMTP_URL, SMTP_FROM and PUBLIC_URL: mail and the links in it', async (t) => {
  const defaults = parseConfig({ PORT: '3456' })
  t.equal(defaults.smtpUrl, undefined, 'no mail without SMTP_URL')
  t.equal(defaults.smtpFrom, 'Chirp <no-reply@localhost>')
  t.equal(defaults.publicUrl, 'http://localhost:3456', 'links point at this port on localhost by default')
  const set = parseConfig({
    SMTP_URL: 'smtps://chirp:s3cret@mail.example.com:465',
    SMTP_FROM: 'Chirp <chirp@example.com>',
    PUBLIC_URL: 'https://chirp.example.com/',
  })
  t.equal(set.smtpUrl, 'smtps://chirp:s3cret@mail.example.com:465')
  t.equal(set.smtpFrom, 'Chirp <chirp@example.com>')
  t.equal(set.publicUrl, 'https://chirp.example.com', 'kept without its trailing slash')
  t.equal(parseConfig({ PUBLIC_URL: 'https://example.com/chirp/' }).publicUrl, 'https://example.com/chirp', 'a path')
  for (const bad of ['http://mail.example.com', 'smtp://', 'mail s3cret']) {
    const error = t.throws(() => parseConfig({ SMTP_URL: bad }), bad) as ConfigError
    t.strictSame(error.problems, ['SMTP_URL must be an smtp:// or smtps:// URL with a host'], bad)
    t.notMatch(error.message, /s3cret/, `${bad}: the value is not echoed`)
  }
  for (const bad of ['chirp.example.com', 'ftp://chirp.example.com', 'https://chirp.example.com/?a=1']) {
    const error = t.throws(() => parseConfig({ PUBLIC_URL: bad }), bad) as ConfigError
    t.strictSame(
      error.problems,
      [`PUBLIC_URL must be an http(s) address such as https://chirp.example.com, got "${bad}"`],
      bad,
    )
  }
})

await t.test('S3_*: off without S3_BUCKET; with it, the bucket and how to reach it', async (t) => {
  t.equal(parseConfig({}).s3, undefined, 'uploads stay in MEDIA_DIR by default')
  t.strictSame(parseConfig({ S3_BUCKET: 'chirp-media' }).s3, {
    bucket: 'chirp-media',
    endpoint: undefined,
    region: 'us-east-1',
    accessKeyId: undefined,
    secretAccessKey: undefined,
    publicUrl: undefined,
    forcePathStyle: false,
  })
  const minio = parseConfig({
    S3_BUCKET: 'media.chirp',
    S3_ENDPOINT: 'http://minio:9000/',
    S3_REGION: 'eu-west-1',
    S3_ACCESS_KEY_ID: 'chirp',
    S3_SECRET_ACCESS_KEY: 's3cret-key',
    S3_PUBLIC_URL: 'https://media.example.com/chirp/',
    S3_FORCE_PATH_STYLE: 'true',
  }).s3
  t.strictSame(minio, {
    bucket: 'media.chirp',
    endpoint: 'http://minio:9000',
    region: 'eu-west-1',
    accessKeyId: 'chirp',
    secretAccessKey: 's3cret-key',
    publicUrl: 'https://media.example.com/chirp',
    forcePathStyle: true,
  })
})

await t.test('S3_*: every bad setting is named, and no secret or endpoint is echoed', async (t) => {
  const error = t.throws(() =>
    parseConfig({
      S3_BUCKET: 'Chirp_Media',
      S3_ENDPOINT: 'ftp://user:s3cret@minio:21',
      S3_REGION: 'EU West',
      S3_ACCESS_KEY_ID: 'chirp',
      S3_PUBLIC_URL: 'http://media.example.com',
      S3_FORCE_PATH_STYLE: 'sometimes',
    }),
  ) as ConfigError
  t.strictSame(error.problems, [
    'S3_BUCKET must be a bucket name (3 to 63 of a-z, 0-9, "." and "-"), got "Chirp_Media"',
    'S3_REGION must be a region such as eu-west-1, got "EU West"',
    'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together',
    'S3_PUBLIC_URL must be an https address such as https://media.example.com, got "http://media.example.com"',
    'S3_ENDPOINT must be an http(s) address such as http://minio:9000, without credentials',
    'S3_FORCE_PATH_STYLE must be true or false, got "sometimes"',
  ])
  t.notMatch(error.message, /s3cret/, 'the endpoint is not repeated')
  const secretOnly = t.throws(() => parseConfig({ S3_BUCKET: 'chirp', S3_SECRET_ACCESS_KEY: 's3cret' })) as ConfigError
  t.strictSame(secretOnly.problems, ['S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together'])
  t.notMatch(secretOnly.message, /s3cret/, 'nor the secret')
  for (const bad of ['https://media.example.com/?v=1', 'https://u:p@media.example.com', 'media.example.com']) {
    t.throws(() => parseConfig({ S3_BUCKET: 'chirp', S3_PUBLIC_URL: bad }), /S3_PUBLIC_URL must be an https/, bad)
  }
  t.throws(() => parseConfig({ S3_BUCKET: 'ab' }), /S3_BUCKET must be a bucket name/, 'too short')
})

await t.test(
  'an S3_ setting without S3_BUCKET is a mistake, not ignored: uploads would stay on the disk',
  async (t) => {
    const error = t.throws(() =>
      parseConfig({ S3_ENDPOINT: 'http://minio:9000', S3_PUBLIC_URL: 'https://media.example.com' }),
    ) as ConfigError
    t.strictSame(error.problems, [
      'S3_ENDPOINT is set but S3_BUCKET is not',
      'S3_PUBLIC_URL is set but S3_BUCKET is not',
    ])
  },
)

await t.test(
  'a bucket that does not exist stops the first start, which stores the seeded images in it, saying why',
  async (t) => {
    const s3 = await startS3(t)
    const config = { ...(await s3.bucket()), bucket: 'no-such-bucket' }
    const dataDir = await tempDataDir(t)
    const error = await startApp(testConfig(dataDir, { s3: config })).then(
      async (app) => {
        await app.close()
        return undefined
      },
      (error: unknown) => error as Error,
    )
    t.match(error?.message, /bucket/i, 'seeding the store into it fails, saying the bucket is missing')
  },
)
