import { STATUS_CODES } from 'node:http'
import type { Socket } from 'node:net'
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { AppError, errorBody, MSG } from '../errors.js'

/** Fastify's own 4xx codes whose message is fit for a client, with the text Chirp answers instead where it has one. */
const CLIENT_ERRORS: Record<string, string | undefined> = {
  FST_ERR_CTP_BODY_TOO_LARGE: MSG.bodyTooLarge,
  FST_ERR_CTP_INVALID_MEDIA_TYPE: MSG.unsupportedContentType,
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: MSG.contentLengthMismatch,
  FST_ERR_CTP_INVALID_JSON_BODY: MSG.bodyNotJson,
  FST_INVALID_MULTIPART_CONTENT_TYPE: MSG.notMultipart,
  FST_REQ_FILE_TOO_LARGE: MSG.uploadTooLarge,
  FST_FILES_LIMIT: MSG.oneFileOnly,
  FST_PARTS_LIMIT: MSG.tooManyParts,
  FST_FIELDS_LIMIT: MSG.tooManyFields,
  FST_PROTO_VIOLATION: MSG.forbiddenKey,
}

/**
 * The one place errors become responses: `{ errors: [...], code }`, the catalogue's status, message
 * and code, and never a stack or internals for anything unexpected.
 */
export function installErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError & { messages?: string[] }, request, reply) => {
    if (error instanceof AppError) return reply.code(error.statusCode).send(errorBody(error.statusCode, error.message))
    if (error.validation) {
      const [first = error.message, ...more] = error.messages ?? []
      return reply.code(400).send(errorBody(400, first, more))
    }
    const status = error.statusCode ?? 500
    if (status === 429) return reply.code(429).send(errorBody(429, MSG.tooManyRequests))
    if (status >= 400 && status < 500) {
      const message =
        CLIENT_ERRORS[error.code] ?? (error.code?.startsWith('FST_') ? error.message : MSG.malformedRequest)
      return reply.code(status).send(errorBody(status, message))
    }
    request.log.error({ err: error }, 'request failed')
    return reply.code(500).send(errorBody(500, MSG.internal))
  })
}

/** Requests refused by the router before any hook (a malformed %-escape, an over-long path parameter), in the same shape. */
export function frameworkErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply) {
  const status =
    error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 400
  void reply.code(status).send(errorBody(status, status === 414 ? MSG.urlTooLong : MSG.badUrl))
}

/**
 * Requests Node's HTTP parser refuses (bad framing, headers too large, a timeout) never reach Fastify;
 * their answer is written to the socket directly, in the same `{ errors }` shape as every other error.
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket) {
  if (error.code === 'ECONNRESET' || socket.destroyed) return
  const status = error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400
  const body = JSON.stringify(
    errorBody(
      status,
      status === 431 ? MSG.headersTooLarge : status === 408 ? MSG.requestTimedOut : MSG.malformedRequest,
    ),
  )
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\n\r\n${body}`,
    )
  }
  socket.destroy(error)
}
