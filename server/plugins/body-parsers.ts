import type { FastifyBodyParser, FastifyInstance } from 'fastify'
import { MSG, badRequest } from '../errors.js'

/**
 * Lenient framing (docs/api-contract.md §1), for clients written against the original in-browser mock:
 * - an empty body sent as application/json is no body, as if the header had not been sent (clients that
 *   set the header on every call send it with a bodiless DELETE or like);
 * - a text/plain body is read as JSON, since `fetch` labels a string body text/plain when the caller
 *   sets no header. Any page may send such a body anywhere, so writes from other sites are refused
 *   before any body is read (cross-site.ts).
 * Both keep Fastify's JSON parsing, with its refusal of `__proto__` and `constructor.prototype` keys,
 * and the server's body size limit.
 */
export function installBodyParsers(app: FastifyInstance) {
  const parseJson = app.getDefaultJsonParser('error', 'error')
  const json: FastifyBodyParser<string> = (request, body, done) => {
    if (body.length === 0) return done(null, undefined)
    return parseJson(request, body, done)
  }
  // Fastify's parser answers a `__proto__` key as unreadable JSON too, so one message covers both.
  const text: FastifyBodyParser<string> = (request, body, done) =>
    json(request, body, (error, value) => (error ? done(badRequest(MSG.textNotJson), undefined) : done(null, value)))
  app.addContentTypeParser('application/json', { parseAs: 'string' }, json)
  app.addContentTypeParser('text/plain', { parseAs: 'string' }, text)
}
