import type { FastifyInstance } from 'fastify'
import { MSG, badRequest } from '../errors.js'

/** Far more fields than any Mastodon call takes. */
const MAX_FIELDS = 200

/**
 * Bodies sent as an HTML form, as Mastodon's apps often send them: a field sent twice, or named `name[]`,
 * is a list; other bracketed names (`home[last_read_id]`) are kept as they are, for the route to read.
 */
export function installFormBodies(app: FastifyInstance) {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    const fields: Record<string, string | string[]> = Object.create(null) as Record<string, string | string[]>
    let count = 0
    for (const [rawName, value] of new URLSearchParams(body as string)) {
      if (++count > MAX_FIELDS) return done(badRequest('Too many fields in the form'), undefined)
      if (rawName === '__proto__' || rawName === 'constructor' || rawName === 'prototype') {
        return done(badRequest(MSG.forbiddenKey), undefined)
      }
      const list = rawName.endsWith('[]')
      const name = list ? rawName.slice(0, -2) : rawName
      const before = fields[name]
      if (before === undefined) fields[name] = list ? [value] : value
      else fields[name] = [...(Array.isArray(before) ? before : [before]), value]
    }
    done(null, { ...fields })
  })
}
