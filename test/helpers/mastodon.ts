import { createHash, randomBytes } from 'node:crypto'
import type { LightMyRequestResponse } from 'fastify'
import { buildApiApp, signup, type SignedUp } from './api.js'
import type { AppOptions } from '../../server/app.js'
import type { Config } from '../../server/config.js'
import type { TestApp, TestContext } from './app.js'

/** An app registered through POST /api/v1/apps: its credentials. */
export interface RegisteredApp {
  clientId: string
  clientSecret: string
}

export const REDIRECT = 'https://app.example/callback'
export const OOB = 'urn:ietf:wg:oauth:2.0:oob'

export async function registerApp(
  api: Pick<TestApp, 'app'>,
  { scopes = 'read write follow push', redirect = `${REDIRECT}\n${OOB}` } = {},
): Promise<RegisteredApp> {
  const res = await api.app.inject({
    method: 'POST',
    url: '/api/v1/apps',
    payload: { client_name: 'Test app', redirect_uris: redirect, scopes, website: 'https://app.example' },
  })
  if (res.statusCode !== 200) throw new Error(`register: ${res.statusCode} ${res.body}`)
  const body = res.json() as { client_id: string; client_secret: string }
  return { clientId: body.client_id, clientSecret: body.client_secret }
}

/** POST /oauth/token as a form, as most of Mastodon's apps send it. */
export const tokenRequest = (api: Pick<TestApp, 'app'>, fields: Record<string, string>) =>
  api.app.inject({
    method: 'POST',
    url: '/oauth/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(fields).toString(),
  })

/** A token by the password grant, for a person's username or address. */
export async function passwordToken(
  api: Pick<TestApp, 'app'>,
  app: RegisteredApp,
  username: string,
  password: string,
  scope = 'read write follow push',
): Promise<string> {
  const res = await tokenRequest(api, {
    grant_type: 'password',
    client_id: app.clientId,
    client_secret: app.clientSecret,
    username,
    password,
    scope,
  })
  if (res.statusCode !== 200) throw new Error(`password grant: ${res.statusCode} ${res.body}`)
  return (res.json() as { access_token: string }).access_token
}

/** A PKCE pair (RFC 7636, S256). */
export function pkce() {
  const verifier = randomBytes(32).toString('base64url')
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') }
}

/** The form of the sign-in page, as a browser sends it. */
export const authorizeForm = (api: Pick<TestApp, 'app'>, fields: Record<string, string>) =>
  api.app.inject({
    method: 'POST',
    url: '/oauth/authorize',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(fields).toString(),
  })

/** The code a redirect carries. */
export function codeOf(res: LightMyRequestResponse): string {
  const location = res.headers.location
  if (typeof location !== 'string') throw new Error(`no redirect: ${res.statusCode} ${res.body}`)
  const code = new URL(location).searchParams.get('code')
  if (!code) throw new Error(`no code in ${location}`)
  return code
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` })

/** Someone signed up, and the token a registered app was given for them. */
export interface MastodonPerson extends SignedUp {
  bearer: string
}

type Method = 'GET' | 'POST' | 'DELETE' | 'PATCH'

/**
 * An app on `publicUrl` (with `config` and `options`) with one registered Mastodon app: people signed in through it, and calls of the
 * Mastodon paths as one of them (or signed out); `json` refuses any answer but 200.
 */
export async function mastodonClient(
  t: TestContext,
  { config = {}, options = {} }: { config?: Partial<Config>; options?: AppOptions } = {},
) {
  const api = await buildApiApp(t, { config: { publicUrl: 'https://chirp.example', ...config }, options })
  const client = await registerApp(api)
  /** Someone signed up, with a token of every scope, or of `scope` alone. */
  const person = async (scope?: string): Promise<MastodonPerson> => {
    const signed = await signup(api)
    return { ...signed, bearer: await passwordToken(api, client, signed.username, signed.password, scope) }
  }
  const call = (method: Method, url: string, who?: MastodonPerson, payload?: Record<string, unknown>) =>
    api.app.inject({ method, url, ...(who ? { headers: bearer(who.bearer) } : {}), ...(payload ? { payload } : {}) })
  const json = async <T>(method: Method, url: string, who?: MastodonPerson, payload?: Record<string, unknown>) => {
    const res = await call(method, url, who, payload)
    if (res.statusCode !== 200) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`)
    return res.json<T>()
  }
  return { api, client, person, call, json }
}
