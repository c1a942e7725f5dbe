import { Type, type Static } from '@sinclair/typebox'

/**
 * A keyword filter of the reader's that a post matches with `warn` (DECISIONS §15): Mastodon's FilterResult,
 * the filter without its keywords, and which of them matched.
 */
export const FilterResultSchema = Type.Object(
  {
    filter: Type.Object({
      id: Type.String(),
      title: Type.String(),
      context: Type.Array(Type.String()),
      expires_at: Type.Union([Type.String(), Type.Null()]),
      filter_action: Type.Literal('warn'),
    }),
    keyword_matches: Type.Array(Type.String()),
  },
  { title: 'FilterResult' },
)
export type FilterResult = Static<typeof FilterResultSchema>
