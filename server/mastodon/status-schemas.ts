import { Type, type Static } from '@sinclair/typebox'
import { AccountSchema, CustomEmojiSchema, Nullable } from './schemas.js'

/** Mastodon's Status and the entities inside it (docs.joinmastodon.org, Mastodon 4.3; `quote` as 4.5 has it). */

export const MediaAttachmentSchema = Type.Object(
  {
    id: Type.String(),
    type: Type.String(),
    url: Type.String(),
    preview_url: Type.String(),
    remote_url: Nullable(Type.String()),
    description: Nullable(Type.String()),
    blurhash: Nullable(Type.String()),
    meta: Type.Object({
      original: Type.Optional(
        Type.Object({ width: Type.Integer(), height: Type.Integer(), size: Type.String(), aspect: Type.Number() }),
      ),
      focus: Type.Optional(Type.Object({ x: Type.Number(), y: Type.Number() })),
    }),
  },
  { title: 'MastodonMediaAttachment' },
)

export const PollEntitySchema = Type.Object(
  {
    id: Type.String(),
    expires_at: Nullable(Type.String()),
    expired: Type.Boolean(),
    multiple: Type.Boolean(),
    votes_count: Type.Integer(),
    voters_count: Nullable(Type.Integer()),
    options: Type.Array(Type.Object({ title: Type.String(), votes_count: Nullable(Type.Integer()) })),
    emojis: Type.Array(CustomEmojiSchema),
    voted: Type.Optional(Type.Boolean()),
    own_votes: Type.Optional(Type.Array(Type.Integer())),
  },
  { title: 'MastodonPoll' },
)

const MentionSchema = Type.Object({
  id: Type.String(),
  username: Type.String(),
  url: Type.String(),
  acct: Type.String(),
})
const TagSchema = Type.Object({ name: Type.String(), url: Type.String() })

const statusFields = {
  id: Type.String(),
  uri: Type.String(),
  url: Nullable(Type.String()),
  created_at: Type.String(),
  edited_at: Nullable(Type.String()),
  account: AccountSchema,
  content: Type.String(),
  visibility: Type.String(),
  sensitive: Type.Boolean(),
  spoiler_text: Type.String(),
  media_attachments: Type.Array(MediaAttachmentSchema),
  application: Nullable(Type.Object({ name: Type.String(), website: Nullable(Type.String()) })),
  mentions: Type.Array(MentionSchema),
  tags: Type.Array(TagSchema),
  emojis: Type.Array(CustomEmojiSchema),
  reblogs_count: Type.Integer(),
  favourites_count: Type.Integer(),
  replies_count: Type.Integer(),
  in_reply_to_id: Nullable(Type.String()),
  in_reply_to_account_id: Nullable(Type.String()),
  language: Nullable(Type.String()),
  text: Nullable(Type.String()),
  poll: Nullable(PollEntitySchema),
  card: Nullable(
    Type.Object({
      url: Type.String(),
      title: Type.String(),
      description: Type.String(),
      type: Type.String(),
      image: Nullable(Type.String()),
    }),
  ),
  favourited: Type.Optional(Type.Boolean()),
  reblogged: Type.Optional(Type.Boolean()),
  muted: Type.Optional(Type.Boolean()),
  bookmarked: Type.Optional(Type.Boolean()),
  pinned: Type.Optional(Type.Boolean()),
  filtered: Type.Optional(Type.Array(Type.Unknown())),
}

/** A status that is not itself a reblog; what a reblog or a quote holds. */
const InnerStatusSchema = Type.Object({ ...statusFields, reblog: Type.Null(), quote: Type.Null() })

const QuoteSchema = Type.Object({ state: Type.String(), quoted_status: Nullable(InnerStatusSchema) })

/** A status at the top: its reblog a status, its quote one more. */
const ShownStatusSchema = Type.Object({ ...statusFields, reblog: Type.Null(), quote: Nullable(QuoteSchema) })

export const StatusSchema = Type.Object(
  { ...statusFields, reblog: Nullable(ShownStatusSchema), quote: Nullable(QuoteSchema) },
  { title: 'MastodonStatus' },
)
export type Status = Static<typeof StatusSchema>
export type ShownStatus = Static<typeof ShownStatusSchema>
export type InnerStatus = Static<typeof InnerStatusSchema>
export type MediaAttachment = Static<typeof MediaAttachmentSchema>

/** A status's place in its thread: what it answers, up to the post, and what answers it. */
export const ContextSchema = Type.Object(
  { ancestors: Type.Array(StatusSchema), descendants: Type.Array(StatusSchema) },
  { title: 'MastodonContext' },
)
