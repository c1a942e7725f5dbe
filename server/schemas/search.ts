import { Type, type Static } from '@sinclair/typebox'
import { CompactSchema, CursorSchema, LimitSchema } from './common.js'
import { PostSchema } from './posts.js'
import { UserSummarySchema } from './user-summary.js'
import { LIMITS } from '../../common/limits.js'

const SearchTypeSchema = Type.Union([Type.Literal('posts'), Type.Literal('users')])

/** Unknown query fields are ignored (docs/api-contract.md §1). */
export const SearchQuerySchema = Type.Object({
  q: Type.String({ minLength: 1, maxLength: LIMITS.searchQuery }),
  type: Type.Optional(SearchTypeSchema),
  limit: Type.Optional(LimitSchema),
  cursor: Type.Optional(CursorSchema),
  compact: Type.Optional(CompactSchema),
})
export type SearchQuery = Static<typeof SearchQuerySchema>

/** A person found: their summary and bio. */
const UserResultSchema = Type.Composite([UserSummarySchema, Type.Object({ bio: Type.String() })], {
  title: 'UserResult',
})
export type UserResult = Static<typeof UserResultSchema>

/** `{ posts, nextCursor }` for `type=posts`, `{ users, nextCursor }` for `type=users`. */
export const SearchReplySchema = Type.Object({
  posts: Type.Optional(Type.Array(PostSchema)),
  users: Type.Optional(Type.Array(UserResultSchema)),
  nextCursor: Type.Union([Type.String(), Type.Null()]),
})

/** The route takes any short text; the service says what makes it no tag. */
export const TagParamsSchema = Type.Object({ tag: Type.String({ minLength: 1, maxLength: 200 }) })
export const PageQueryOpenSchema = Type.Object({
  limit: Type.Optional(LimitSchema),
  cursor: Type.Optional(CursorSchema),
  compact: Type.Optional(CompactSchema),
})

export const TrendingQuerySchema = Type.Object({ limit: Type.Optional(LimitSchema) })
export const TrendingReplySchema = Type.Object({
  tags: Type.Array(Type.Object({ tag: Type.String(), posts: Type.Integer({ minimum: 1 }) }, { title: 'TrendingTag' })),
})
