import path from 'node:path'
import { StartupError } from './errors.js'
import { DEFAULT_PASSWORD_HASH_COST } from './services/passwords.js'

export interface Config {
  host: string
  port: number
  /** Holds db.json, media/ and the generated JWT secret. */
  dataDir: string
  /** Where uploads live; instances that share a database share this folder too. Unused when `s3` is set. */
  mediaDir: string
  /** An S3-compatible bucket that holds the uploads instead of mediaDir, so instances need no shared volume. */
  s3: S3Config | undefined
  /** A postgres:// URL selects PostgreSQL; absent, the embedded store in dataDir is used. */
  databaseUrl: string | undefined
  /** Connections each instance's pool may open, besides the one that listens for events. */
  databasePoolMax: number
  /** The PostgreSQL schema Chirp's tables live in, so several communities (or test runs) can share one database. */
  databaseSchema: string
  /** When absent, a secret is generated once into the data directory. */
  jwtSecret: string | undefined
  /** How long a token lives, in seconds. */
  jwtExpiresIn: number
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent'
  guestLogin: boolean
  /** Who may sign up (DECISIONS §8): anyone, anyone once a moderator approves, holders of an invite, or nobody. */
  registration: Registration
  /** Visitors without an account may read post, profile and tag pages (with a call to join); off by default. */
  publicRead: boolean
  /** Whether X-Forwarded-For is believed; off unless the app runs behind a known proxy. */
  /** false, true, a hop count, or the proxies' addresses/CIDRs (comma-separated), as Fastify's trustProxy takes them. */
  trustProxy: boolean | number | string
  /** Rate limits can be switched off for local load tests; always on by default. */
  rateLimit: boolean
  /** Where the built client lives; absent when the client has not been built. */
  clientDir: string
  /**
   * `shared` (the default): writes that arrive together share one flush to disk. `per-write` gives every
   * write a flush of its own, one after another; it exists only so the benchmark can measure the difference.
   */
  storeFlush: 'shared' | 'per-write'
  /** Event streams one user may hold open at once; raised by the benchmark's fan-out leg. */
  eventsMaxStreamsPerUser: number
  /** Where rate-limit counters are kept so that every instance sees the same ones; unset, each counts alone. */
  redisUrl: string | undefined
  /** Other sites' origins whose pages may send writes, as `scheme://host[:port]`; every other site is refused. */
  allowedOrigins: string[]
  /** Where password-reset mail is sent through (smtp:// or smtps://); unset, none is sent. */
  smtpUrl: string | undefined
  /** The sender of that mail. */
  smtpFrom: string
  /** The address people reach Chirp at, without a trailing slash: the start of every link Chirp sends. */
  publicUrl: string
  /**
   * Whether Chirp speaks ActivityPub (DECISIONS §14, docs/federation.md): actors, WebFinger, NodeInfo.
   * Only with an https `publicUrl` without a path, whose host is the server's domain.
   */
  federation: boolean
  /**
   * For tests only (FEDERATION_ALLOW_PRIVATE): federation fetches from and delivers to any address and
   * port, so test servers on this machine federate. Never in production.
   */
  federationAllowPrivate: boolean
  /** Whether the server fetches link cards for posts' https links. */
  linkPreviews: boolean
  /**
   * Host names, each with an optional `:port`, whose pages the link fetcher reads without checking their
   * addresses and on any port, lower case: for tests, whose pages are on this machine.
   */
  linkPreviewAllow: string[]
  /** VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY, when set; otherwise a pair is made once and kept (persistence.ts). */
  vapidKeys: { publicKey: string; privateKey: string } | undefined
  /** Whom push services may contact about this server's pushes (VAPID_SUBJECT): a mailto: or https: URL. */
  vapidSubject: string
  /** PUSH_ALLOW: push endpoints' hosts taken whatever they resolve to, for tests. */
  pushAllow: string[]
  /** How long a poll's day lasts, in seconds: 86400 but in tests, which close polls in moments. */
  pollDaySeconds: number
  /** How far ahead a post must be scheduled, in seconds: 300 but in tests, which publish in moments. */
  scheduleMinSeconds: number
  /** How long notification mail waits for the rest of a burst, from its first notification (MAIL_BATCH_SECONDS). */
  mailBatchSeconds: number
  /** Jobs this instance runs at once (docs/job-queue.md). */
  jobsConcurrency: number
  /** How often, in ms, an instance looks for jobs that nothing told it of: other instances' and delayed ones. */
  jobsPollMs: number
  /** How long, in ms, a claimed job is its worker's; past it another worker takes the job. */
  jobsLeaseMs: number
  /** The first retry's delay in ms, doubling after each failed run. */
  jobsRetryMs: number
  /** How long, in ms after its first run, a failing job is retried (deliveries: 48 times as long). */
  jobsGiveUpMs: number
  /** scrypt's cost for new password hashes, as log2 of N: 14 but in tests, which hash thousands. */
  passwordHashCost: number
}

