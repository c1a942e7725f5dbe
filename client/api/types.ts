/** The server's contract, seen from the client: types only, never the schema values. */
import type { Static } from '@sinclair/typebox'
import type { Registration } from '../lib/model.js'
import type {
  AuthLoginReplySchema,
  AuthSignupReplySchema,
  BlocksReplySchema,
  BookmarksReplySchema,
  CommentsReplySchema,
  FeedReplySchema,
  FollowReplySchema,
  ImportReplySchema,
  MutesReplySchema,
  NotificationsReplySchema,
  PostsReplySchema,
  TokenReplySchema,
  TrendingReplySchema,
  TwoFactorEnableReplySchema,
  TwoFactorSetupReplySchema,
  TwoFactorStatusSchema,
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

export type { ReportBody, SuspendBody } from '../../server/schemas/moderation.js'
export type {
  Comment,
  EventPayloads,
  FeedSort,
  LoginBody,
  MediaReply,
  Notification,
  NotificationEventPayloads,
  Post,
  PostData,
  SignupBody,
  User,
  UserEdit,
  UserResult,
  UserSummary,
} from '../../server/schemas/index.js'

export type LoginReply = Static<typeof AuthLoginReplySchema>
export type TokenReply = Static<typeof TokenReplySchema>
export type ImportReply = Static<typeof ImportReplySchema>
export type TwoFactorSetup = Static<typeof TwoFactorSetupReplySchema>
export type TwoFactorEnableReply = Static<typeof TwoFactorEnableReplySchema>
export type TwoFactorStatus = Static<typeof TwoFactorStatusSchema>
export type SignupReply = Static<typeof AuthSignupReplySchema>
export type FeedReply = Static<typeof FeedReplySchema>
export type PostsReply = Static<typeof PostsReplySchema>
export type BookmarksReply = Static<typeof BookmarksReplySchema>
export type CommentsReply = Static<typeof CommentsReplySchema>
export type FollowReply = Static<typeof FollowReplySchema>

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
