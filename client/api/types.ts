/** The server's contract, seen from the client: types only, never the schema values. */
import type { Static } from '@sinclair/typebox'
import type { Registration } from '../lib/model.js'
import type {
  AuthLoginReplySchema,
  AuthorisedAppsReplySchema,
  AuthSignupReplySchema,
  BlocksReplySchema,
  BookmarksReplySchema,
  CommentsReplySchema,
  FeedReplySchema,
  ImportReplySchema,
  MutesReplySchema,
  NotificationsReplySchema,
  PostsReplySchema,
  TokenReplySchema,
  TrendingReplySchema,
  TwoFactorEnableReplySchema,
  TwoFactorSetupReplySchema,
  TwoFactorStatusSchema,
  NotificationSettingsSchema,
  UnreadReplySchema,
  UserResult,
} from '../../server/schemas/index.js'
import type {
  AuditLogReplySchema,
  InvitesReplySchema,
  ModeratedUserReplySchema,
  ModeratedUsersReplySchema,
  ReportCreatedEventSchema,
  ReportsReplySchema,
  FiledReportReplySchema,
  ResolveBody,
} from '../../server/schemas/moderation.js'

import type {
  Notification as ServerNotification,
  Post,
  PostData,
  User as ServerUser,
  UserEdit,
  UserSummary,
} from '../../server/schemas/index.js'

export type { PostData }
export type { ReportBody, SuspendBody } from '../../server/schemas/moderation.js'
export type { Visibility } from '../../common/audience.js'
export type {
  Comment,
  EventPayloads,
  FeedSort,
  LoginBody,
  MediaReply,
  NotificationEventPayloads,
  Post,
  SignupBody,
  UserResult,
  UserSummary,
} from '../../server/schemas/index.js'

export type LoginReply = Static<typeof AuthLoginReplySchema>
export type TokenReply = Static<typeof TokenReplySchema>
export type ImportReply = Static<typeof ImportReplySchema>
export type TwoFactorSetup = Static<typeof TwoFactorSetupReplySchema>
export type TwoFactorEnableReply = Static<typeof TwoFactorEnableReplySchema>
export type TwoFactorStatus = Static<typeof TwoFactorStatusSchema>
export type NotificationSettings = Static<typeof NotificationSettingsSchema>
export type AuthorisedApp = Static<typeof AuthorisedAppsReplySchema>['apps'][number]
export type SignupReply = Static<typeof AuthSignupReplySchema>
export type FeedReply = Static<typeof FeedReplySchema>
export type PostsReply = Static<typeof PostsReplySchema>
export type BookmarksReply = Static<typeof BookmarksReplySchema>
export type CommentsReply = Static<typeof CommentsReplySchema>

export type Page = { limit?: number; cursor?: string | null }

export type NotificationsReply = Static<typeof NotificationsReplySchema>
export type UnreadReply = Static<typeof UnreadReplySchema>
export type UsersReply = { users: UserResult[]; nextCursor: string | null }
/** A tag of the last 7 days, with how many posts used it. */
export type TrendingTag = Static<typeof TrendingReplySchema>['tags'][number]

/** `registration` is missing from servers older than it. */
export type Health = { status: string; guestLogin?: boolean; registration?: Registration }
export type BlocksReply = Static<typeof BlocksReplySchema>
export type MutesReply = Static<typeof MutesReplySchema>
export type MutedUser = MutesReply['users'][number]

/** Moderation (docs/api-contract.md, DECISIONS §8): reports, the queue, moderated people, the audit log, invites. */
export type ReportsReply = Static<typeof ReportsReplySchema>
export type Report = ReportsReply['reports'][number]
/** A report as its reporter gets it back, without the reported content. */
export type FiledReport = Static<typeof FiledReportReplySchema>['report']
export type ResolveAction = ResolveBody['action']
export type ModeratedUser = Static<typeof ModeratedUserReplySchema>['user']
export type ModeratedUsersReply = Static<typeof ModeratedUsersReplySchema>
export type AuditLogReply = Static<typeof AuditLogReplySchema>
export type AuditEntry = AuditLogReply['entries'][number]
export type InvitesReply = Static<typeof InvitesReplySchema>
export type Invite = InvitesReply['invites'][number]
export type Role = ModeratedUser['role']
export type ReportCreated = Static<typeof ReportCreatedEventSchema>

/*
 * Audiences, locked accounts and direct messages (DECISIONS §12, §17): the parts of the contract the client
 * reads beyond what server/schemas spells out, written to the contract's words. Each widens the schema's
 * type, so it stays right once the schema carries the same fields.
 */

/** A User view; `requested` when the caller asked to follow this locked account and waits for an answer. */
export type User = ServerUser & { requested?: boolean }

/** A notification; `follow_request` tells a locked account's owner that someone asks to follow them. */
export type Notification = Omit<ServerNotification, 'type'> & { type: ServerNotification['type'] | 'follow_request' }

/** A profile edit; `locked` makes following the account a request its owner answers. */
export type ProfileEdit = UserEdit & { locked?: boolean }

/** A new post's data; on a direct post, `inReplyTo` answers that post in its conversation, to the same people. */
export type NewPostData = PostData & { inReplyTo?: string }

/** A post of a conversation: a direct post names the post it answers and its conversation. */
export type DirectPost = Post & { inReplyTo?: string; conversationId?: string }

/**
 * What a follow or an unfollow answers: my record and theirs (`followUser`); or, following a locked
 * account, `{ user: the account, requested: true }`, a request made rather than a follow.
 */
export type FollowAnswer = { user: User; followUser?: User; requested?: true }

/** A conversation as the caller sees it: the others in it, the newest message, and how many are unread. */
export type Conversation = {
  _id: string
  participants: UserSummary[]
  lastPost: DirectPost
  unread: number
}
export type ConversationsReply = { conversations: Conversation[]; nextCursor: string | null }
/** One conversation's messages, newest first; the cursor goes to older ones. */
export type ConversationReply = { conversation: Conversation; posts: DirectPost[]; nextCursor: string | null }

/** The live events of audiences, follow requests and conversations, each to the people it concerns only. */
export interface AudienceEventPayloads {
  'follow_request.created': { user: UserSummary }
  'conversation.updated': { conversation: Conversation }
  'conversation.deleted': { conversationId: string }
}
