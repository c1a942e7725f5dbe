import { Type } from '@sinclair/typebox'
import type { FastifyError, FastifyInstance } from 'fastify'
import { AppError, MSG, OAuthError } from '../errors.js'

/** Every refusal of the Mastodon client API: `{ error }`, with OAuth's `error_description` beside its code. */
const MastodonErrorSchema = Type.Object(
  { error: Type.String(), error_description: Type.Optional(Type.String()) },
  { title: 'MastodonError' },
)
export const ERROR_REPLIES = { '4xx': MastodonErrorSchema, '5xx': MastodonErrorSchema } as const

/** Mastodon's words for the refusals every route shares. */
const WORDS: Record<number, string> = {
  401: 'The access token is invalid',
  404: 'Record not found',
  429: 'Too many requests',
  500: 'An unexpected error occurred',
}

/** What Mastodon answers for an id that names nothing the reader may see. */
export const recordNotFound = () => new AppError(404, 'Record not found')

/** The work's answer, with any 404 of Chirp's own words (a person, a post, a request not there) in Mastodon's. */
export async function orNotFound<T>(work: Promise<T>): Promise<T> {
  try {
    return await work
  } catch (error) {
    if (error instanceof AppError && error.statusCode === 404) throw recordNotFound()
    throw error
  }
}

/** The error as Mastodon's clients read it: a message under `error`, and Mastodon's status. */
function bodyOf(
  error: FastifyError,
  oauth: boolean,
): { status: number; body: { error: string; error_description?: string } } {
  if (error instanceof OAuthError) {
    return { status: error.statusCode, body: { error: error.code, error_description: error.message } }
  }
  if (error.validation) {
    const message = error.message
    return oauth
      ? { status: 400, body: { error: 'invalid_request', error_description: message } }
      : { status: 422, body: { error: `Validation failed: ${message}` } }
  }
  const status = error instanceof AppError ? error.statusCode : (error.statusCode ?? 500)
  if (status === 401) return { status, body: { error: WORDS[401] as string } }
  if (status === 429) return { status, body: { error: WORDS[429] as string } }
  if (status >= 400 && status < 500) {
    return {
      status,
      body: { error: error instanceof AppError ? error.message : error.message || MSG.malformedRequest },
    }
  }
  return { status: 500, body: { error: WORDS[500] as string } }
}

/** The one error handler of the Mastodon paths: the shape of the rest of Chirp (`{ errors }`) stays Chirp's own. */
export function installMastodonErrors(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const { status, body } = bodyOf(error, request.url.startsWith('/oauth/'))
    if (status === 500) request.log.error({ err: error }, 'request failed')
    return reply.code(status).send(body)
  })
}

/** Unknown paths under the API's prefixes answer as Mastodon does, not as the rest of Chirp. */
export async function installMastodonNotFound(app: FastifyInstance) {
  for (const prefix of ['/api/v1', '/api/v2']) {
    await app.register(
      async (scope) => {
        scope.setNotFoundHandler((_request, reply) => reply.code(404).send({ error: WORDS[404] }))
      },
      { prefix },
    )
  }
}
