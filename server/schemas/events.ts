import { Type, type Static } from '@sinclair/typebox'
import type { Visibility } from '../../common/audience.js'
import { DateTimeSchema } from './common.js'
import type { ReportCreatedEventSchema } from './moderation.js'
import type { ConversationDeletedEventSchema, ConversationUpdatedEventSchema } from './conversations.js'
import { NotificationSchema, UnreadSchema } from './notifications.js'
import { CommentSchema, LinkCardSchema, PostImageSchema, PostSchema } from './posts.js'
import { UserSummarySchema } from './user-summary.js'

/**
 * Live events. Each carries what changed, never a whole post or a whole follower list, so an event's
 * size does not grow with a post's comments or a user's audience; a client applies it to what it shows
 * without a refetch. Events go to every stream but `bookmark.*`, `notification.*` and `conversation.*`,
 * which go only to the owner's.
 */
export const PostEventSchema = Type.Object({ post: PostSchema })
export const PostUpdatedEventSchema = Type.Object({
  postId: Type.String(),
  content: Type.String(),
  mediaUrl: Type.String(),
  type: Type.String(),
  mediaAlt: Type.Optional(Type.String()),
  mediaWidth: Type.Optional(Type.Integer()),
  mediaHeight: Type.Optional(Type.Integer()),
  /** Every image after the edit, as a post's `media`; absent when only a link card arrived. */
  media: Type.Optional(Type.Array(PostImageSchema)),
  spoilerText: Type.Optional(Type.String()),
  updatedAt: DateTimeSchema,
  editedAt: Type.Optional(DateTimeSchema),
  /** The post's link card after the change: null when an edit changed or removed the link. */
  card: Type.Optional(Type.Union([LinkCardSchema, Type.Null()])),
  /** When a link card arrived: the whole post, in its compact form. */
  post: Type.Optional(PostSchema),
})
export const PostDeletedEventSchema = Type.Object({
  postId: Type.String(),
  /** When the post was made, for clients that key posts by time (Mastodon's status ids); absent when an account's deletion took it. */
  createdAt: Type.Optional(DateTimeSchema),
})
/**
 * Someone voted in the post's poll. Its counts are not sent, as a reader who has not voted may not see
 * them: a client that shows the post reads it again (`GET /api/posts/{postId}`).
 */
export const PollVotedEventSchema = Type.Object({ postId: Type.String() })
/** A like (`liked: true`) or an unlike, by `user`; `likeCount` is the count after it. */
export const PostLikedEventSchema = Type.Object({
  postId: Type.String(),
  user: UserSummarySchema,
  liked: Type.Boolean(),
  likeCount: Type.Integer({ minimum: 0 }),
  updatedAt: DateTimeSchema,
})
/**
 * A repost (`reposted: true`) or its undoing, by `user`; `repostCount` is the count after it. A repost
 * carries `post`, as a home feed shows it (compact, with `repostedBy` and `repostedAt`), so the feeds of
 * the reposter's followers can take it in.
 */
