import fastifyMultipart from '@fastify/multipart'
import fastifySwagger from '@fastify/swagger'
import fastifySwaggerUi from '@fastify/swagger-ui'
import type { FastifyInstance, FastifyServerOptions } from 'fastify'
import type { Config } from './config.js'
import { openPersistence } from './persistence.js'
import { IMPORT_LIMITS, type ImportLimits } from './services/archive-reader.js'
import type { Database } from './store/types.js'
import { openMediaStorage } from './media/index.js'
import type { MediaStorage } from './media/media-storage.js'
import { createMediaUrls } from './media/media-urls.js'
import authPlugin from './plugins/auth.js'
import { installBodyParsers } from './plugins/body-parsers.js'
import { registerCompression } from './plugins/compression.js'
import { clientErrorHandler, frameworkErrors, installErrorHandler } from './plugins/errors.js'
import eventsHub, { redactUrl, type EventsHubOptions } from './plugins/events.js'
import { perInstanceLimitsWarning, type RateLimitPolicy } from './plugins/rate-limits.js'
import securityPlugin, { swaggerUiCsp } from './plugins/security.js'
import { readClientPage, registerStaticFiles } from './plugins/static-files.js'
import { installValidation } from './plugins/validation.js'
import adminRoutes from './routes/admin.js'
import accountRoutes from './routes/account.js'
import authRoutes from './routes/auth.js'
import commentsRoutes from './routes/comments.js'
import pollsRoutes from './routes/polls.js'
import eventsRoutes from './routes/events.js'
import feedRoutes from './routes/feed.js'
import healthRoutes from './routes/health.js'
import mediaRoutes from './routes/media.js'
import notificationsRoutes from './routes/notifications.js'
import conversationsRoutes from './routes/conversations.js'
import postsRoutes from './routes/posts.js'
import reportsRoutes from './routes/reports.js'
import searchRoutes from './routes/search.js'
import sharePages from './routes/share-pages.js'
import tagsRoutes from './routes/tags.js'
import usersRoutes from './routes/users.js'
import relationsRoutes from './routes/relations.js'
import followRequestsRoutes from './routes/follow-requests.js'
import mastodon from './mastodon/index.js'
import { isMastodonApiPath } from './mastodon/paths.js'
import { MAX_UPLOAD_BYTES } from './schemas/media.js'
import { buildSeed } from './seed/index.js'
import { createAccountSecrets } from './services/account-secrets.js'
import { createServices } from './services/index.js'
import readCache from './plugins/read-cache.js'
import { withKeptReads } from './kept-reads.js'
import { createLinkPreviews } from './services/link-previews.js'
import type { LinkFetchOptions } from './services/link-fetch.js'
import { hiddenFrom } from './services/visibility.js'
import { smtpMailer } from './services/mailer.js'
import { createJobQueue, type JobHandlers } from './services/jobs.js'
import type { DocumentLoader } from '@fedify/fedify'
import { ChirpMessageQueue } from './federation/message-queue.js'

export interface AppOptions {
  /** The clock, for tests. */
  now?: () => Date
  events?: EventsHubOptions
  /** Tighter or looser limits than the defaults, for tests. */
  rateLimits?: Partial<RateLimitPolicy>
  /** Smaller limits on an account's import, for tests. */
  importLimits?: Partial<ImportLimits>
  /** Before every rate-limit key in Redis, so apps sharing one Redis (tests) count apart. */
  rateLimitKeyPrefix?: string
  /** How a slowed-down login waits; tests record the waits instead of sitting them out. */
  sleep?: (ms: number) => Promise<void>
  /** The store can no longer tell what is on disk; main.ts exits so a restart reads the disk afresh. */
  onStoreBroken?: (error: unknown) => void
  /** Where log lines go instead of stdout, for tests that read them (a server option: see serverOptions). */
  logStream?: { write(line: string): void }
  /** Builds the first database of an empty store, its images in the media storage; the seeded demo community by default. */
  seed?: (media: MediaStorage) => Promise<Database>
  /** How link cards' pages are fetched: a resolver, a certificate authority and a deadline of a test's own. */
  linkFetch?: Pick<LinkFetchOptions, 'resolve' | 'ca' | 'timeoutMs'>
  /** How pushes reach a test's own push service: the certificate authority it trusts. */
  pushFetch?: { ca?: string }
  /** Handlers of a test's own, for kinds that have none yet or in place of the app's. */
  jobHandlers?: JobHandlers
  /** How federation fetches remote documents and keys: a test's own, in place of the network. */
  federationDocumentLoader?: DocumentLoader
}

/** What the app plugin is registered with: the parsed configuration, and the seams tests use. */
export interface AppPluginOptions extends AppOptions {
  config: Config
}

