import type { FastifyInstance, FastifySchema } from 'fastify'
import type { FastifySchemaValidationError } from 'fastify/types/schema.js'
import { Ajv, type Options } from 'ajv'
import { createRequire } from 'node:module'

// ajv-formats is CommonJS with an `exports.default`, which ESM typings cannot call directly.
const addFormats = createRequire(import.meta.url)('ajv-formats') as (ajv: Ajv) => Ajv

function makeAjv(options: Options) {
  const ajv = new Ajv({ allErrors: true, strict: false, useDefaults: false, removeAdditional: false, ...options })
  addFormats(ajv)
  return ajv
}

/**
 * Bodies are validated as sent: no coercion (`"text": 123` is a 400) and no silent dropping of
 * unknown fields. Query strings and path parameters are text by nature, so they are coerced.
 */
export function installValidation(app: FastifyInstance) {
  const strict = makeAjv({ coerceTypes: false })
  const lenient = makeAjv({ coerceTypes: true })
  app.setValidatorCompiler(({ schema, httpPart }) =>
    (httpPart === 'body' ? strict : lenient).compile(schema as FastifySchema & object),
  )
  app.setSchemaErrorFormatter((errors, context) => {
    const messages = describeAll(errors, context)
    const error = new Error(messages.join('; ')) as Error & { messages: string[] }
    error.messages = messages
    return error
  })
}

const MAX_MESSAGES = 10

/**
 * One readable sentence per field at fault (DECISIONS §1: one message a problem). With allErrors, Ajv
 * reports one value several times ('' is both too short and off-pattern; a union of constants fails each
 * branch and then the union), so only the first problem of each field is told, and a value outside a
 * union of constants is answered with the values allowed.
 */
export function describeAll(problems: FastifySchemaValidationError[], context: string): string[] {
  const allowed = new Map<string, unknown[]>()
  for (const problem of problems) {
    if (problem.keyword !== 'const') continue
    const values = allowed.get(problem.instancePath) ?? []
    values.push((problem.params as { allowedValue?: unknown }).allowedValue)
    allowed.set(problem.instancePath, values)
  }
  const byField = new Map<string, string>()
  for (const problem of problems) {
    const { field, message } = describe(problem, context)
    if (byField.has(field)) continue
    const values = problem.keyword === 'const' ? allowed.get(problem.instancePath) : undefined
    byField.set(field, values ? `${field} must be one of ${values.map((value) => JSON.stringify(value)).join(', ')}` : message)
  }
  const messages = [...byField.values()]
  // A body with thousands of unknown keys must not earn a reply thousands of lines long.
  return messages.length > MAX_MESSAGES
    ? [...messages.slice(0, MAX_MESSAGES), `and ${messages.length - MAX_MESSAGES} more problems`]
    : messages
}

/** One readable sentence for one problem, naming the field. */
export function describe(problem: FastifySchemaValidationError, context: string): { field: string; message: string } {
  const params = problem.params as Record<string, unknown>
  const base = problem.instancePath.replace(/^\//, '').replaceAll('/', '.')
  const child = (name: string) => (base ? `${base}.${name}` : name)
  switch (problem.keyword) {
    case 'additionalProperties': {
      const field = child(String(params.additionalProperty))
      return { field, message: `unknown field '${field}'` }
    }
    case 'required': {
      const field = child(String(params.missingProperty))
      return { field, message: `${field} is required` }
    }
    default:
      return { field: base || context, message: `${base || context} ${problem.message ?? 'is invalid'}` }
  }
}
