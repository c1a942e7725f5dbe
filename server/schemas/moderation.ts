import { Type, type Static } from '@sinclair/typebox'
import { DateTimeSchema, IdSchema, NextCursorSchema, PageQuerySchema } from './common.js'
import { CommentSchema, PostSchema } from './posts.js'
import { RoleSchema } from './roles.js'
import { PostVersionSchema } from './post-plans.js'
import { UserSummarySchema } from './user-summary.js'
import { LIMITS } from '../../common/limits.js'

/** Reports, the moderation queue, moderator actions, the audit log and invites (DECISIONS §8 and §11). */

const TargetTypeSchema = Type.Union([Type.Literal('post'), Type.Literal('comment'), Type.Literal('user')])
const CategorySchema = Type.Union([
  Type.Literal('spam'),
  Type.Literal('abuse'),
  Type.Literal('illegal'),
  Type.Literal('other'),
])
const ActionSchema = Type.Union([Type.Literal('dismiss'), Type.Literal('remove'), Type.Literal('suspend')])
const StatusSchema = Type.Union([Type.Literal('open'), Type.Literal('resolved')])

export const ReportBodySchema = Type.Object({
  targetType: TargetTypeSchema,
  targetId: IdSchema,
  /** The post of a reported comment. */
  postId: Type.Optional(IdSchema),
  category: CategorySchema,
  comment: Type.Optional(Type.String({ maxLength: LIMITS.reportComment })),
})
export type ReportBody = Static<typeof ReportBodySchema>

const ReportSchema = Type.Object(
  {
    _id: Type.String(),
    reporter: UserSummarySchema,
    targetType: TargetTypeSchema,
    targetId: Type.String(),
    postId: Type.Optional(Type.String()),
    /** The reported user, or the author of the reported post or comment: whom `suspend` suspends. */
    subjectId: Type.String(),
    /** The post (compact), comment or user summary as it is now, or as it was when removed. */
    target: Type.Union([PostSchema, CommentSchema, UserSummarySchema]),
    /** Whether the target is gone (removed by a moderator or deleted by its author). */
    removed: Type.Boolean(),
    /** A reported post as it read when it was reported, whatever edits came after (DECISIONS §17). */
    targetVersion: Type.Optional(PostVersionSchema),
    category: CategorySchema,
    comment: Type.String(),
    status: StatusSchema,
    action: Type.Optional(ActionSchema),
    note: Type.Optional(Type.String()),
    resolvedBy: Type.Optional(UserSummarySchema),
    createdAt: DateTimeSchema,
    resolvedAt: Type.Optional(DateTimeSchema),
  },
  { title: 'Report' },
)
export type Report = Static<typeof ReportSchema>

export const ReportReplySchema = Type.Object({ report: ReportSchema })
/**
 * A report as its reporter gets it back: what they sent and its state, never the reported content, which
 * they may not be allowed to read (a blocker's post to the blocked, a suspended person's).
 */
const FiledReportSchema = Type.Pick(
  ReportSchema,
  ['_id', 'reporter', 'targetType', 'targetId', 'postId', 'category', 'comment', 'status', 'createdAt'],
  { title: 'FiledReport' },
)
export type FiledReport = Static<typeof FiledReportSchema>
export const FiledReportReplySchema = Type.Object({ report: FiledReportSchema })
/** The number of open reports in the queue. */
const OpenCountSchema = Type.Integer({ minimum: 0 })
export const ReportsQuerySchema = Type.Composite([
  PageQuerySchema,
  Type.Object({ status: Type.Optional(StatusSchema) }),
])
export const ReportsReplySchema = Type.Object({
  reports: Type.Array(ReportSchema),
  nextCursor: NextCursorSchema,
  open: OpenCountSchema,
})
export const ResolveBodySchema = Type.Object({
  action: ActionSchema,
  note: Type.Optional(Type.String({ maxLength: LIMITS.reportComment })),
})
export type ResolveBody = Static<typeof ResolveBodySchema>
export const ReportCreatedEventSchema = Type.Object({ report: ReportSchema, open: OpenCountSchema })

export const RoleBodySchema = Type.Object({ role: RoleSchema })
export const SuspendBodySchema = Type.Object({
  reason: Type.String({ minLength: 1, maxLength: LIMITS.reportComment }),
  /** Absent: until unsuspended. */
  days: Type.Optional(Type.Integer({ minimum: 1, maximum: 3650 })),
})
export type SuspendBody = Static<typeof SuspendBodySchema>

/** What moderators see of a person: the summary, with the role, the suspension and whether the signup waits. */
export const ModeratedUserSchema = Type.Composite(
  [
    UserSummarySchema,
    Type.Object({
      role: RoleSchema,
      pending: Type.Boolean(),
      suspension: Type.Union([
        Type.Object({ reason: Type.String(), at: DateTimeSchema, until: Type.Union([DateTimeSchema, Type.Null()]) }),
        Type.Null(),
      ]),
      createdAt: DateTimeSchema,
    }),
  ],
  { title: 'ModeratedUser' },
)
export const ModeratedUserReplySchema = Type.Object({ user: ModeratedUserSchema })
export const ModeratedUsersQuerySchema = Type.Composite([
  PageQuerySchema,
  Type.Object({ status: Type.Literal('pending') }),
])
export const ModeratedUsersReplySchema = Type.Object({
  users: Type.Array(ModeratedUserSchema),
  nextCursor: NextCursorSchema,
})
export const UserRefParamsSchema = Type.Object({ id: IdSchema }, { additionalProperties: false })

export const AuditEntrySchema = Type.Object(
  {
    _id: Type.String(),
    /** The moderator or admin, or "cli" for `npm run admin`. */
    actor: Type.Union([UserSummarySchema, Type.Literal('cli')]),
    action: Type.String(),
    targetType: Type.String(),
    targetId: Type.String(),
    /** On a `user` target: the person as they are now; absent once their account is gone. */
    target: Type.Optional(UserSummarySchema),
    reason: Type.Optional(Type.String()),
    createdAt: DateTimeSchema,
  },
  { title: 'AuditEntry' },
)
export const AuditLogReplySchema = Type.Object({ entries: Type.Array(AuditEntrySchema), nextCursor: NextCursorSchema })

export const InviteBodySchema = Type.Object({
  uses: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
  days: Type.Optional(Type.Integer({ minimum: 1, maximum: 365 })),
})
export type InviteBody = Static<typeof InviteBodySchema>
const InviteSchema = Type.Object(
  {
    code: Type.String(),
    uses: Type.Integer(),
    used: Type.Integer(),
    expiresAt: Type.Union([DateTimeSchema, Type.Null()]),
  },
  { title: 'Invite' },
)
export const InviteReplySchema = Type.Object({ invite: InviteSchema })
export const InvitesReplySchema = Type.Object({ invites: Type.Array(InviteSchema), nextCursor: NextCursorSchema })
