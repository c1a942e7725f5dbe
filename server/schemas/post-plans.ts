import { Type, type Static } from '@sinclair/typebox'
import { VisibilitySchema } from './audience.js'
import { DateTimeSchema } from './common.js'
import { PostImageSchema, PostWriteReplySchema } from './posts.js'

/** Edit history and scheduled posts (DECISIONS §15, §17). */

/** A post as it read at one time: its first version, one after an edit, or the current one. */
export const PostVersionSchema = Type.Object(
  {
    content: Type.String(),
    /** '' when none. */
    spoilerText: Type.String(),
    media: Type.Array(PostImageSchema),
    /** The poll's options as they read then; null without a poll. */
    poll: Type.Union([Type.Object({ options: Type.Array(Type.String()) }), Type.Null()]),
    /** When this version was written: the post's creation, or the edit that made it. */
    editedAt: DateTimeSchema,
  },
  { title: 'PostVersion' },
)
export type PostVersion = Static<typeof PostVersionSchema>

/** Every version of a post, the first first and the current one last. */
export const PostHistoryReplySchema = Type.Object({ versions: Type.Array(PostVersionSchema) })

/** What a scheduled post will publish, as it was asked for, its images resolved to `media`. */
const ScheduledPostDataSchema = Type.Object({
  content: Type.Optional(Type.String()),
  media: Type.Optional(Type.Array(Type.Object({ url: Type.String(), alt: Type.Optional(Type.String()) }))),
  spoilerText: Type.Optional(Type.String()),
  poll: Type.Optional(Type.Object({ options: Type.Array(Type.String()), days: Type.Integer() })),
  quoteOf: Type.Optional(Type.String()),
  visibility: Type.Optional(VisibilitySchema),
  inReplyTo: Type.Optional(Type.String()),
})

const ScheduledPostSchema = Type.Object(
  { _id: Type.String(), scheduledAt: DateTimeSchema, postData: ScheduledPostDataSchema },
  { title: 'ScheduledPost' },
)
export type ScheduledPost = Static<typeof ScheduledPostSchema>

/** POST /api/posts: the post written, or, with `scheduledAt`, the scheduled post kept. */
export const CreatePostReplySchema = Type.Composite([
  PostWriteReplySchema,
  Type.Object({ scheduledPost: Type.Optional(ScheduledPostSchema) }),
])
