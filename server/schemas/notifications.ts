import { Type, type Static } from '@sinclair/typebox'
import { CursorSchema, DateTimeSchema, IdSchema, LimitSchema } from './common.js'
import { FilterResultSchema } from './filters.js'
import { UserSummarySchema } from './user-summary.js'

const NotificationTypeSchema = Type.Union([
  Type.Literal('like'),
  Type.Literal('comment'),
  Type.Literal('mention'),
  Type.Literal('follow'),
  Type.Literal('reply'),
  Type.Literal('poll'),
  Type.Literal('repost'),
  Type.Literal('quote'),
  Type.Literal('follow_request'),
])

/**
 * Someone else's action on the reader (docs/api-contract.md §8): `like` and `comment` carry the post (and the
 * comment), `mention` the post that mentions (and the comment, when one does), `follow` neither; `reply`
 * the post and the reply to the reader's comment, `poll` the reader's post whose poll closed (its actor the
 * reader). `follow_request` (neither) is someone asking to follow the reader's locked account, for as long
 * as the request waits; `follow` from a locked account's owner to whoever asked says the request was
 * accepted (DECISIONS §12). The post's content and the comment's text are the current ones, cut to their
 * first 140 characters.
 */
export const NotificationSchema = Type.Object(
  {
    _id: Type.String(),
    type: NotificationTypeSchema,
    actor: UserSummarySchema,
    post: Type.Optional(Type.Object({ _id: Type.String(), content: Type.String(), mediaUrl: Type.String() })),
    comment: Type.Optional(Type.Object({ _id: Type.String(), text: Type.String() })),
    createdAt: DateTimeSchema,
    read: Type.Boolean(),
    /** The recipient's `warn` filters of notifications that match what someone else wrote in it (DECISIONS §15). */
    filtered: Type.Optional(Type.Array(FilterResultSchema)),
  },
  { title: 'Notification' },
)
export type Notification = Static<typeof NotificationSchema>

/** Unknown query fields are ignored (docs/api-contract.md §1). */
export const NotificationsQuerySchema = Type.Object({
  limit: Type.Optional(LimitSchema),
  cursor: Type.Optional(CursorSchema),
})

export const UnreadSchema = Type.Integer({
  minimum: 0,
  description: "How many of the reader's notifications are unread",
})

export const NotificationsReplySchema = Type.Object({
  notifications: Type.Array(NotificationSchema),
  nextCursor: Type.Union([Type.String(), Type.Null()]),
  unread: UnreadSchema,
})

/** `{}` marks every notification read; `before` marks that one and every older one. Unknown fields are ignored. */
export const MarkReadBodySchema = Type.Object({ before: Type.Optional(IdSchema) })

export const UnreadReplySchema = Type.Object({ unread: UnreadSchema })
