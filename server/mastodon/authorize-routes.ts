import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import type { FastifyReply } from 'fastify'
import { AppError, OAuthError } from '../errors.js'
import { OUT_OF_BAND, type CheckedRequest } from '../services/client-apps.js'
import { authorizePage, codePage, problemPage } from './authorize-page.js'
import type { MastodonOptions } from './options.js'

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

/**
 * The sign-in page of OAuth's authorization code grant (DECISIONS §13): a person signs in, with their
 * second factor when it is on, and lets the app act for them, or denies it.
 */
const routes: FastifyPluginAsyncTypebox<MastodonOptions> = async (app, { services }) => {
  const { clientApps } = services

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
      const checkedRequest = await checked(request.query, reply)
      if (!checkedRequest) return reply
      const view = {
        appName: checkedRequest.app.name,
        website: checkedRequest.app.website,
        scopes: checkedRequest.scopes,
      }
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
      const checkedRequest = await checked(body, reply)
      if (!checkedRequest) return reply
      const out = checkedRequest.redirectUri === OUT_OF_BAND
      if (body.decision === 'deny') {
        if (out) return sendPage(reply, 200, problemPage('You denied the app access to your account.'))
        return reply.redirect(redirectTo(checkedRequest.redirectUri, { error: 'access_denied' }, body.state), 302)
      }
      let userId: string
      try {
        userId = (await services.auth.checkSignIn(body.username ?? '', body.password ?? '', body.otp))._id
      } catch (error) {
        if (!(error instanceof AppError)) throw error
        const view = {
          appName: checkedRequest.app.name,
          website: checkedRequest.app.website,
          scopes: checkedRequest.scopes,
        }
        const page = authorizePage({
          ...view,
          request: requestFields(body),
          problem: error.message,
          login: body.username,
        })
        // 401 for a wrong guess, so the login limits count it as they count a failed login.
        return sendPage(reply, error.statusCode === 403 ? 403 : 401, page)
      }
      const code = await clientApps.approve(checkedRequest, userId)
      if (out) return sendPage(reply, 200, codePage(checkedRequest.app.name, code))
      return reply.redirect(redirectTo(checkedRequest.redirectUri, { code }, body.state), 302)
    },
  )
}

export default routes
