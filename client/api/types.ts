/** The server's contract, seen from the client: types only, never the schema values. */
import type { Static } from '@sinclair/typebox'
import type { UserSummary } from '../../server/schemas/index.js'
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

/** DECISIONS §5: someone else's action on me. `content` and `text` are cut to 140 characters. */
export type NotificationType = 'like' | 'comment' | 'mention' | 'follow'
export type Notification = {
  _id: string
  type: NotificationType
  actor: UserSummary
  post?: { _id: string; content: string; mediaUrl: string }
  comment?: { _id: string; text: string }
  createdAt: string
  read: boolean
}
export type NotificationsReply = { notifications: Notification[]; nextCursor: string | null; unread: number }
export type UnreadReply = { unread: number }
/** A person found by search: their summary and bio. */
export type UserResult = UserSummary & { bio: string }
export type UsersReply = { users: UserResult[]; nextCursor: string | null }
/** A tag of the last 7 days, with how many posts used it. */
export type TrendingTag = { tag: string; posts: number }

/** The private events of DECISIONS §5, which reach only the recipient's own streams. */
export type NotificationEventPayloads = {
  'notification.created': Notification & UnreadReply
  'notification.read': UnreadReply
}
export type Health = { status: string; guestLogin?: boolean }
