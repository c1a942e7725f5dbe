import { Type, type Static } from '@sinclair/typebox'
import { CommentSchema, PostSchema } from './posts.js'
import { UserSchema } from './users.js'

/**
 * Live events (DECISIONS §3). Each carries the changed record so a client applies it without a refetch.
 * User records in events are public views: no email, and an empty bookmarks list.
 */
export const PostEventSchema = Type.Object({ post: PostSchema })
export const PostDeletedEventSchema = Type.Object({ postId: Type.String() })
export const CommentEventSchema = Type.Object({ postId: Type.String(), comment: CommentSchema, post: PostSchema })
export const CommentDeletedEventSchema = Type.Object({
  postId: Type.String(),
  commentId: Type.String(),
  post: PostSchema,
})
export const FollowEventSchema = Type.Object({ user: UserSchema, followUser: UserSchema })
export const UserEventSchema = Type.Object({ user: UserSchema })
export const BookmarkEventSchema = Type.Object({ postId: Type.String(), bookmarks: Type.Array(Type.String()) })

export interface EventPayloads {
  'post.created': Static<typeof PostEventSchema>
  'post.updated': Static<typeof PostEventSchema>
  'post.deleted': Static<typeof PostDeletedEventSchema>
  /** Likes and unlikes both: the post carries the new likes. */
  'post.liked': Static<typeof PostEventSchema>
  'comment.added': Static<typeof CommentEventSchema>
  'comment.updated': Static<typeof CommentEventSchema>
  'comment.deleted': Static<typeof CommentDeletedEventSchema>
  'comment.voted': Static<typeof CommentEventSchema>
  'user.followed': Static<typeof FollowEventSchema>
  'user.unfollowed': Static<typeof FollowEventSchema>
  'user.updated': Static<typeof UserEventSchema>
  /** Private: only to the owner's own streams. */
  'bookmark.added': Static<typeof BookmarkEventSchema>
  'bookmark.removed': Static<typeof BookmarkEventSchema>
}
export type EventName = keyof EventPayloads

export const EVENT_NAMES = [
  'post.created',
  'post.updated',
  'post.deleted',
  'post.liked',
  'comment.added',
  'comment.updated',
  'comment.deleted',
  'comment.voted',
  'user.followed',
  'user.unfollowed',
  'user.updated',
  'bookmark.added',
  'bookmark.removed',
] as const satisfies readonly EventName[]

/** What a service hands to the hub once its write is on disk. `to` limits delivery to one user's streams. */
export type ChirpEvent = {
  [K in EventName]: { name: K; data: EventPayloads[K]; to?: string }
}[EventName]

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
