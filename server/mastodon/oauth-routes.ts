import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { AppError, OAuthError } from '../errors.js'
import type { AppRecord } from '../services/client-apps.js'
import { KNOWN_SCOPES } from '../services/scopes.js'
import { ERROR_REPLIES } from './errors.js'
import type { MastodonOptions } from './options.js'
import { ApplicationSchema, AuthorizationServerSchema, TokenSchema } from './schemas.js'

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

/** Client credentials sent as HTTP Basic (RFC 6749 §2.3.1) rather than in the body. */
function basicCredentials(header: string | undefined): { id?: string; secret?: string } {
  if (!header || !/^basic\s+/i.test(header)) return {}
  const decoded = Buffer.from(header.replace(/^basic\s+/i, ''), 'base64').toString('utf8')
  const colon = decoded.indexOf(':')
  if (colon < 0) return {}
  return { id: decodeURIComponent(decoded.slice(0, colon)), secret: decodeURIComponent(decoded.slice(colon + 1)) }
}

/** The Application entity of an app, with its credentials when it has just been registered. */
function applicationOf(app: AppRecord, vapidKey: string, clientSecret?: string) {
  return {
    id: app._id,
    name: app.name,
    website: app.website,
    scopes: [...app.scopes],
    redirect_uri: app.redirectUris.join('\n'),
    redirect_uris: [...app.redirectUris],
    vapid_key: vapidKey,
    ...(clientSecret === undefined
      ? {}
      : { client_id: app._id, client_secret: clientSecret, client_secret_expires_at: 0 }),
  }
}

/** OAuth 2 for Mastodon's apps (DECISIONS §13): registration, tokens and their revocation (the sign-in page: authorize-routes.ts). */
const routes: FastifyPluginAsyncTypebox<MastodonOptions> = async (app, { services, publicUrl }) => {
  const { clientApps } = services

  app.post(
    '/api/v1/apps',
    {
      schema: {
        tags: ['mastodon'],
        description: 'Registers an app (Mastodon: POST /api/v1/apps); its client_secret is shown this once.',
        body: AppBodySchema,
        response: { 200: ApplicationSchema, ...ERROR_REPLIES },
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
      return applicationOf(created, services.push.publicKey, clientSecret)
    },
  )

  app.get(
    '/api/v1/apps/verify_credentials',
    {
      schema: {
        tags: ['mastodon'],
        description: "The app its token belongs to: an app's own token, or a person's token given to it.",
        response: { 200: ApplicationSchema, ...ERROR_REPLIES },
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
      return applicationOf(found, services.push.publicKey)
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
        response: { 200: TokenSchema, ...ERROR_REPLIES },
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
        response: { 200: Type.Object({}), ...ERROR_REPLIES },
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
}

export default routes
