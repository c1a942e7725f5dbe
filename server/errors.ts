import { codeOf, type ErrorCode, type MessageName } from '../common/error-codes.js'
import * as MSG from '../common/messages.js'

export { MSG }

const CODE_OF_MESSAGE = new Map(
  Object.entries(MSG).map(([name, message]) => [message as string, codeOf(name as MessageName)]),
)

/** The codes of the statuses a refusal without a catalogue message may have. */
const CODE_OF_STATUS: Record<number, ErrorCode> = {
  400: 'invalid_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  406: 'not_acceptable',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  422: 'unprocessable_entity',
  429: 'too_many_requests',
}

/** The code an error body carries: the catalogue message's own, else its status's. */
function errorCode(message: string, status: number): ErrorCode {
  return CODE_OF_MESSAGE.get(message) ?? CODE_OF_STATUS[status] ?? (status >= 500 ? 'internal' : 'invalid_request')
}

/**
 * Every error body: the messages SPEC's clients read, and the code Chirp's client decides by. A 400 whose
 * message is not the catalogue's is a schema's or a field rule's own words: `invalid_request`.
 */
export function errorBody(status: number, message: string, more: readonly string[] = []) {
  return { errors: [message, ...more], code: errorCode(message, status) }
}

/** A refusal the client caused; the error handler turns it into `{ errors: [message], code }`. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message)
    this.name = 'AppError'
  }
}

/** The one way to raise each refusal: by its status's name, with the catalogue's message. */
export const badRequest = (message: string) => new AppError(400, message)
export const unauthorized = (message: string = MSG.invalidToken) => new AppError(401, message)
export const forbidden = (message: string) => new AppError(403, message)
export const notFound = (message: string) => new AppError(404, message)
export const notAcceptable = (message: string) => new AppError(406, message)
export const conflict = (message: string) => new AppError(409, message)
export const gone = (message: string) => new AppError(410, message)
export const payloadTooLarge = (message: string) => new AppError(413, message)
export const unsupportedMediaType = (message: string) => new AppError(415, message)
export const unprocessableEntity = (message: string) => new AppError(422, message)
export const tooManyRequests = (message: string = MSG.tooManyRequests) => new AppError(429, message)

/** A problem the operator must fix before Chirp can start (configuration, data directory); shown without a stack. */
export class StartupError extends Error {
  constructor(message: string) {
    super(message)
    this.name = new.target.name
  }
}

/**
 * A refusal of OAuth 2 (RFC 6749 §5.2): its error code, such as `invalid_grant`, and a description for
 * people; the Mastodon client API answers it as `{ error, error_description }`.
 */
export class OAuthError extends AppError {
  constructor(
    statusCode: number,
    readonly code: string,
    description: string,
  ) {
    super(statusCode, description)
    this.name = 'OAuthError'
  }
}