/** The options of the Fastify instance the app is registered on; those of the server, not of any plugin. */
export function serverOptions(config: Config, { logStream }: Pick<AppOptions, 'logStream'> = {}): FastifyServerOptions {
  // A hop count trusts that many proxies nearest the server; Fastify's types take it as a function.
  const { trustProxy } = config
  return {
    logger: {
      level: config.logLevel,
      ...(logStream ? { stream: logStream } : {}),
      serializers: {
        req: (request) => ({ method: request.method, url: redactUrl(request.url), remoteAddress: request.ip }),
      },
    },
    trustProxy: typeof trustProxy === 'number' ? (_address: string, hop: number) => hop < trustProxy : trustProxy,
    // Never shown to clients; ids of our own make a request easy to find in the log.
    genReqId: () => crypto.randomUUID(),
    frameworkErrors,
    clientErrorHandler,
    // Clients written against the original mock call `/api/users/bookmark/` as often as without the slash.
    routerOptions: { ignoreTrailingSlash: true },
    // Fastify waits forever for a slow request by default; a trickled body must not hold a socket for good.
    requestTimeout: 300_000,
    // The app opens its store while it registers: a large embedded database takes longer to read than the
    // default 10 s, and a start must never fail on size alone. The store logs what it is doing meanwhile,
    // and PostgreSQL gives up on its own connect timeout.
    pluginTimeout: 0,
  }
}

/**
 * The whole server as one plugin, registered with fastify-plugin on an instance made from serverOptions
 * (main.ts; tests over a temporary data directory), so its error handler and decorations are the instance's own.
 */