export const PostRepostedEventSchema = Type.Object({
  postId: Type.String(),
  user: UserSummarySchema,
  reposted: Type.Boolean(),
  repostCount: Type.Integer({ minimum: 0 }),
  at: DateTimeSchema,
  post: Type.Optional(PostSchema),
})
/** The author pinned (`pinned: true`) or unpinned one of their posts. */
export const PostPinnedEventSchema = Type.Object({ postId: Type.String(), pinned: Type.Boolean() })
export const CommentAddedEventSchema = Type.Object({ postId: Type.String(), comment: CommentSchema })
export const CommentUpdatedEventSchema = Type.Object({
  postId: Type.String(),
  commentId: Type.String(),
  text: Type.String(),
  updatedAt: DateTimeSchema,
})
export const CommentDeletedEventSchema = Type.Object({ postId: Type.String(), commentId: Type.String() })
/** An upvote (`up: true`) or a downvote by `user`, which also takes back their vote the other way. */
export const CommentVotedEventSchema = Type.Object({
  postId: Type.String(),
  commentId: Type.String(),
  user: UserSummarySchema,
  up: Type.Boolean(),
  updatedAt: DateTimeSchema,
})
/** `user` started (or stopped) following `followUser`. */
export const FollowEventSchema = Type.Object({ user: UserSummarySchema, followUser: UserSummarySchema })
/** `user` asks to follow the stream's user, whose account is locked (DECISIONS §12). */
export const FollowRequestEventSchema = Type.Object({ user: UserSummarySchema })
/** A profile's public fields after an edit. */
export const UserUpdatedEventSchema = Type.Object({
  user: Type.Composite([
    UserSummarySchema,
    Type.Object({
      /** Always sent; optional for events written to the log before profiles had them. */
      displayName: Type.Optional(Type.String()),
      bannerURL: Type.Optional(Type.String()),
      bio: Type.String(),
      website: Type.String(),
      /** Always sent; optional for events written to the log before accounts could be locked. */
      locked: Type.Optional(Type.Boolean()),
      updatedAt: DateTimeSchema,
    }),
  ]),
})
export const BookmarkEventSchema = Type.Object({ postId: Type.String() })
/**
 * The stream's user blocked, unblocked, unmuted or muted `user` (until `until`, or for ever with null):
 * a client takes that person's posts and comments out of what it shows, or refetches to bring them back.
 */
export const RelationEventSchema = Type.Object({ user: UserSummarySchema })
export const MuteEventSchema = Type.Object({
  user: UserSummarySchema,
  until: Type.Union([DateTimeSchema, Type.Null()]),
})
/**
 * A suspension began or was lifted. Every instance hides (or shows again) the user's content on its streams
 * from here on, in log order, and every client takes their posts and comments out of what it shows (or
 * refetches to bring them back); the user's own streams have closed.
 */
export const SuspensionEventSchema = Type.Object({ userId: Type.String(), username: Type.String() })
/** A new notification for the stream's user, with their unread count after it. */
export const NotificationCreatedEventSchema = Type.Composite([
  NotificationSchema,
  Type.Object({ unread: UnreadSchema }),
])
/** The user's unread count fell: they marked some read, or an action was taken back and its unread notification went. */
export const NotificationReadEventSchema = Type.Object({ unread: UnreadSchema })

export interface EventPayloads {
  'post.created': Static<typeof PostEventSchema>
  'post.updated': Static<typeof PostUpdatedEventSchema>
  'post.deleted': Static<typeof PostDeletedEventSchema>
  /** Likes and unlikes both. */
  'post.liked': Static<typeof PostLikedEventSchema>
  'poll.voted': Static<typeof PollVotedEventSchema>
  /** Reposts and their undoing. */
  'post.reposted': Static<typeof PostRepostedEventSchema>
  'post.pinned': Static<typeof PostPinnedEventSchema>
  'comment.added': Static<typeof CommentAddedEventSchema>
  'comment.updated': Static<typeof CommentUpdatedEventSchema>
  'comment.deleted': Static<typeof CommentDeletedEventSchema>
  'comment.voted': Static<typeof CommentVotedEventSchema>
  'user.followed': Static<typeof FollowEventSchema>
  'user.unfollowed': Static<typeof FollowEventSchema>
  'user.updated': Static<typeof UserUpdatedEventSchema>
  'user.suspended': Static<typeof SuspensionEventSchema>
  'user.unsuspended': Static<typeof SuspensionEventSchema>
  /** An account was deleted: screens drop the person's comments and rows (their posts each get `post.deleted`). */
  'user.deleted': { userId: string; username: string }
  /**
   * The user logged out: every instance ends the streams of the token logged out, or with no `tokenId`
   * (logout everywhere) all of that user's streams. It travels through the event log like any event, so
   * it reaches the other instances, but no client is ever sent it.
   */
  'session.ended': { tokenId?: string }
  /** Private: only to the owner's own streams. */
  'bookmark.added': Static<typeof BookmarkEventSchema>
  'bookmark.removed': Static<typeof BookmarkEventSchema>
  /** Private, like bookmarks: to the streams of whoever blocked or muted; the other person is never told. */
  'user.blocked': Static<typeof RelationEventSchema>
  'user.unblocked': Static<typeof RelationEventSchema>
  'user.muted': Static<typeof MuteEventSchema>
  'user.unmuted': Static<typeof RelationEventSchema>
}
export type EventName = keyof EventPayloads

