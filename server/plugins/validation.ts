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
    const error = new Error(errors.map((problem) => describe(problem, context)).join('; ')) as Error & {
      messages: string[]
    }
    error.messages = [...new Set(errors.map((problem) => describe(problem, context)))]
    return error
  })
}

/** One readable sentence per problem, naming the field. */
export function describe(problem: FastifySchemaValidationError, context: string): string {
  const params = problem.params as Record<string, unknown>
  const base = problem.instancePath.replace(/^\//, '').replaceAll('/', '.')
  const field = (name: string) => (base ? `${base}.${name}` : name)
  switch (problem.keyword) {
    case 'additionalProperties':
      return `unknown field '${field(String(params.additionalProperty))}'`
    case 'required':
      return `${field(String(params.missingProperty))} is required`
    default:
      return `${base || context} ${problem.message ?? 'is invalid'}`
  }
}
