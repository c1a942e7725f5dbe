import { Type } from '@sinclair/typebox'

/** Every error leaves the server in this shape (docs/api-contract.md §3). */
export const ErrorsSchema = Type.Object(
  {
    errors: Type.Array(Type.String(), { description: 'One message per problem' }),
    code: Type.String({
      description:
        "What went wrong, as a stable code to decide by (`post_not_found`, `too_many_requests`, `invalid_request`): the catalogue message's name in snake case",
    }),
  },
  { title: 'Errors' },
)

/** Ids are uuids, but routes accept any short id-like string and answer 404 when it is unknown. */
export const IdSchema = Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' })

export const UsernameSchema = Type.String({ minLength: 3, maxLength: 30, pattern: '^[A-Za-z0-9_.]+$' })

/** ISO 8601 with offset. */
/** The custom emoji a text shows (DECISIONS §17): those of the community its `:shortcode:`s name. */
export const EmojiUsesSchema = Type.Array(Type.Object({ shortcode: Type.String(), url: Type.String() }))

export const DateTimeSchema = Type.String({ format: 'date-time' })

export const LimitSchema = Type.Integer({ minimum: 1, maximum: 100 })
export const CursorSchema = Type.String({ minLength: 1, maxLength: 200, pattern: '^[A-Za-z0-9_-]+$' })

export const PageQuerySchema = Type.Object({ limit: Type.Optional(LimitSchema), cursor: Type.Optional(CursorSchema) })

/** `compact=1` (or `true`) asks a list of posts for compact posts: no people but the author and the reader. */
export const CompactSchema = Type.Union([
  Type.Literal('1'),
  Type.Literal('true'),
  Type.Literal('0'),
  Type.Literal('false'),
])
export const isCompact = (value: string | undefined) => value === '1' || value === 'true'

/** A list of posts: a page, compact or not. */
export const ListQuerySchema = Type.Composite([PageQuerySchema, Type.Object({ compact: Type.Optional(CompactSchema) })])

/** Present only when the request paginated (sent limit or cursor); null at the end. */
export const NextCursorSchema = Type.Optional(Type.Union([Type.String(), Type.Null()]))

/** The body of a call that takes none; whatever a client sends in it anyway is ignored. */
export const EmptyObjectSchema = Type.Object({})