export default async function app(fastify: FastifyInstance, { config, ...options }: AppPluginOptions) {
  installBodyParsers(fastify)
  installValidation(fastify)
  installErrorHandler(fastify)
  const limitsWarning = perInstanceLimitsWarning(config)
  if (limitsWarning) fastify.log.warn(limitsWarning)
  if (config.federation && config.federationAllowPrivate)
    fastify.log.warn(
      'FEDERATION_ALLOW_PRIVATE is set: federation fetches from private addresses and any port. ' +
        'It is meant for tests only.',
    )
  if (config.pushAllow.length > 0)
    fastify.log.warn(
      `PUSH_ALLOW is set (${config.pushAllow.join(', ')}): pushes go to those hosts whatever address they ` +
        'resolve to. It is meant for tests only.',
    )
  if (config.linkPreviews && config.linkPreviewAllow.length > 0)
    fastify.log.warn(
      `LINK_PREVIEW_ALLOW is set (${config.linkPreviewAllow.join(', ')}): link cards fetch from those hosts ` +
        'whatever address they resolve to. It is meant for tests only.',
    )
  await fastify.register(securityPlugin, {
    allowedOrigins: config.allowedOrigins,
    crossSiteExempt: isMastodonApiPath,
    rateLimit: config.rateLimit,
    limits: options.rateLimits,
    redisUrl: config.redisUrl,
    redisKeyPrefix: options.rateLimitKeyPrefix,
    sleep: options.sleep,
  })

  const mediaStorage = openMediaStorage(config)
  fastify.addHook('onClose', async () => mediaStorage.close())
  const persistence = await openPersistence(config, {
    seed: () =>
      options.seed
        ? options.seed(mediaStorage)
        : buildSeed(mediaStorage, { passwordHashCost: config.passwordHashCost }),
    log: fastify.log,
    onBroken: (error) => {
      fastify.log.fatal({ err: error }, 'the database can no longer be read back after a failed write')
      options.onStoreBroken?.(error)
    },
  })
  fastify.addHook('onClose', () => persistence.close())
  await fastify.register(readCache, { store: persistence.store })
  // Everything above the store reads through the app's one read cache.
  const store = withKeptReads(persistence.store, fastify.readCache.kept)

  const now = options.now ?? (() => new Date())
  await fastify.register(eventsHub, {
    maxStreamsPerUser: config.eventsMaxStreamsPerUser,
    hiddenFrom: (userId) => hiddenFrom(store, userId, now()),
    followingOf: async (userId) => (await store.getUser(userId))?.following ?? [],
    filtersOf: async (userId) => {
      const [filters, account] = await Promise.all([store.listFilters(userId), store.getAccount(userId)])
      return { filters, username: account?.username }
    },
    ...persistence.hubOptions,
    ...options.events,
  })
  await persistence.connect(fastify.events)

  const jwtSecret = await persistence.jwtSecret()
  const mailer = config.smtpUrl ? smtpMailer(config.smtpUrl, config.smtpFrom) : undefined
  if (mailer) fastify.addHook('onClose', async () => mailer.close())
  const services = createServices({
    store,
    now,
    mediaStorage,
    mediaUrls: createMediaUrls(config.s3?.publicUrl),
    signToken: (payload) => fastify.signToken(payload),
    signAppToken: (payload) => fastify.signAppToken(payload),
    tokenSeconds: config.jwtExpiresIn,
    guestLogin: config.guestLogin,
    registration: config.registration,
    rateLimit: config.rateLimit,
    importLimits: { ...IMPORT_LIMITS, ...options.importLimits },
    secrets: createAccountSecrets(jwtSecret),
    mailer,
    publicUrl: config.publicUrl,
    federation: config.federation,
    pollDaySeconds: config.pollDaySeconds,
    scheduleMinSeconds: config.scheduleMinSeconds,
    mailBatchSeconds: config.mailBatchSeconds,
    passwordHashCost: config.passwordHashCost,
    warn: (message, error) => fastify.log.warn(error === undefined ? {} : { err: error }, message),
    linkFetch: config.linkPreviews ? { allow: config.linkPreviewAllow, ...options.linkFetch } : undefined,
    push: {
      vapid: { ...(await persistence.vapidKeys()), subject: config.vapidSubject },
      allow: config.pushAllow,
      ...options.pushFetch,
    },
  })
  // Fedify's messages (deliveries, activities received) are jobs of this queue like any other.
  const federationQueue = config.federation ? new ChirpMessageQueue(store, now) : undefined
  const jobs = createJobQueue({
    store,
    now,
    handlers: { ...services.jobHandlers, ...federationQueue?.jobHandlers, ...options.jobHandlers },
    concurrency: config.jobsConcurrency,
    pollMs: config.jobsPollMs,
    leaseMs: config.jobsLeaseMs,
    retryMs: config.jobsRetryMs,
    giveUpMs: config.jobsGiveUpMs,
    log: (message, error) => fastify.log.warn(error === undefined ? {} : { err: error }, message),
  })
  // Once the app is ready, so no job runs against a half-registered app; before the store closes
  // (onClose), every run under way ends and is recorded, done or given back.
  fastify.addHook('onReady', async () => jobs.start())
  fastify.addHook('preClose', async () => jobs.close())

  await fastify.register(authPlugin, {
    secret: jwtSecret,
    expiresIn: config.jwtExpiresIn,
    auth: services.auth,
  })
  // One part in all: the parser skips whatever follows the file, and routes/media.ts refuses the upload for it.
  await fastify.register(fastifyMultipart, {
    limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 0, parts: 1, headerPairs: 50 },
  })
  await fastify.register(fastifySwagger, {
    openapi: {
      info: { title: 'Chirp API', version: '1.0.0', description: 'The short-post social network behind Chirp.' },
      components: {
        securitySchemes: { token: { type: 'apiKey', in: 'header', name: 'authorization' } },
      },
    },
  })
  await fastify.register(fastifySwaggerUi, { routePrefix: '/api/docs', ...swaggerUiCsp })

  await fastify.register(
    async (api) => {
      const routeOptions = { services }
      await registerCompression(api)
      await api.register(healthRoutes, { guestLogin: config.guestLogin, registration: config.registration, store })
      await api.register(authRoutes, routeOptions)
      // Before the users' routes, so that /users/blocks and /users/mutes are never read as usernames.
      await api.register(relationsRoutes, routeOptions)
      await api.register(accountRoutes, routeOptions)
      await api.register(usersRoutes, routeOptions)
      await api.register(followRequestsRoutes, routeOptions)
      await api.register(postsRoutes, routeOptions)
      await api.register(feedRoutes, routeOptions)
      await api.register(commentsRoutes, routeOptions)
      await api.register(pollsRoutes, routeOptions)
      await api.register(mediaRoutes, routeOptions)
      await api.register(notificationsRoutes, routeOptions)
      await api.register(conversationsRoutes, routeOptions)
      await api.register(tagsRoutes, routeOptions)
      await api.register(searchRoutes, routeOptions)
      await api.register(reportsRoutes, routeOptions)
      await api.register(adminRoutes, routeOptions)
      await api.register(eventsRoutes)
    },
    { prefix: '/api' },
  )

  await fastify.register(mastodon, { services, publicUrl: config.publicUrl, registration: config.registration })
  if (federationQueue) {
    // Loaded only when on: Fedify takes about a second to import, which a start without federation is spared.
    const { registerFederation } = await import('./federation/index.js')
    await registerFederation(fastify, {
      config,
      services,
      store,
      now,
      queue: federationQueue,
      ...(options.federationDocumentLoader ? { documentLoader: options.federationDocumentLoader } : {}),
      ...(options.linkFetch ? { fetch: options.linkFetch } : {}),
    })
  }

  const indexHtml = await readClientPage(config.clientDir)
  if (indexHtml !== undefined) {
    const previews = createLinkPreviews(services)
    await fastify.register(sharePages, { previews, indexHtml, publicRead: config.publicRead })
  }
  await registerStaticFiles(fastify, { clientDir: config.clientDir, media: mediaStorage })
}
