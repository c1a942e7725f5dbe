import type { FastifyInstance } from 'fastify'
import { textFault } from '../../common/text-rules.js'
import { badRequest } from '../errors.js'
import { hasVisibleText, nameProblem } from '../schemas/text.js'

const NAME_FIELDS = new Set(['firstName', 'lastName'])
/** Fields that may be empty but, when set, must say something: an image description read aloud as nothing helps no one. */
const DESCRIPTION_FIELDS = new Set(['mediaAlt'])
/** Deeper than any Chirp body; walking further is work an attacker chooses. */
const MAX_DEPTH = 8

/** The first string in a body that is not clean text, by its dotted path. */
function findBadText(value: unknown, path: string, key: string, depth: number): string | undefined {
  if (typeof value === 'string') {
    const fault = textFault(value)
    if (fault) return `${path} ${fault}`
    if (DESCRIPTION_FIELDS.has(key) && value !== '' && !hasVisibleText(value))
      return `${path} must contain visible text`
    // An empty name is the schema's to refuse, where a name is required; elsewhere it is an ignored echo.
    return NAME_FIELDS.has(key) && value !== '' ? nameProblem(path, value) : undefined
  }
  if (typeof value !== 'object' || value === null || depth >= MAX_DEPTH) return undefined
  for (const [name, child] of Object.entries(value)) {
    const problem = findBadText(child, path === '' ? name : `${path}.${name}`, name, depth + 1)
    if (problem) return problem
  }
  return undefined
}

/**
 * Refuses JSON bodies that carry text no field needs: lone surrogates (which no UTF-8 file or client can
 * hold faithfully), control characters, and names that spoof, break lines or show as blank (the rules
 * the client checks too, in schemas/text.ts). Runs on every body after its schema, so it judges only
 * what is kept: an unknown field that validation dropped cannot refuse a request.
 */
export function installTextHygiene(app: FastifyInstance) {
  app.addHook('preHandler', async (request) => {
    if (typeof request.body !== 'object' || request.body === null) return
    const problem = findBadText(request.body, '', '', 0)
    if (problem) throw badRequest(problem.replace(/^\./, ''))
  })
}
