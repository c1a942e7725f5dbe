import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import type { FastifyReply } from 'fastify'
import { AppError, OAuthError } from '../errors.js'
import { OUT_OF_BAND, type CheckedRequest } from '../services/client-apps.js'
import { KNOWN_SCOPES } from '../services/scopes.js'
import { authorizePage, codePage, problemPage } from './authorize-page.js'
import { MASTODON_ERRORS } from './errors.js'
import type { MastodonOptions } from './options.js'
import { ApplicationSchema, AuthorizationServerSchema, TokenSchema } from './schemas.js'
import type { AppRecord } from '../store/types.js'

/** One value or several (`redirect_uris[]`, or a field sent twice): Mastodon's apps send both. */
const OneOrMany = Type.Union([Type.String(), Type.Array(Type.String(), { maxItems: 20 })])
const asList = (value: string | string[] | undefined) =>
  (Array.isArray(value) ? value : value === undefined ? [] : value.split(/\s+/)).filter((part) => part !== '')

const AppBodySchema = Type.Object({
  client_name: Type.String({ maxLength: 200 }),
  redirect_uris: OneOrMany,
  scopes: Type.Optional(Type.String({ maxLength: 2000 })),
  website: Type.Optional(Type.String({ maxLength: 2000 })),
})

const TokenBodySchema = Type.Object({
  grant_type: Type.String({ maxLength: 100 }),
  client_id: Type.Optional(Type.String({ maxLength: 200 })),
  client_secret: Type.Optional(Type.String({ maxLength: 200 })),
  code: Type.Optional(Type.String({ maxLength: 200 })),
  redirect_uri: Type.Optional(Type.String({ maxLength: 2000 })),
  code_verifier: Type.Optional(Type.String({ maxLength: 200 })),
  username: Type.Optional(Type.String({ maxLength: 254 })),
  password: Type.Optional(Type.String({ maxLength: 128 })),
  scope: Type.Optional(Type.String({ maxLength: 2000 })),
})

const RevokeBodySchema = Type.Object({
  token: Type.String({ maxLength: 4096 }),
  client_id: Type.Optional(Type.String({ maxLength: 200 })),
  client_secret: Type.Optional(Type.String({ maxLength: 200 })),
})

const AuthorizeQuerySchema = Type.Object({
  response_type: Type.Optional(Type.String({ maxLength: 50 })),
  client_id: Type.String({ maxLength: 200 }),
  redirect_uri: Type.String({ maxLength: 2000 }),
  scope: Type.Optional(Type.String({ maxLength: 2000 })),
  state: Type.Optional(Type.String({ maxLength: 2000 })),
  code_challenge: Type.Optional(Type.String({ maxLength: 200 })),
  code_challenge_method: Type.Optional(Type.String({ maxLength: 20 })),
  force_login: Type.Optional(Type.String({ maxLength: 10 })),
  lang: Type.Optional(Type.String({ maxLength: 20 })),
})
const AuthorizeBodySchema = Type.Composite([
  AuthorizeQuerySchema,
  Type.Object({
    username: Type.Optional(Type.String({ maxLength: 254 })),
    password: Type.Optional(Type.String({ maxLength: 128 })),
    otp: Type.Optional(Type.String({ maxLength: 32 })),
    decision: Type.Optional(Type.Union([Type.Literal('approve'), Type.Literal('deny')])),
  }),
])
type AuthorizeQuery = typeof AuthorizeQuerySchema.static

/** Client credentials sent as HTTP Basic (RFC 6749 §2.3.1) rather than in the body. */
function basicCredentials(header: string | undefined): { id?: string; secret?: string } {
  if (!header || !/^basic\s+/i.test(header)) return {}
  const decoded = Buffer.from(header.replace(/^basic\s+/i, ''), 'base64').toString('utf8')
  const colon = decoded.indexOf(':')
  if (colon < 0) return {}
  return { id: decodeURIComponent(decoded.slice(0, colon)), secret: decodeURIComponent(decoded.slice(colon + 1)) }
}

/** The Application entity of an app, with its credentials when it has just been registered. */
function applicationOf(app: AppRecord, clientSecret?: string) {
  return {
    id: app._id,
    name: app.name,
    website: app.website,
    scopes: [...app.scopes],
    redirect_uri: app.redirectUris.join('\n'),
    redirect_uris: [...app.redirectUris],
    ...(clientSecret === undefined
      ? {}
      : { client_id: app._id, client_secret: clientSecret, client_secret_expires_at: 0 }),
  }
}

