/** The records of moderation (DECISIONS §8) as both stores keep them. */
export type Role = 'user' | 'moderator' | 'admin'

export interface Suspension {
  readonly reason: string
  readonly at: string
  /** When it ends by itself; null: only an unsuspend ends it. */
  readonly until: string | null
}

type ReportTargetType = 'post' | 'comment' | 'user'
type ReportCategory = 'spam' | 'abuse' | 'illegal' | 'other'
export type ReportStatus = 'open' | 'resolved'
type ReportAction = 'dismiss' | 'remove' | 'suspend'

export interface ReportResolution {
  readonly action: ReportAction
  readonly note: string
  readonly resolvedBy: string
  readonly resolvedAt: string
}

export interface ReportRecord extends Partial<ReportResolution> {
  readonly _id: string
  readonly reporterId: string
  readonly targetType: ReportTargetType
  readonly targetId: string
  /** The post of a reported comment. */
  readonly postId?: string
  /** The author of the reported content, or the reported user: whom `suspend` suspends. */
  readonly subjectId: string
  /**
   * The target's view when it was reported, replaced by its view at removal when a moderator removes it:
   * what the queue shows once the target itself is gone.
   */
  readonly snapshot: object
  readonly category: ReportCategory
  readonly comment: string
  readonly status: ReportStatus
  readonly createdAt: string
}

export interface AuditEntryRecord {
  readonly _id: string
  /** The moderator or admin; null for the command line. */
  readonly actorId: string | null
  readonly action: string
  readonly targetType: string
  readonly targetId: string
  readonly reason?: string
  readonly createdAt: string
}

export interface InviteRecord {
  /** The code itself. */
  readonly _id: string
  readonly createdBy: string
  /** How many signups it allows. */
  readonly uses: number
  readonly used: number
  readonly expiresAt: string | null
  readonly createdAt: string
}
