import { SerializerSelector, type SerializerFactory } from '@fastify/fast-json-stringify-compiler'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import Fastify, {
  type FastifyInstance,
  type FastifySchemaCompiler,
  type InjectOptions,
  type LightMyRequestResponse,
  type onRouteHookHandler,
} from 'fastify'
import fp from 'fastify-plugin'
import app, { serverOptions, type AppOptions } from '../../server/app.js'
import { parseConfig, type Config } from '../../server/config.js'
import { mediaUnderTest, testMediaOf, type TestMedia } from './media-under-test.js'
import { TEST_PASSWORD_HASH_COST, cachedSeed, storeUnderTest } from './store-under-test.js'

export interface TestContext {
  teardown(fn: () => unknown): void
}

export const TEST_SECRET = 'test-secret-that-is-long-enough-for-hs256!'

/** A fresh data directory, removed when the test ends. */
export async function tempDataDir(t: TestContext): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'chirp-test-'))
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  return dir
}

export function testConfig(dataDir: string, overrides: Partial<Config> = {}): Config {
  return {
    ...parseConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', JWT_SECRET: TEST_SECRET }),
    clientDir: path.join(dataDir, 'no-client'),
    passwordHashCost: TEST_PASSWORD_HASH_COST,
    ...overrides,
  }
}

/**
 * Fastify's own response serializers (fast-json-stringify), each compiled once for the process rather than once
 * for every app a test builds: compiling the routes' response schemas was most of an app's start-up. A
 * serializer depends only on its schema and options, so an app answers as one that compiled its own, as
 * main.ts's does. Schemas a test app registers by id (addSchema) make serializers of their own, uncached.
 */
const serializers = new Map<string, ReturnType<ReturnType<SerializerFactory>>>()
const compileSerializers = SerializerSelector()
const cachedSerializers: SerializerFactory = (externalSchemas, options) => {
  const compile = compileSerializers(externalSchemas, options)
  const plain = Object.keys(externalSchemas ?? {}).length === 0 && Object.keys(options ?? {}).length === 0
  if (!plain) return compile
  return (route) => {
    const key = JSON.stringify(route.schema)
    let serialize = serializers.get(key)
    if (!serialize) serializers.set(key, (serialize = compile(route)))
    return serialize
  }
}

type ValidatorCompiler = FastifySchemaCompiler<unknown>

/**
 * The app's validators (server/plugins/validation.ts's Ajv), likewise compiled once for the process: after the
 * serializers, they were most of what was left of an app's start-up. A validator is the same function of
 * its compiler's code, its schema and the part of the request it reads, which is the key.
 */
const validators = new Map<string, ReturnType<ValidatorCompiler>>()
function cachingValidators(compiler: ValidatorCompiler): ValidatorCompiler {
  const source = compiler.toString()
  return (route) => {
    const key = `${source}\n${route.httpPart}\n${JSON.stringify(route.schema)}`
    let validate = validators.get(key)
    if (!validate) validators.set(key, (validate = compiler(route)))
    return validate
  }
}

/**
 * A server with the app registered on it, as main.ts makes one; `plugin` is the app by default, or a copy
 * of it imported with mocked modules.
 */
export async function startApp(config: Config, options: AppOptions = {}, plugin = app): Promise<FastifyInstance> {
  const server = Fastify({
    ...serverOptions(config, options),
    schemaController: { compilersFactory: { buildSerializer: cachedSerializers } },
  })
  const setValidatorCompiler = server.setValidatorCompiler.bind(server)
  server.setValidatorCompiler = (compiler) => setValidatorCompiler(cachingValidators(compiler as ValidatorCompiler))
  await server.register(fp(plugin), { config, ...options })
  return server
}

export interface TestApp {
  app: FastifyInstance
  dataDir: string
  /** The PostgreSQL schema the app's data lives in, when the suite runs on PostgreSQL. */
  schema?: string
  /** The app's configuration, as it was built with it. */
  config: Config
  /** Its uploads, in MEDIA_DIR or (under onS3) in a bucket. */
  media: TestMedia
  /** Logs in a seeded user (password: `<name>password` but for guest) and returns the token. */
  login(username: string, password?: string): Promise<string>
  /** app.inject with the token in the authorization header. */
  as(token: string | undefined, options: InjectOptions): Promise<LightMyRequestResponse>
}

const SEED_PASSWORDS: Record<string, string> = {
  guest: 'guestpassword',
  'maya.lin': 'mayapassword',
  theo_park: 'theopassword',
  'sam.okafor': 'sampassword',
  'lucia.rossi': 'luciapassword',
  noah_kim: 'noahpassword',
}

const schemaOfDataDir = new Map<string, string>()

/** The app, with `onRoute` added before any of its routes when there is one. */
function hearingRoutes(onRoute: onRouteHookHandler | undefined): typeof app {
  if (!onRoute) return app
  return async (fastify, options) => {
    fastify.addHook('onRoute', onRoute)
    await app(fastify, options)
  }
}

/** Builds the app over a temporary data directory (seeded on first start) and closes it after the test. */
export async function buildTestApp(
  t: TestContext,
  {
    config = {},
    options = {},
    dataDir,
    sharedSchema,
    onRoute,
  }: {
    config?: Partial<Config>
    options?: AppOptions
    dataDir?: string
    sharedSchema?: string
    /** Hears of every route the app registers, from the first. */
    onRoute?: onRouteHookHandler
  } = {},
): Promise<TestApp> {
  const dir = dataDir ?? (await tempDataDir(t))
  // A restart on the same data directory is, on PostgreSQL, a restart on the same schema.
  const under = storeUnderTest(sharedSchema ?? schemaOfDataDir.get(dir))
  const built = testConfig(dir, { ...under.config, ...(await mediaUnderTest(dir)), ...config })
  const app = await startApp(built, { seed: cachedSeed, ...options }, hearingRoutes(onRoute)).catch(
    async (error: unknown) => {
      await under.cleanup()
      throw error
    },
  )
  if (under.config.databaseSchema) schemaOfDataDir.set(dir, under.config.databaseSchema)
  t.teardown(async () => {
    await app.close()
    await under.cleanup()
  })
  await app.ready()
  return {
    app,
    dataDir: dir,
    config: built,
    media: testMediaOf(t, built),
    ...(under.config.databaseSchema ? { schema: under.config.databaseSchema } : {}),
    async login(username, password = SEED_PASSWORDS[username] ?? '') {
      const res = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { username, password } })
      if (res.statusCode !== 200) throw new Error(`login ${username}: ${res.statusCode} ${res.body}`)
      return (res.json() as { encodedToken: string }).encodedToken
    },
    as(token, options) {
      const headers = { ...(options.headers ?? {}), ...(token ? { authorization: token } : {}) }
      return app.inject({ ...options, headers })
    },
  }
}
