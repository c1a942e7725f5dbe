import { createHmac, randomUUID } from 'node:crypto'
import { cp, readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import { FormatRegistry, type Static, type TSchema } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import type { LightMyRequestResponse } from 'fastify'
import type { Test } from 'tap'
import { ErrorsSchema } from '../../server/schemas/index.js'
import { gradientPng } from '../../server/seed/png.js'
import { expectedCode } from './error-codes.js'
import { buildTestApp, tempDataDir, type TestApp, type TestContext } from './app.js'
import { JPEG } from './images.js'
import { schemaText, testDatabaseUrl } from './store-under-test.js'

/**
 * Assertions shared by the API tests. The contract's schemas use the formats `date-time` and `email`,
 * which TypeBox's Value.Check refuses until they are registered: the API's dates are ISO 8601 with an offset.
 */
const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/
if (!FormatRegistry.Has('date-time')) {
  FormatRegistry.Set('date-time', (value) => ISO_WITH_OFFSET.test(value) && !Number.isNaN(Date.parse(value)))
}
if (!FormatRegistry.Has('email')) FormatRegistry.Set('email', (value) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value))

/**
 * buildTestApp with the rate limits off: these suites sign up and log in far more often than a person
 * would. The limits themselves are provoked in api-errors with a tight policy.
 */
export function buildApiApp(t: TestContext, options: Parameters<typeof buildTestApp>[1] = {}): Promise<TestApp> {
  return buildTestApp(t, { ...options, config: { rateLimit: false, ...options.config } })
}

/** Passes when `value` matches `schema`; on failure the first schema errors are shown. */
export function checkSchema(t: Test, schema: TSchema, value: unknown, what = 'body matches its schema'): boolean {
  const ok = Value.Check(schema, value)
  const errors = ok ? [] : [...Value.Errors(schema, value)].slice(0, 5).map((e) => `${e.path}: ${e.message}`)
  return t.ok(ok, what, { errors })
}

/** Status, then body against the schema; returns the body typed by that schema. */
export function expectOk<S extends TSchema>(
  t: Test,
  res: LightMyRequestResponse,
  status: number,
  schema: S,
  what = '',
): Static<S> {
  t.equal(
    res.statusCode,
    status,
    `${what} answers ${status}`.trim() + (res.statusCode === status ? '' : `: ${res.body}`),
  )
  const body = res.json() as Static<S>
  checkSchema(t, schema, body, `${what} body matches its schema`.trim())
  return body
}

/** The exact error of the catalogue: status and `{ errors: [message], code }`, nothing more. */
export function expectError(t: Test, res: LightMyRequestResponse, status: number, message: string, what = '') {
  t.equal(res.statusCode, status, `${what} answers ${status}`.trim())
  t.strictSame(res.json(), { errors: [message], code: expectedCode(message) }, `${what} says "${message}"`.trim())
  checkSchema(t, ErrorsSchema, res.json(), `${what} error matches ErrorsSchema`.trim())
}

/** No response may carry a password or a password hash; checked on the raw text. */
export function expectNoSecrets(t: Test, res: LightMyRequestResponse | string, what: string) {
  const text = typeof res === 'string' ? res : res.body
  t.notOk(text.includes('password'), `${what}: no "password" in the body`)
  t.notOk(text.includes('scrypt$'), `${what}: no password hash in the body`)
}

export interface SignedUp {
  token: string
  user: { _id: string; username: string; email?: string }
  username: string
  password: string
}

let counter = 0
/** A fresh username each call: 3-30 of A-Za-z0-9_. */
export function freshUsername(prefix = 'user'): string {
  counter += 1
  return `${prefix}_${counter}_${randomUUID().slice(0, 6)}`.slice(0, 30)
}

/** Signs up a new user through the API. */
export async function signup(
  { app }: Pick<TestApp, 'app'>,
  fields: Partial<Record<'username' | 'password' | 'firstName' | 'lastName' | 'email' | 'avatarURL', string>> = {},
): Promise<SignedUp> {
  const username = fields.username ?? freshUsername()
  const password = fields.password ?? 'correct horse battery'
  const res = await app.inject({
    method: 'POST',
    url: '/api/auth/signup',
    payload: {
      firstName: 'Test',
      lastName: 'User',
      email: `${username.toLowerCase()}@example.com`,
      ...fields,
      username,
      password,
    },
  })
  if (res.statusCode !== 201) throw new Error(`signup ${username}: ${res.statusCode} ${res.body}`)
  const body = res.json() as { encodedToken: string; createdUser: SignedUp['user'] }
  return { token: body.encodedToken, user: body.createdUser, username, password }
}

/** A JWT signed with HMAC by hand, to craft expired, tampered or foreign-algorithm tokens. */
export function signJwt(
  header: object,
  payload: object,
  secret: string,
  hmac: 'sha256' | 'sha384' | 'sha512' = 'sha256',
) {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url')
  const unsigned = `${part(header)}.${part(payload)}`
  return `${unsigned}.${createHmac(hmac, secret).update(unsigned).digest('base64url')}`
}

/** A multipart/form-data body with one file part, for app.inject. */
export function multipart(field: string, filename: string, contentType: string, data: Buffer) {
  const boundary = `----chirp-test-${randomUUID()}`
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\n` +
      `Content-Type: ${contentType}\r\n\r\n`,
  )
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`)
  return {
    payload: Buffer.concat([head, data, tail]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  }
}

/** Small whole images, one per accepted type: the server decodes every upload, so each must be a real picture. */
export const IMAGE_BYTES = {
  png: gradientPng(4, 3, [10, 20, 30], [200, 100, 50], 1),
  jpg: JPEG,
  // The classic 1x1 transparent GIF.
  gif: Buffer.from('47494638396101000100800000ffffff00000021f90401000000002c00000000010001000002024401003b', 'hex'),
  // A 1x1 lossless WebP.
  webp: Buffer.from('UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==', 'base64'),
} as const

/**
 * The text of every file the store keeps in `dataDir` (uploads and locks aside), whatever its layout:
 * for checks of what is stored, such as a hash and never a plaintext password.
 */
export async function storedText({ dataDir, schema }: Pick<TestApp, 'dataDir' | 'schema'>): Promise<string> {
  if (schema !== undefined && testDatabaseUrl !== undefined) return schemaText(testDatabaseUrl, schema)
  const entries = await readdir(dataDir, { recursive: true, withFileTypes: true })
  const inMedia = (dir: string) => path.relative(dataDir, dir).split(path.sep)[0] === 'media'
  const files = entries.filter((entry) => entry.isFile() && !entry.name.endsWith('.lock') && !inMedia(entry.parentPath))
  return (await Promise.all(files.map((entry) => readFile(path.join(entry.parentPath, entry.name), 'utf8')))).join('\n')
}

/**
 * What is on disk right now, opened by a second app over a copy of the directory (the lock left out):
 * it can only see what the first one has already written, whatever the store's layout.
 */
export async function snapshotApp(
  t: TestContext,
  { dataDir, schema }: Pick<TestApp, 'dataDir' | 'schema'>,
): Promise<TestApp> {
  // A second instance on the same database sees exactly what the first has committed.
  if (schema !== undefined) return buildApiApp(t, { dataDir: await tempDataDir(t), sharedSchema: schema })
  const copy = await tempDataDir(t)
  await cp(dataDir, copy, { recursive: true, filter: (source) => !source.endsWith('.lock') })
  return buildApiApp(t, { dataDir: copy })
}
