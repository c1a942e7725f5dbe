/** The server's contract, seen from the client: types only, never the schema values. */
import type { Static } from '@sinclair/typebox'
import type {
  AuthLoginReplySchema,
  AuthSignupReplySchema,
  BookmarksReplySchema,
  FeedReplySchema,
  FollowReplySchema,
  PostsReplySchema,
} from '../../server/schemas/index.js'

export type {
  Comment,
  EventPayloads,
  FeedSort,
  LoginBody,
  MediaReply,
  Post,
  PostData,
  SignupBody,
  User,
  UserEdit,
  UserSummary,
} from '../../server/schemas/index.js'

export type LoginReply = Static<typeof AuthLoginReplySchema>
export type SignupReply = Static<typeof AuthSignupReplySchema>
export type FeedReply = Static<typeof FeedReplySchema>
export type PostsReply = Static<typeof PostsReplySchema>
export type BookmarksReply = Static<typeof BookmarksReplySchema>
export type FollowReply = Static<typeof FollowReplySchema>

export type Page = { limit?: number; cursor?: string | null }
export type Health = { status: string; guestLogin?: boolean }
