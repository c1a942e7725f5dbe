import { Type, type Static } from '@sinclair/typebox'
import type { ScheduledPost } from '../schemas/post-plans.js'
import type { Services } from '../services/index.js'
import { attachmentIdOf } from '../services/media-attachments.js'
import { VISIBILITY_NAMES } from './account-entity.js'
import { Nullable } from './schemas.js'
import { imageAttachment } from './status-entity.js'
import { MediaAttachmentSchema } from './status-schemas.js'

/** Mastodon's ScheduledStatus (docs.joinmastodon.org, Mastodon 4.3), drawn from a Chirp scheduled post. */
export const ScheduledStatusSchema = Type.Object(
  {
    id: Type.String(),
    scheduled_at: Type.String(),
    params: Type.Object({
      text: Type.String(),
      poll: Nullable(
        Type.Object({
          options: Type.Array(Type.String()),
          expires_in: Type.Integer(),
          multiple: Type.Boolean(),
          hide_totals: Type.Boolean(),
        }),
      ),
      media_ids: Nullable(Type.Array(Type.String())),
      sensitive: Nullable(Type.Boolean()),
      spoiler_text: Nullable(Type.String()),
      visibility: Type.String(),
      in_reply_to_id: Nullable(Type.String()),
      language: Nullable(Type.String()),
      application_id: Nullable(Type.String()),
      scheduled_at: Nullable(Type.String()),
      idempotency: Nullable(Type.String()),
      with_rate_limit: Type.Boolean(),
    }),
    media_attachments: Type.Array(MediaAttachmentSchema),
  },
  { title: 'MastodonScheduledStatus' },
)
export type ScheduledStatus = Static<typeof ScheduledStatusSchema>

const DAY_SECONDS = 86_400

/** A scheduled post as Mastodon's apps read one; its images known by their uploads' ids, as on a status. */
export function scheduledStatusOf(services: Services, publicUrl: string, scheduled: ScheduledPost): ScheduledStatus {
  const { postData } = scheduled
  const media = (postData.media ?? []).map((image, i) => {
    const key = services.media.keyOf(image.url)
    return {
      id: key === undefined ? `${scheduled._id.replace(/-/g, '')}${i}` : attachmentIdOf(key),
      url: image.url,
      description: image.alt ?? null,
    }
  })
  return {
    id: scheduled._id,
    scheduled_at: scheduled.scheduledAt,
    params: {
      text: postData.content ?? '',
      poll: postData.poll
        ? {
            options: postData.poll.options,
            expires_in: postData.poll.days * DAY_SECONDS,
            multiple: false,
            hide_totals: false,
          }
        : null,
      media_ids: media.length === 0 ? null : media.map((image) => image.id),
      sensitive: postData.spoilerText ? true : null,
      spoiler_text: postData.spoilerText ?? null,
      visibility: VISIBILITY_NAMES[postData.visibility ?? 'public'],
      in_reply_to_id: null,
      language: null,
      application_id: null,
      scheduled_at: null,
      idempotency: null,
      with_rate_limit: false,
    },
    media_attachments: media.map((image) =>
      imageAttachment({ ...image, width: undefined, height: undefined }, publicUrl),
    ),
  }
}