/** The parameters of an authorization request the page carries through its form. */
function requestFields(query: AuthorizeQuery): Record<string, string> {
  const fields: Record<string, string> = {}
  for (const name of [
    'client_id',
    'redirect_uri',
    'scope',
    'state',
    'code_challenge',
    'code_challenge_method',
  ] as const) {
    const value = query[name]
    if (value !== undefined) fields[name] = value
  }
  return fields
}

function sendPage(reply: FastifyReply, status: number, { html, policy }: { html: string; policy: string }) {
  return reply
    .code(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('content-security-policy', policy)
    .header('cache-control', 'no-store')
    .send(html)
}

/** The app's redirect with the answer in its query (RFC 6749 §4.1.2), the request's state kept. */
function redirectTo(redirectUri: string, answer: Record<string, string>, state: string | undefined) {
  const url = new URL(redirectUri)
  for (const [name, value] of Object.entries(answer)) url.searchParams.set(name, value)
  if (state !== undefined) url.searchParams.set('state', state)
  return url.href
}

/** OAuth 2 for Mastodon's apps (DECISIONS §13): registration, the sign-in page, tokens and their revocation. */
const routes: FastifyPluginAsyncTypebox<MastodonOptions> = async (app, { services, publicUrl }) => {
  const { clientApps } = services

  app.post(
    '/api/v1/apps',
    {
      schema: {
        tags: ['mastodon'],
        description: 'Registers an app (Mastodon: POST /api/v1/apps); its client_secret is shown this once.',
        body: AppBodySchema,
        response: { 200: ApplicationSchema, ...MASTODON_ERRORS },
      },
    },
    async (request) => {
      const { client_name, redirect_uris, scopes, website } = request.body
      const { app: created, clientSecret } = await clientApps.register({
        name: client_name,
        website,
        redirectUris: asList(redirect_uris),
        scopes,
      })
      return applicationOf(created, clientSecret)
    },
  )

  app.get(
    '/api/v1/apps/verify_credentials',
    {
      schema: {
        tags: ['mastodon'],
        description: "The app its token belongs to: an app's own token, or a person's token given to it.",
        response: { 200: ApplicationSchema, ...MASTODON_ERRORS },
      },
    },
    async (request) => {
      const own = app.appTokenOf(request)
      let clientId = own?.app
      if (clientId === undefined) {
        await app.authenticate(request)
        clientId = request.user.token.app
      }
      const found = clientId === undefined ? undefined : await clientApps.getApp(clientId)
      if (!found) throw new AppError(401, 'The access token is invalid')
      return applicationOf(found)
    },
  )

  app.post(
    '/oauth/token',
    {
      schema: {
        tags: ['mastodon'],
        description:
          'Grants a token: authorization_code (with PKCE S256), password (username or e-mail) or client_credentials.',
        body: TokenBodySchema,
        response: { 200: TokenSchema, ...MASTODON_ERRORS },
      },
    },
    async (request) => {
      const body = request.body
      const basic = basicCredentials(request.headers.authorization)
      const client = await clientApps.authenticate(body.client_id ?? basic.id, body.client_secret ?? basic.secret)
      const grant = await (async () => {
        switch (body.grant_type) {
          case 'authorization_code':
            if (body.code === undefined) throw new OAuthError(400, 'invalid_request', 'The code is missing.')
            return clientApps.tradeCode(client, body.code, body.redirect_uri, body.code_verifier)
          case 'password':
            if (body.username === undefined || body.password === undefined) {
              throw new OAuthError(400, 'invalid_request', 'The username and password are required.')
            }
            return clientApps.passwordGrant(client, body.username, body.password, body.scope)
          case 'client_credentials':
            return clientApps.clientToken(client, body.scope)
          default:
            throw new OAuthError(400, 'unsupported_grant_type', 'The authorization grant type is not supported.')
        }
      })()
      return {
        access_token: grant.accessToken,
        token_type: 'Bearer' as const,
        scope: grant.scope,
        created_at: grant.createdAt,
      }
    },
  )

  app.post(
    '/oauth/revoke',
    {
      schema: {
        tags: ['mastodon'],
        description:
          "Ends a token given to the app, as a logout does: it stops working and its streams close. An unknown token is no error (RFC 7009); an app's own token runs until it expires.",
        body: RevokeBodySchema,
        response: { 200: Type.Object({}), ...MASTODON_ERRORS },
      },
    },
    async (request) => {
      const basic = basicCredentials(request.headers.authorization)
      const client = await clientApps.authenticate(
        request.body.client_id ?? basic.id,
        request.body.client_secret ?? basic.secret,
      )
      const read = app.readToken(request.body.token.replace(/^bearer\s+/i, ''))
      if (!read) return {}
      if (read.token.app !== client._id) {
        throw new OAuthError(403, 'unauthorized_client', 'You are not authorized to revoke this token')
      }
      const { userId, token } = read
      await services.auth.logout({ _id: token.id, userId, expiresAt: token.expiresAt })
      await app.events.endToken({ userId, tokenId: token.id })
      return {}
    },
  )

  app.get(
    '/.well-known/oauth-authorization-server',
    {
      schema: {
        tags: ['mastodon'],
        description: 'RFC 8414: where the OAuth endpoints are, and what they accept.',
        response: { 200: AuthorizationServerSchema },
      },
    },
    async () => ({
      issuer: `${publicUrl}/`,
      service_documentation: `${publicUrl}/api/docs`,
      authorization_endpoint: `${publicUrl}/oauth/authorize`,
      token_endpoint: `${publicUrl}/oauth/token`,
      revocation_endpoint: `${publicUrl}/oauth/revoke`,
      app_registration_endpoint: `${publicUrl}/api/v1/apps`,
      scopes_supported: [...KNOWN_SCOPES],
      response_types_supported: ['code'],
      response_modes_supported: ['query', 'fragment', 'form_post'],
      grant_types_supported: ['authorization_code', 'password', 'client_credentials'],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
      code_challenge_methods_supported: ['S256'],
    }),
  )

  /** The request checked, or the page that says why it cannot be served (never a redirect to an unchecked address). */
  async function checked(query: AuthorizeQuery, reply: FastifyReply): Promise<CheckedRequest | undefined> {
    try {
      if (query.response_type !== undefined && query.response_type !== 'code') {
        throw new OAuthError(400, 'unsupported_response_type', 'Only the code response type is supported.')
      }
      return await clientApps.checkRequest({
        clientId: query.client_id,
        redirectUri: query.redirect_uri,
        scope: query.scope,
        codeChallenge: query.code_challenge,
        codeChallengeMethod: query.code_challenge_method,
      })
    } catch (error) {
      if (!(error instanceof AppError)) throw error
      await sendPage(reply, 400, problemPage(error.message))
      return undefined
    }
  }

  app.get(
    '/oauth/authorize',
    {
      schema: {
        tags: ['mastodon'],
        description:
          'The page where a person signs in (with their second factor when it is on) and lets an app act for them.',
        querystring: AuthorizeQuerySchema,
      },
    },
    async (request, reply) => {
      const request_ = await checked(request.query, reply)
      if (!request_) return reply
      const view = { appName: request_.app.name, website: request_.app.website, scopes: request_.scopes }
      return sendPage(reply, 200, authorizePage({ ...view, request: requestFields(request.query) }))
    },
  )

  app.post(
    '/oauth/authorize',
    {
      schema: {
        tags: ['mastodon'],
        description:
          "The page's form: signs in and approves (a redirect with `code`, or the code shown for the out-of-band redirect), or denies (a redirect with `error=access_denied`).",
        body: AuthorizeBodySchema,
      },
    },
    async (request, reply) => {
      const body = request.body
      const request_ = await checked(body, reply)
      if (!request_) return reply
      const out = request_.redirectUri === OUT_OF_BAND
      if (body.decision === 'deny') {
        if (out) return sendPage(reply, 200, problemPage('You denied the app access to your account.'))
        return reply.redirect(redirectTo(request_.redirectUri, { error: 'access_denied' }, body.state), 302)
      }
      let userId: string
      try {
        userId = (await services.auth.checkSignIn(body.username ?? '', body.password ?? '', body.otp))._id
      } catch (error) {
        if (!(error instanceof AppError)) throw error
        const view = { appName: request_.app.name, website: request_.app.website, scopes: request_.scopes }
        const page = authorizePage({
          ...view,
          request: requestFields(body),
          problem: error.message,
          login: body.username,
        })
        // 401 for a wrong guess, so the login limits count it as they count a failed login.
        return sendPage(reply, error.statusCode === 403 ? 403 : 401, page)
      }
      const code = await clientApps.approve(request_, userId)
      if (out) return sendPage(reply, 200, codePage(request_.app.name, code))
      return reply.redirect(redirectTo(request_.redirectUri, { code }, body.state), 302)
    },
  )
}

export default routes