export interface S3Config {
  bucket: string
  /** The server's address (MinIO, Garage, R2, s3rver); absent for AWS itself, which the region then names. */
  endpoint: string | undefined
  region: string
  /** Both or neither; with neither, the SDK's own chain (environment, instance role) finds the credentials. */
  accessKeyId: string | undefined
  secretAccessKey: string | undefined
  /**
   * Where browsers fetch the bucket's objects (a CDN or the bucket's own website), without a trailing
   * slash: an upload's URL is this, a slash and its key. Absent, Chirp serves them at /media/ itself.
   */
  publicUrl: string | undefined
  /** `endpoint/bucket/key` rather than `bucket.endpoint/key`: what MinIO and s3rver need. */
  forcePathStyle: boolean
}

export class ConfigError extends StartupError {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`)
  }
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const
const STORE_FLUSH_MODES = ['shared', 'per-write'] as const
const REGISTRATION_MODES = ['open', 'approval', 'invite', 'closed'] as const
export type Registration = (typeof REGISTRATION_MODES)[number]

function parseBool(name: string, raw: string | undefined, fallback: boolean, problems: string[]): boolean {
  if (raw === undefined || raw === '') return fallback
  if (/^(1|true|yes|on)$/i.test(raw)) return true
  if (/^(0|false|no|off)$/i.test(raw)) return false
  problems.push(`${name} must be true or false, got "${raw}"`)
  return fallback
}

function parseInteger(
  name: string,
  raw: string | undefined,
  fallback: number,
  min: number,
  max: number,
  problems: string[],
): number {
  if (raw === undefined || raw === '') return fallback
  const value = Number(raw)
  if (!Number.isInteger(value) || value < min || value > max) {
    problems.push(`${name} must be a whole number from ${min} to ${max}, got "${raw}"`)
    return fallback
  }
  return value
}

/**
 * A service's URL with a host, in its plain or TLS scheme (redis/rediss, smtp/smtps); it is never
 * repeated in the message, since it may hold a password.
 */
function parseServiceUrl(name: string, scheme: 'redis' | 'smtp', raw: string | undefined, problems: string[]) {
  if (raw === undefined || raw === '') return undefined
  const url = URL.canParse(raw) ? new URL(raw) : undefined
  if (url && (url.protocol === `${scheme}:` || url.protocol === `${scheme}s:`) && url.hostname !== '') return raw
  const article = scheme === 'smtp' ? 'an' : 'a'
  problems.push(`${name} must be ${article} ${scheme}:// or ${scheme}s:// URL with a host`)
  return undefined
}

