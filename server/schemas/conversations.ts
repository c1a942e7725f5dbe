import { Type, type Static } from '@sinclair/typebox'
import { IdSchema, PageQuerySchema } from './common.js'
import { PostSchema } from './posts.js'
import { UserSummarySchema } from './user-summary.js'

/**
 * A conversation of direct posts (DECISIONS §12) as one of its participants, the reader, sees it: the
 * others in it, the newest post of it they may read, and how many of its posts reached them unread.
 */
const ConversationSchema = Type.Object(
  {
    _id: Type.String(),
    /** The other participants (never the reader), by id; one whose account was deleted is no longer there. */
    participants: Type.Array(UserSummarySchema),
    lastPost: PostSchema,
    unread: Type.Integer({ minimum: 0, description: 'How many of its posts reached the reader unread' }),
  },
  { title: 'Conversation' },
)
export type Conversation = Static<typeof ConversationSchema>

export const ConversationParamsSchema = Type.Object({ id: IdSchema }, { additionalProperties: false })

/** Unknown query fields are ignored (docs/api-contract.md §1). */
export const ConversationsQuerySchema = PageQuerySchema

export const ConversationsReplySchema = Type.Object({
  conversations: Type.Array(ConversationSchema),
  nextCursor: Type.Union([Type.String(), Type.Null()]),
})

export const ConversationPostsReplySchema = Type.Object({
  conversation: ConversationSchema,
  /** Newest first; the cursor goes to older ones. */
  posts: Type.Array(PostSchema),
  nextCursor: Type.Union([Type.String(), Type.Null()]),
})

export const ConversationReplySchema = Type.Object({ conversation: ConversationSchema })

export const UnreadConversationsReplySchema = Type.Object({
  count: Type.Integer({ minimum: 0, description: "How many of the reader's conversations hold unread posts" }),
})

/** To every stream of each participant, as that participant sees it: a post reached it, or they read it. */
export const ConversationUpdatedEventSchema = Type.Object({ conversation: ConversationSchema })
/** To the streams of the participant who hid it (or can no longer read any post of it). */
export const ConversationDeletedEventSchema = Type.Object({ conversationId: Type.String() })
