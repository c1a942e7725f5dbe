import type { FastifyReply, FastifyRequest, preValidationAsyncHookHandler } from 'fastify'
import { ErrorsSchema, isCompact } from '../schemas/common.js'
import type { Reader } from '../services/post-views.js'
import type { PostsService } from '../services/posts.js'
import type { Services } from '../services/index.js'

export interface RouteOptions {
  services: Services
}

/** Every route can fail with a client error or, unexpectedly, a server error, both as `{ errors }`. */
export const ERRORS = { '4xx': ErrorsSchema, '5xx': ErrorsSchema } as const

/** The caller of a protected route; `authenticate` has run, so the user is set. */
export function me(request: FastifyRequest): string {
  return request.user._id
}

/** The signed-in caller of an open route, if any. */
export function viewer(request: FastifyRequest): string | undefined {
  return (request.user as { _id?: string } | null | undefined)?._id
}

/** Who reads a list of posts, signed in or not, and whether they asked for compact posts. */
export function readerOf(request: FastifyRequest): Reader {
  const { compact } = request.query as { compact?: string }
  return { userId: viewer(request), compact: isCompact(compact), cache: request.readCacheView }
}

/**
 * The original client wraps bodies as `{ postData }`, `{ commentData }` or `{ userData }`; a body that
 * carries the wrapper is read as the wrapper's content before validation, so both forms are accepted.
 * Anything beside the wrapper is unknown to that form, and ignored like any unknown field.
 */
export function unwrap(key: string): preValidationAsyncHookHandler {
  return async (request) => {
    const body = request.body as Record<string, unknown> | null | undefined
    if (body && typeof body === 'object' && !Array.isArray(body) && Object.hasOwn(body, key)) request.body = body[key]
  }
}

/** Calls whose payload is empty: no body at all is the same as `{}`. */
export const emptyBody: preValidationAsyncHookHandler = async (request) => {
  if (request.body === undefined || request.body === null) request.body = {}
}

/** RFC 7240: with `Prefer: return=minimal`, a write answers with the changed post only. */
function wantsMinimal(request: FastifyRequest): boolean {
  const prefer = request.headers.prefer
  return typeof prefer === 'string' && /(^|[,;\s])return=minimal($|[,;\s])/i.test(prefer)
}

/**
 * The answer to a post or comment write (docs/api-contract.md §2): every post plus the changed one and whatever
 * `extra` the full answer carries, or with `Prefer: return=minimal` only the changed one (`{}` after a delete).
 */
export async function writeReply<T extends { post?: unknown }>(
  request: FastifyRequest,
  reply: FastifyReply,
  posts: PostsService,
  result: T,
  extra: object = {},
) {
  if (wantsMinimal(request)) {
    reply.header('preference-applied', 'return=minimal')
    return reply.code(201).send(result)
  }
  return reply.code(201).send({ posts: await posts.all(), ...result, ...extra })
}
