import * as MSG from '../common/messages.js'

export { MSG }

/** A refusal the client caused; the error handler turns it into `{ errors: [message] }`. */
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