/** A scheme and a host with an optional port: no path, query, fragment or credentials. */
const ORIGIN = /^https?:\/\/[^/?#@\s]+\/?$/i

/**
 * Origins as a browser sends them in `Origin`: http(s), a host, an optional port, nothing more. Each is
 * kept as URL.origin spells it (lower case, default port dropped), so it compares equal to the header.
 */
function parseOrigins(raw: string | undefined, problems: string[]): string[] {
  const origins: string[] = []
  for (const entry of (raw ?? '').split(',').map((part) => part.trim())) {
    if (entry === '') continue
    if (ORIGIN.test(entry) && URL.canParse(entry)) origins.push(new URL(entry).origin)
    else
      problems.push(`ALLOWED_ORIGINS must be origins such as https://app.example.com, comma-separated; got "${entry}"`)
  }
  return origins
}

/** A host name or IPv4 address with an optional port; an IPv6 literal in brackets with one. */
const HOST_ENTRY =
  /^(?:[a-z0-9]([a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/

function parseHosts(name: string, raw: string | undefined, problems: string[]): string[] {
  const hosts: string[] = []
  for (const entry of (raw ?? '').split(',').map((part) => part.trim().toLowerCase())) {
    if (entry === '') continue
    if (HOST_ENTRY.test(entry)) hosts.push(entry)
    else problems.push(`${name} must be host names with an optional :port, comma-separated; got "${entry}"`)
  }
  return hosts
}

/** The VAPID key pair of VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY: both or neither, base64url P-256 keys. */
function parseVapidKeys(env: Record<string, string | undefined>, problems: string[]): Config['vapidKeys'] {
  const publicKey = env.VAPID_PUBLIC_KEY || undefined
  const privateKey = env.VAPID_PRIVATE_KEY || undefined
  if (publicKey === undefined && privateKey === undefined) return undefined
  const length = (key: string | undefined) =>
    key !== undefined && /^[A-Za-z0-9_-]+$/.test(key) ? Buffer.from(key, 'base64url').length : 0
  if (length(publicKey) !== 65 || length(privateKey) !== 32 || publicKey === undefined || privateKey === undefined) {
    problems.push('VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY must be set together, as base64url P-256 keys')
    return undefined
  }
  return { publicKey, privateKey }
}

/** VAPID_SUBJECT, or PUBLIC_URL when it is https, or a mailto: address of the server's host. */
function parseVapidSubject(raw: string | undefined, publicUrl: string, problems: string[]): string {
  if (raw === undefined || raw === '')
    return publicUrl.startsWith('https:') ? publicUrl : `mailto:push@${new URL(publicUrl).hostname}`
  if (!/^mailto:\S+@\S+$/.test(raw) && !(URL.canParse(raw) && new URL(raw).protocol === 'https:'))
    problems.push(`VAPID_SUBJECT must be a mailto: or https: URL, got "${raw}"`)
  return raw
}

/** An http(s) address, kept without its trailing slash so a path can follow it. */
function parsePublicUrl(raw: string | undefined, port: number, problems: string[]): string {
  const fallback = `http://localhost:${port}`
  if (raw === undefined || raw === '') return fallback
  const url = URL.canParse(raw) ? new URL(raw) : undefined
  if (url && (url.protocol === 'http:' || url.protocol === 'https:') && !url.search && !url.hash && !url.username)
    return url.href.replace(/\/+$/, '')
  problems.push(`PUBLIC_URL must be an http(s) address such as https://chirp.example.com, got "${raw}"`)
  return fallback
}

/**
 * Federation names every person by the domain of PUBLIC_URL (`alice@chirp.example.com`) and signs over
 * https addresses, so it needs one set explicitly, https, and at the root of its host: WebFinger and
 * NodeInfo live at the root and other servers ask for them there.
 */
function checkFederation(env: Record<string, string | undefined>, publicUrl: string, problems: string[]): boolean {
  const on = parseBool('FEDERATION', env.FEDERATION, false, problems)
  if (!on) return false
  const url = new URL(publicUrl)
  if (!env.PUBLIC_URL || url.protocol !== 'https:' || url.pathname !== '/')
    problems.push(
      `FEDERATION=true needs PUBLIC_URL set to the https address of the server’s domain, without a path, ` +
        `such as https://chirp.example.com; got "${env.PUBLIC_URL ?? ''}"`,
    )
  return true
}

/** An http(s) endpoint; never repeated in the message, in case it carries credentials. */
function parseS3Endpoint(raw: string | undefined, problems: string[]): string | undefined {
  if (raw === undefined || raw === '') return undefined
  const url = URL.canParse(raw) ? new URL(raw) : undefined
  if (url && (url.protocol === 'http:' || url.protocol === 'https:') && !url.username && !url.search && !url.hash)
    return url.href.replace(/\/+$/, '')
  problems.push('S3_ENDPOINT must be an http(s) address such as http://minio:9000, without credentials')
  return undefined
}

/** Bucket names as S3 allows them: 3 to 63 lower-case letters, digits, dots and hyphens. */
const BUCKET_NAME = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/
const S3_SETTINGS = [
  'S3_ENDPOINT',
  'S3_REGION',
  'S3_ACCESS_KEY_ID',
  'S3_SECRET_ACCESS_KEY',
  'S3_PUBLIC_URL',
  'S3_FORCE_PATH_STYLE',
] as const

/**
 * The bucket settings, or undefined without S3_BUCKET. Another S3_ setting without the bucket is a
 * mistake to report, not to ignore: uploads would silently stay on the disk. The public URL must be
 * https, as the app's pages load images from https only (and the posts' rule for outside images is the same).
 */
function parseS3(env: Record<string, string | undefined>, problems: string[]): S3Config | undefined {
  const bucket = env.S3_BUCKET || undefined
  if (bucket === undefined) {
    for (const name of S3_SETTINGS) if (env[name]) problems.push(`${name} is set but S3_BUCKET is not`)
    return undefined
  }
  if (!BUCKET_NAME.test(bucket))
    problems.push(`S3_BUCKET must be a bucket name (3 to 63 of a-z, 0-9, "." and "-"), got "${bucket}"`)
  const region = env.S3_REGION || 'us-east-1'
  if (!/^[a-z0-9-]{1,64}$/.test(region)) problems.push(`S3_REGION must be a region such as eu-west-1, got "${region}"`)
  const accessKeyId = env.S3_ACCESS_KEY_ID || undefined
  const secretAccessKey = env.S3_SECRET_ACCESS_KEY || undefined
  if ((accessKeyId === undefined) !== (secretAccessKey === undefined))
    problems.push('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together')
  let publicUrl: string | undefined
  const rawPublic = env.S3_PUBLIC_URL || undefined
  if (rawPublic !== undefined) {
    const url = URL.canParse(rawPublic) ? new URL(rawPublic) : undefined
    if (url && url.protocol === 'https:' && !url.username && !url.search && !url.hash)
      publicUrl = url.href.replace(/\/+$/, '')
    else problems.push(`S3_PUBLIC_URL must be an https address such as https://media.example.com, got "${rawPublic}"`)
  }
  return {
    bucket,
    endpoint: parseS3Endpoint(env.S3_ENDPOINT, problems),
    region,
    accessKeyId,
    secretAccessKey,
    publicUrl,
    forcePathStyle: parseBool('S3_FORCE_PATH_STYLE', env.S3_FORCE_PATH_STYLE, false, problems),
  }
}

/** Reads every variable once and reports every bad one together. Pure: tests pass their own env. */
export function parseConfig(env: Record<string, string | undefined>, cwd = process.cwd()): Config {
  const problems: string[] = []
  const logLevel = env.LOG_LEVEL || 'info'
  if (!(LOG_LEVELS as readonly string[]).includes(logLevel)) {
    problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`)
  }
  const jwtSecret = env.JWT_SECRET || undefined
  if (jwtSecret !== undefined && Buffer.byteLength(jwtSecret) < 32) {
    problems.push('JWT_SECRET must be at least 32 bytes long')
  }
  const databaseUrl = env.DATABASE_URL || undefined
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    problems.push('DATABASE_URL must be a postgres:// or postgresql:// URL')
  }
  const databaseSchema = env.DATABASE_SCHEMA || 'public'
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(databaseSchema)) {
    problems.push(`DATABASE_SCHEMA must be a lower-case SQL name (letters, digits, _), got "${databaseSchema}"`)
  }
  const storeFlush = env.STORE_FLUSH || 'shared'
  if (!(STORE_FLUSH_MODES as readonly string[]).includes(storeFlush)) {
    problems.push(`STORE_FLUSH must be one of ${STORE_FLUSH_MODES.join(', ')}, got "${storeFlush}"`)
  }
  const registration = env.REGISTRATION || 'open'
  if (!(REGISTRATION_MODES as readonly string[]).includes(registration)) {
    problems.push(`REGISTRATION must be one of ${REGISTRATION_MODES.join(', ')}, got "${registration}"`)
  }
  const trustRaw = env.TRUST_PROXY
  let trustProxy: boolean | number | string = false
  if (trustRaw !== undefined && trustRaw !== '') {
    // A number is a hop count: "1" means one proxy in front, not "believe every X-Forwarded-For entry".
    trustProxy = /^\d+$/.test(trustRaw)
      ? Number(trustRaw)
      : /^(true|yes|on)$/i.test(trustRaw)
        ? true
        : /^(false|no|off)$/i.test(trustRaw)
          ? false
          : trustRaw
  }
  const dataDir = path.resolve(cwd, env.DATA_DIR || './data')
  const port = parseInteger('PORT', env.PORT, 3000, 0, 65535, problems)
  const publicUrl = parsePublicUrl(env.PUBLIC_URL, port, problems)
  const config: Config = {
    host: env.HOST || '127.0.0.1',
    port,
    dataDir,
    mediaDir: env.MEDIA_DIR ? path.resolve(cwd, env.MEDIA_DIR) : path.join(dataDir, 'media'),
    s3: parseS3(env, problems),
    databaseUrl,
    databasePoolMax: parseInteger('DATABASE_POOL_MAX', env.DATABASE_POOL_MAX, 10, 1, 1000, problems),
    databaseSchema,
    jwtSecret,
    pollDaySeconds: parseInteger('POLL_DAY_SECONDS', env.POLL_DAY_SECONDS, 86_400, 1, 86_400, problems),
    scheduleMinSeconds: parseInteger('SCHEDULE_MIN_SECONDS', env.SCHEDULE_MIN_SECONDS, 300, 0, 300, problems),
    mailBatchSeconds: parseInteger('MAIL_BATCH_SECONDS', env.MAIL_BATCH_SECONDS, 60, 0, 86_400, problems),
    passwordHashCost: parseInteger(
      'PASSWORD_HASH_COST',
      env.PASSWORD_HASH_COST,
      DEFAULT_PASSWORD_HASH_COST,
      1,
      20,
      problems,
    ),
    jwtExpiresIn: parseInteger('JWT_EXPIRES_IN', env.JWT_EXPIRES_IN, 7 * 24 * 3600, 60, 365 * 24 * 3600, problems),
    logLevel: logLevel as Config['logLevel'],
    guestLogin: parseBool('GUEST_LOGIN', env.GUEST_LOGIN, true, problems),
    registration: registration as Registration,
    publicRead: parseBool('PUBLIC_READ', env.PUBLIC_READ, false, problems),
    trustProxy,
    rateLimit: parseBool('RATE_LIMIT', env.RATE_LIMIT, true, problems),
    clientDir: path.resolve(cwd, env.CLIENT_DIR || './dist/client'),
    storeFlush: storeFlush as Config['storeFlush'],
    eventsMaxStreamsPerUser: parseInteger(
      'EVENTS_MAX_STREAMS_PER_USER',
      env.EVENTS_MAX_STREAMS_PER_USER,
      10,
      1,
      100_000,
      problems,
    ),
    redisUrl: parseServiceUrl('REDIS_URL', 'redis', env.REDIS_URL, problems),
    allowedOrigins: parseOrigins(env.ALLOWED_ORIGINS, problems),
    smtpUrl: parseServiceUrl('SMTP_URL', 'smtp', env.SMTP_URL, problems),
    smtpFrom: env.SMTP_FROM || 'Chirp <no-reply@localhost>',
    publicUrl,
    federation: checkFederation(env, publicUrl, problems),
    federationAllowPrivate: parseBool('FEDERATION_ALLOW_PRIVATE', env.FEDERATION_ALLOW_PRIVATE, false, problems),
    linkPreviews: parseBool('LINK_PREVIEWS', env.LINK_PREVIEWS, true, problems),
    linkPreviewAllow: parseHosts('LINK_PREVIEW_ALLOW', env.LINK_PREVIEW_ALLOW, problems),
    vapidKeys: parseVapidKeys(env, problems),
    vapidSubject: parseVapidSubject(env.VAPID_SUBJECT, publicUrl, problems),
    pushAllow: parseHosts('PUSH_ALLOW', env.PUSH_ALLOW, problems),
    jobsConcurrency: parseInteger('JOBS_CONCURRENCY', env.JOBS_CONCURRENCY, 8, 1, 1000, problems),
    jobsPollMs: parseInteger('JOBS_POLL_MS', env.JOBS_POLL_MS, 1000, 10, 600_000, problems),
    jobsLeaseMs: parseInteger('JOBS_LEASE_MS', env.JOBS_LEASE_MS, 30_000, 100, 3_600_000, problems),
    jobsRetryMs: parseInteger('JOBS_RETRY_MS', env.JOBS_RETRY_MS, 5_000, 1, 3_600_000, problems),
    jobsGiveUpMs: parseInteger('JOBS_GIVE_UP_MS', env.JOBS_GIVE_UP_MS, 3_600_000, 1, 86_400_000, problems),
  }
  if (problems.length > 0) throw new ConfigError(problems)
  return config
}
