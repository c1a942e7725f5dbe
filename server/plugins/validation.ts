import type { FastifyInstance, FastifySchema } from 'fastify'
import type { FastifySchemaValidationError } from 'fastify/types/schema.js'
import { Ajv, type ErrorObject, type Options } from 'ajv'
import { createRequire } from 'node:module'
import { aliasedFields, nameAliases, readAliases } from './field-aliases.js'

// ajv-formats is CommonJS with an `exports.default`, which ESM typings cannot call directly.
const addFormats = createRequire(import.meta.url)('ajv-formats') as (ajv: Ajv) => Ajv

function makeAjv(options: Options) {
  // removeAdditional 'all' drops every property a schema does not list, whatever its additionalProperties says.
  const ajv = new Ajv({ allErrors: true, strict: false, useDefaults: false, removeAdditional: 'all', ...options })
  addFormats(ajv)
  return ajv
}

/**
 * A field the server does not know is ignored and never stored, so validation drops
 * whatever a schema does not list (in bodies, queries and path parameters alike) before a handler, and
 * so a service, can see it. Aliases of known fields are read as those fields first. The fields Chirp
 * knows are checked strictly: bodies are never coerced (`"text": 123` is a 400); query strings and
 * path parameters are text by nature, so they are.
 */
export function installValidation(app: FastifyInstance) {
  const strict = makeAjv({ coerceTypes: false })
  const lenient = makeAjv({ coerceTypes: true })
  app.setValidatorCompiler(({ schema, httpPart }) =>
    httpPart === 'body' ? compileBody(strict, schema) : lenient.compile(schema as FastifySchema & object),
  )
  app.setSchemaErrorFormatter((errors, context) => {
    const messages = describeAll(errors, context)
    const error = new Error(messages.join('; ')) as Error & { messages: string[] }
    error.messages = messages
    return error
  })
}

/** A body's validator: aliases read as their fields, unknown fields dropped, known ones checked. */
function compileBody(ajv: Ajv, schema: unknown) {
  const validate = ajv.compile(schema as FastifySchema & object)
  const aliased = aliasedFields(schema)
  if (aliased.fields.length === 0) return validate
  const check = (body: unknown): boolean => {
    const read = readAliases(body, aliased)
    const valid = validate(body)
    check.errors = valid ? null : nameAliases(validate.errors ?? [], read)
    return valid
  }
  check.errors = null as ErrorObject[] | null
  return check
}

const MAX_MESSAGES = 10

/**
 * One readable sentence per field at fault (one message a problem, docs/api-contract.md §3). With allErrors, Ajv
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
    byField.set(
      field,
      values ? `${field} must be one of ${values.map((value) => JSON.stringify(value)).join(', ')}` : message,
    )
  }
  const messages = [...byField.values()]
  // However large a schema grows, a reply names a bounded number of problems.
  return messages.length > MAX_MESSAGES
    ? [...messages.slice(0, MAX_MESSAGES), `and ${messages.length - MAX_MESSAGES} more problems`]
    : messages
}

/** One readable sentence for one problem, naming the field. */
function describe(problem: FastifySchemaValidationError, context: string): { field: string; message: string } {
  const params = problem.params as Record<string, unknown>
  const base = problem.instancePath.replace(/^\//, '').replaceAll('/', '.')
  const child = (name: string) => (base ? `${base}.${name}` : name)
  switch (problem.keyword) {
    case 'required': {
      const field = child(String(params.missingProperty))
      return { field, message: `${field} is required` }
    }
    default:
      return { field: base || context, message: `${base || context} ${problem.message ?? 'is invalid'}` }
  }
}
