/** The server's contract, seen from the client: types only, never the schema values. */
import type { Static } from '@sinclair/typebox'
import type {
  Post as ServerPost,
  PostData as ServerPostData,
} from '../../server/schemas/index.js'
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
  FeedSort,
  LoginBody,
  MediaReply,
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

/**
 * DECISIONS §7: a post's image may carry its author's description (`mediaAlt`, 0 to 1,000 characters)
 * and its pixel size. Optional here, so the client reads posts from a server with or without them.
 */
export type Post = ServerPost & { mediaAlt?: string; mediaWidth?: number; mediaHeight?: number }
export type PostData = ServerPostData & { mediaAlt?: string }

export type Page = { limit?: number; cursor?: string | null }
export type Health = { status: string; guestLogin?: boolean }
