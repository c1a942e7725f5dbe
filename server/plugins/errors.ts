import { STATUS_CODES } from 'node:http'
import type { Socket } from 'node:net'
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { AppError, MSG } from '../errors.js'

/** Fastify's own 4xx codes whose message is fit for a client, with the text Chirp answers instead where it has one. */
const CLIENT_ERRORS: Record<string, string | undefined> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'Request body is too large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Unsupported content type',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'Content-Length does not match the body',
  FST_ERR_CTP_INVALID_JSON_BODY: 'Body is not valid JSON',
  FST_INVALID_MULTIPART_CONTENT_TYPE: 'Expected a multipart/form-data upload',
  FST_REQ_FILE_TOO_LARGE: MSG.uploadTooLarge,
  FST_FILES_LIMIT: 'Only one file may be uploaded at a time',
  FST_PARTS_LIMIT: 'Too many parts in the upload',
  FST_FIELDS_LIMIT: 'Too many fields in the upload',
  FST_PROTO_VIOLATION: 'Body contains a forbidden key',
}

/**
 * The one place errors become responses: `{ errors: [...] }`, the catalogue's status and message,
 * and never a stack or internals for anything unexpected.
 */
export function installErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError & { messages?: string[] }, request, reply) => {
    if (error instanceof AppError) return reply.code(error.statusCode).send({ errors: [error.message] })
    if (error.validation) {
      return reply.code(400).send({ errors: error.messages ?? [error.message] })
    }
    const status = error.statusCode ?? 500
    if (status === 429) return reply.code(429).send({ errors: [MSG.tooManyRequests] })
    if (status >= 400 && status < 500) {
      const message = CLIENT_ERRORS[error.code] ?? (error.code?.startsWith('FST_') ? error.message : 'Bad request')
      return reply.code(status).send({ errors: [message] })
    }
    request.log.error({ err: error }, 'request failed')
    return reply.code(500).send({ errors: [MSG.internal] })
  })
}

/** Requests refused by the router before any hook (a malformed %-escape, an over-long path parameter), in the same shape. */
export function frameworkErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply) {
  const status =
    error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 400
  void reply.code(status).send({ errors: [status === 414 ? 'URL is too long' : 'URL is not valid'] })
}

/**
 * Requests Node's HTTP parser refuses (bad framing, headers too large, a timeout) never reach Fastify;
 * their answer is written to the socket directly, in the same `{ errors }` shape as every other error.
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket) {
  if (error.code === 'ECONNRESET' || socket.destroyed) return
  const status = error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400
  const body = JSON.stringify({
    errors: [status === 431 ? 'Request headers are too large' : status === 408 ? 'Request timed out' : 'Bad request'],
  })
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\n\r\n${body}`,
    )
  }
  socket.destroy(error)
}
