import type { ErrorObject } from 'ajv'

/**
 * Names that clients of the original mock use for Chirp's own fields (docs/api-contract.md §1), in the order they
 * are tried. An alias is read only by a body whose schema has the field it stands for, and only when
 * the Chirp name itself is absent: when both are sent, the Chirp name wins and the alias is ignored.
 */
const FIELD_ALIASES: Readonly<Record<string, readonly string[]>> = {
  mediaUrl: ['image', 'imageUrl'],
  website: ['portfolio'],
  avatarURL: ['avatar'],
}

/** The fields of a body schema that have aliases. */
export function aliasedFields(schema: unknown): string[] {
  const properties = (schema as { properties?: Record<string, unknown> } | null)?.properties ?? {}
  return Object.keys(FIELD_ALIASES).filter((field) => Object.hasOwn(properties, field))
}

/**
 * Moves each alias of `fields` in `body` to the field it stands for, in place and before validation,
 * so that the value is checked exactly as the field's own would be. Returns which alias each field was
 * read from, to name it in an error.
 */
export function readAliases(body: unknown, fields: readonly string[]): Map<string, string> {
  const read = new Map<string, string>()
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return read
  const record = body as Record<string, unknown>
  for (const field of fields) {
    for (const alias of FIELD_ALIASES[field] ?? []) {
      if (!Object.hasOwn(record, alias)) continue
      if (!Object.hasOwn(record, field)) {
        record[field] = record[alias]
        read.set(field, alias)
      }
      delete record[alias]
    }
  }
  return read
}

/** Errors about a field that was read from an alias name the alias, which is what the client sent. */
export function nameAliases(errors: ErrorObject[], read: ReadonlyMap<string, string>): ErrorObject[] {
  if (read.size === 0) return errors
  return errors.map((error) => {
    const field = error.instancePath.split('/')[1] ?? ''
    const alias = read.get(field)
    return alias === undefined
      ? error
      : { ...error, instancePath: `/${alias}${error.instancePath.slice(field.length + 1)}` }
  })
}