/**
 * The reader's own notifications (docs/api-contract.md §8), private like bookmarks. A map apart from EventPayloads,
 * whose every event a client's table of handlers covers: a client takes these up with the notifications
 * it shows, and one that shows none can leave them aside.
 */
export interface NotificationEventPayloads {
  'notification.created': Static<typeof NotificationCreatedEventSchema>
  'notification.read': Static<typeof NotificationReadEventSchema>
}

/**
 * The reader's own conversations of direct posts (DECISIONS §12), private like notifications: each goes to
 * one participant's streams, as they see the conversation. A map apart, as the notifications' are.
 */
interface ConversationEventPayloads {
  'conversation.updated': Static<typeof ConversationUpdatedEventSchema>
  'conversation.deleted': Static<typeof ConversationDeletedEventSchema>
}

/** To the streams of moderators and admins only: a new report, with the queue's open count after it. */
export interface ModerationEventPayloads {
  'report.created': Static<typeof ReportCreatedEventSchema>
}

/**
 * To the streams of a locked account's owner only (DECISIONS §12): a map apart, as a client that shows no
 * follow requests can leave them aside; their acceptance is the `user.followed` everyone hears.
 */
interface FollowRequestEventPayloads {
  'follow_request.created': Static<typeof FollowRequestEventSchema>
}

/**
 * To the owner's own streams (DECISIONS §15): their keyword filters or lists changed, so what their open
 * screens show may change; a map apart, as a client that shows neither can leave them aside.
 */
export interface OwnReadingEventPayloads {
  'filters.changed': Record<string, never>
  'lists.changed': Record<string, never>
}

/** Every event the server sends. */
export type AllEventPayloads = EventPayloads &
  OwnReadingEventPayloads &
  NotificationEventPayloads &
  ConversationEventPayloads &
  ModerationEventPayloads &
  FollowRequestEventPayloads

/**
 * Who may read the post an event carries or concerns, when that is not everyone (DECISIONS §12): what
 * services/audience.ts's `mayRead` decides by. A stream whose reader may not read the post leaves the event
 * out. It travels with the event, through the log too, and never reaches a client.
 */
export interface EventAudience {
  readonly authorId: string
  readonly visibility: Visibility
  readonly addressed?: readonly string[]
}

/**
 * What a service hands to the hub once its write is on disk. `to` limits delivery to one user's streams;
 * `by` names the person whose post, comment or action it shows, so that streams whose reader does not
 * see that person (services/visibility.ts) leave it out.
 */
export type ChirpEvent = {
  [K in keyof AllEventPayloads]: {
    name: K
    data: AllEventPayloads[K]
    to?: string
    by?: string
    /** Whose post it carries when not `by`'s own (a repost's author): a reader who does not see them does not get it either. */
    about?: string
    /** The audience of the post it carries or concerns; absent: anyone may read it. */
    audience?: EventAudience | undefined
  }
}[keyof AllEventPayloads]

export const TicketReplySchema = Type.Object({ ticket: Type.String() })
export const EventsQuerySchema = Type.Object(
  {
    ticket: Type.String({ minLength: 1, maxLength: 200 }),
    /**
     * The same as the Last-Event-ID header, for a client that reconnects with a new EventSource: a ticket
     * works once, so the browser's own reconnect (the only one that sends the header) cannot be used.
     */
    lastEventId: Type.Optional(Type.String({ maxLength: 40 })),
  },
  { additionalProperties: false },
)

/**
 * The event a PostgreSQL write without events of its own logs, so that every instance drops the reads it
 * kept (store/pg/pg-store.ts). No client is ever sent it.
 */
export const STORE_CHANGED = 'store.changed'
