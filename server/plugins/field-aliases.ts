import type { ErrorObject } from 'ajv'

/**
 * Names that clients of the original mock use for Chirp's own fields (docs/api-contract.md §1),
 * in the order they are tried. An alias is read only by a body whose schema has the field it stands for.
 */
const FIELD_ALIASES: Readonly<Record<string, readonly string[]>> = {
  mediaUrl: ['image', 'imageUrl'],
  website: ['portfolio'],
  avatarURL: ['avatar'],
}

export interface AliasedFields {
  /** The fields of the schema that have aliases. */
  fields: readonly string[]
  /** The aliases the schema lists as well: those an edit weighs against the stored value. */
  listed: ReadonlySet<string>
}

/** The fields of a body schema that have aliases, and which of those aliases it lists itself. */
export function aliasedFields(schema: unknown): AliasedFields {
  const properties = (schema as { properties?: Record<string, unknown> } | null)?.properties ?? {}
  const fields = Object.keys(FIELD_ALIASES).filter((field) => Object.hasOwn(properties, field))
  const listed = fields
    .flatMap((field) => FIELD_ALIASES[field] ?? [])
    .filter((alias) => Object.hasOwn(properties, alias))
  return { fields, listed: new Set(listed) }
}

/**
 * Moves each alias in `body` to the field it stands for, in place and before validation, so that the
 * value is checked exactly as the field's own would be, when the field itself is absent. When both are
 * sent, the Chirp name wins unless it merely repeats the stored value while the alias changes it (a
 * client echoing a whole record with its own field edited); only the service knows the stored value,
 * so an alias the schema lists is kept beside the field, checked by its own entry, for the service to
 * weigh; any other is dropped. Returns which alias each field was read from, to name it in an error.
 */
export function readAliases(body: unknown, { fields, listed }: AliasedFields): Map<string, string> {
  const read = new Map<string, string>()
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return read
  const record = body as Record<string, unknown>
  for (const field of fields) {
    for (const alias of FIELD_ALIASES[field] ?? []) {
      if (!Object.hasOwn(record, alias)) continue
      const moved = !Object.hasOwn(record, field)
      if (moved) {
        record[field] = record[alias]
        read.set(field, alias)
      }
      if (moved || !listed.has(alias)) delete record[alias]
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
