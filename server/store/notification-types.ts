/** Notifications as both stores keep them (docs/api-contract.md §8). */
export type NotificationType =
  'like' | 'comment' | 'mention' | 'follow' | 'repost' | 'quote' | 'reply' | 'poll' | 'follow_request'

/** What a notification is about: a person can have at most one of each (one like of a post by one actor, and so on). */
export interface NotificationIdentity {
  readonly type: NotificationType
  readonly recipientId: string
  readonly actorId: string
  /** The liked, commented or mentioning post; absent for a follow. */
  readonly postId?: string
  /** The comment made, or the one that mentions; absent otherwise. */
  readonly commentId?: string
}

export interface NotificationRecord extends NotificationIdentity {
  readonly _id: string
  readonly createdAt: string
  readonly read: boolean
}

/**
 * Which notifications to take back: exactly one, every one about a post or a comment that is going away,
 * every one either of two people made for the other (a block between them), every one to or from a
 * person (an account deleted), or every one to a person (their list cleared).
 */
export type NotificationMatch =
  | { identity: NotificationIdentity }
  | { postId: string }
  | { commentId: string }
  | { between: readonly [string, string] }
  | { involving: string }
  | { recipientId: string }

/** A recipient's count of unread notifications after a change. */
export interface UnreadCount {
  recipientId: string
  unread: number
}
