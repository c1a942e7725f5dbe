import fastifyMultipart from '@fastify/multipart'
import fastifySwagger from '@fastify/swagger'
import fastifySwaggerUi from '@fastify/swagger-ui'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import Fastify, { type FastifyInstance } from 'fastify'
import type { Config } from './config.js'
import { openPersistence } from './persistence.js'
import type { Database } from './store/types.js'
import authPlugin from './plugins/auth.js'
import { installBodyParsers } from './plugins/body-parsers.js'
import { registerCompression } from './plugins/compression.js'
import { clientErrorHandler, frameworkErrors, installErrorHandler } from './plugins/errors.js'
import { createEventsHub, redactUrl, type EventsHubOptions } from './plugins/events.js'
import { perInstanceLimitsWarning, type RateLimitPolicy } from './plugins/rate-limits.js'
import securityPlugin, { swaggerUiCsp } from './plugins/security.js'
import { registerStaticFiles } from './plugins/static-files.js'
import { installValidation } from './plugins/validation.js'
import authRoutes from './routes/auth.js'
import commentsRoutes from './routes/comments.js'
import eventsRoutes from './routes/events.js'
import feedRoutes from './routes/feed.js'
import healthRoutes from './routes/health.js'
import mediaRoutes from './routes/media.js'
import notificationsRoutes from './routes/notifications.js'
import postsRoutes from './routes/posts.js'
import searchRoutes from './routes/search.js'
import type { Services } from './routes/shared.js'
import tagsRoutes from './routes/tags.js'
import usersRoutes from './routes/users.js'
import { MAX_UPLOAD_BYTES } from './schemas/media.js'
import { buildSeed } from './seed/index.js'
import { createAuthService } from './services/auth.js'
import { createCommentsService } from './services/comments.js'
import type { ServiceDeps } from './services/deps.js'
import { createMediaService } from './services/media.js'
import { createNotificationsService } from './services/notifications.js'
import { createPostsService } from './services/posts.js'
import { createSearchService } from './services/search.js'
import { createUsersService } from './services/users.js'

export interface AppOptions {
  /** The clock, for tests. */
  now?: () => Date
  events?: EventsHubOptions
  /** Tighter or looser limits than the defaults, for tests. */
  rateLimits?: Partial<RateLimitPolicy>
  /** Before every rate-limit key in Redis, so apps sharing one Redis (tests) count apart. */
  rateLimitKeyPrefix?: string
  /** How a slowed-down login waits; tests record the waits instead of sitting them out. */
  sleep?: (ms: number) => Promise<void>
  /** The store can no longer tell what is on disk; main.ts exits so a restart reads the disk afresh. */
  onStoreBroken?: (error: unknown) => void
  /** Where log lines go instead of stdout, for tests that read them. */
  logStream?: { write(line: string): void }
  /** Builds the first database of an empty store; the seeded demo community by default. */
  seed?: (mediaDir: string) => Promise<Database>
}

/** The whole server as one Fastify instance; tests build it over a temporary data directory. */
export async function buildApp(config: Config, options: AppOptions = {}): Promise<FastifyInstance> {
  // A hop count trusts that many proxies nearest the server; Fastify's types take it as a function.
  const { trustProxy } = config
  const app = Fastify({
    logger: {
      level: config.logLevel,
      ...(options.logStream ? { stream: options.logStream } : {}),
      serializers: {
        req: (request) => ({ method: request.method, url: redactUrl(request.url), remoteAddress: request.ip }),
      },
    },
    trustProxy: typeof trustProxy === 'number' ? (_address: string, hop: number) => hop < trustProxy : trustProxy,
    // Never shown to clients; ids of our own make a request easy to find in the log.
    genReqId: () => crypto.randomUUID(),
    ajv: { customOptions: { coerceTypes: false } },
    frameworkErrors,
    clientErrorHandler,
    // Clients written against the original mock call `/api/users/bookmark/` as often as without the slash.
    routerOptions: { ignoreTrailingSlash: true },
    // Fastify waits forever for a slow request by default; a trickled body must not hold a socket for good.
    requestTimeout: 300_000,
  }).withTypeProvider<TypeBoxTypeProvider>()

  installBodyParsers(app)
  installValidation(app)
  installErrorHandler(app)
  const limitsWarning = perInstanceLimitsWarning(config)
  if (limitsWarning) app.log.warn(limitsWarning)
  await app.register(securityPlugin, {
    rateLimit: config.rateLimit,
    limits: options.rateLimits,
    redisUrl: config.redisUrl,
    redisKeyPrefix: options.rateLimitKeyPrefix,
    sleep: options.sleep,
  })

  const { mediaDir } = config
  const persistence = await openPersistence(config, {
    seed: () => (options.seed ?? buildSeed)(mediaDir),
    log: app.log,
    onBroken: (error) => {
      app.log.fatal({ err: error }, 'the database can no longer be read back after a failed write')
      options.onStoreBroken?.(error)
    },
  })
  app.addHook('onClose', () => persistence.close())
  const { store } = persistence

  const events = createEventsHub({
    log: app.log,
    maxStreamsPerUser: config.eventsMaxStreamsPerUser,
    ...persistence.hubOptions,
    ...options.events,
  })
  app.decorate('events', events)
  await persistence.connect(events)

  const media = createMediaService({ mediaDir })
  const deps: ServiceDeps = { store, now: options.now ?? (() => new Date()) }
  const services: Services = {
    auth: createAuthService({ ...deps, signToken: (payload) => app.signToken(payload), guestLogin: config.guestLogin }),
    users: createUsersService(deps),
    posts: createPostsService({ ...deps, sizeOf: (url) => media.sizeOf(url) }),
    comments: createCommentsService(deps),
    media,
    notifications: createNotificationsService(deps),
    search: createSearchService(deps),
  }

  await app.register(authPlugin, {
    secret: await persistence.jwtSecret(),
    expiresIn: config.jwtExpiresIn,
    auth: services.auth,
  })
  // One part in all: the parser skips whatever follows the file, and routes/media.ts refuses the upload for it.
  await app.register(fastifyMultipart, {
    limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 0, parts: 1, headerPairs: 50 },
  })
  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'Chirp API', version: '1.0.0', description: 'The short-post social network behind Chirp.' },
      components: {
        securitySchemes: { token: { type: 'apiKey', in: 'header', name: 'authorization' } },
      },
    },
  })
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs', ...swaggerUiCsp })

  await app.register(
    async (api) => {
      const routeOptions = { services }
      await registerCompression(api)
      await api.register(healthRoutes, { guestLogin: config.guestLogin, store })
      await api.register(authRoutes, routeOptions)
      await api.register(usersRoutes, routeOptions)
      await api.register(postsRoutes, routeOptions)
      await api.register(feedRoutes, routeOptions)
      await api.register(commentsRoutes, routeOptions)
      await api.register(mediaRoutes, routeOptions)
      await api.register(notificationsRoutes, routeOptions)
      await api.register(tagsRoutes, routeOptions)
      await api.register(searchRoutes, routeOptions)
      await api.register(eventsRoutes, { events })
    },
    { prefix: '/api' },
  )

  await registerStaticFiles(app, { clientDir: config.clientDir, mediaDir })
  return app
}
