import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import type { PostVersion } from '../schemas/post-plans.js'
import type { Post } from '../schemas/posts.js'
import { attachmentIdOf } from '../services/media-attachments.js'
import { statusKeyOf, type StatusKey } from '../services/status-ids.js'
import { ERROR_REPLIES, recordNotFound } from './errors.js'
import type { MastodonOptions } from './options.js'
import { AccountSchema, CustomEmojiSchema, Nullable } from './schemas.js'
import { contentHtml, imageAttachment } from './status-entity.js'
import { readerIdOf, recordOr404, statusContextOf, statusOfPost } from './status-page.js'
import { MediaAttachmentSchema, StatusSchema, type Status } from './status-schemas.js'
import { commentIn, commentStatus, threadOf } from './thread-page.js'

const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) })

const StatusEditSchema = Type.Object(
  {
    content: Type.String(),
    spoiler_text: Type.String(),
    sensitive: Type.Boolean(),
    created_at: Type.String(),
    account: AccountSchema,
    poll: Nullable(Type.Object({ options: Type.Array(Type.Object({ title: Type.String() })) })),
    media_attachments: Type.Array(MediaAttachmentSchema),
    emojis: Type.Array(CustomEmojiSchema),
  },
  { title: 'MastodonStatusEdit' },
)
const StatusSourceSchema = Type.Object(
  { id: Type.String(), text: Type.String(), spoiler_text: Type.String() },
  { title: 'MastodonStatusSource' },
)

const EditBodySchema = Type.Object({
  status: Type.Optional(Type.String()),
  spoiler_text: Type.Optional(Type.String()),
  /** `media_ids[]` as a form or JSON; a form's one `media_ids` arrives as text. */
  media_ids: Type.Optional(Type.Union([Type.Array(Type.String({ maxLength: 100 }), { maxItems: 20 }), Type.String()])),
})

/** The status an id names, when it is a post's own or a comment's; a reblog's names nothing to edit. */
function keyOf(id: string): StatusKey {
  const key = statusKeyOf(id)
  if (!key || key.by !== undefined) throw recordNotFound()
  return key
}

/**
 * Editing a status and reading its earlier versions (DECISIONS §13, §15): `PUT /api/v1/statuses/:id`,
 * its `history` (StatusEdit entities, the first first) and its `source` (the text as written). A post's
 * versions come from the posts service, which keeps one at every edit; a comment has only the one it shows.
 */
const routes: FastifyPluginAsyncTypebox<MastodonOptions> = async (app, { services, publicUrl }) => {
  const tags = ['mastodon']

  /** The post a status id names, as the reader may see it, or a 404 as for any status. */
  async function postOf(key: StatusKey, readerId: string | undefined): Promise<Post> {
    const { post } = await recordOr404(services.posts.get(key.postId, readerId))
    if (post.createdAt !== key.at) throw recordNotFound()
    return post
  }

  async function commentOf(key: StatusKey, readerId: string | undefined) {
    const thread = await threadOf(services, key.postId, readerId)
    const comment = commentIn(thread, key)
    return { comment, status: await commentStatus(services, publicUrl, thread, comment, readerId) }
  }

  async function statusOf(key: StatusKey, readerId: string | undefined): Promise<Status> {
    if (key.commentId !== undefined) return (await commentOf(key, readerId)).status
    return statusOfPost(services, publicUrl, await postOf(key, readerId), readerId)
  }

  app.put(
    '/api/v1/statuses/:id',
    {
      config: { scope: 'write:statuses' },
      schema: {
        tags,
        description:
          "Edits one of the person's statuses: a post's text, content warning and images (`media_ids`, absent: as they are), or a comment's text. The post keeps the version it had.",
        params: IdParams,
        body: EditBodySchema,
        response: { 200: StatusSchema, ...ERROR_REPLIES },
      },
    },
    async (request) => {
      const userId = request.user._id
      const key = keyOf(request.params.id)
      const body = request.body
      if (key.commentId !== undefined) {
        const { comment } = await commentOf(key, userId)
        await recordOr404(services.comments.edit(userId, key.postId, comment._id, body.status ?? comment.text))
        return (await commentOf(key, userId)).status
      }
      const post = await postOf(key, userId)
      const ids = body.media_ids === undefined ? undefined : [body.media_ids].flat()
      // Images the post shows already are named by their uploads' ids; only new ones need a fresh upload's record.
      const context = await statusContextOf(services, publicUrl, [], userId)
      const shown = new Map(post.media.map((image) => [context.mediaIdOf(image.url), image]))
      const media =
        ids === undefined
          ? undefined
          : await Promise.all(
              ids.map(async (id) => {
                const kept = shown.get(id)
                if (kept) return { url: kept.url, ...(kept.alt ? { alt: kept.alt } : {}) }
                const [added] = (await services.mediaAttachments.forPost(userId, [id])).media ?? []
                if (!added) throw recordNotFound()
                return added
              }),
            )
      await recordOr404(
        services.posts.edit(userId, post._id, {
          content: body.status ?? post.content,
          ...(body.spoiler_text !== undefined ? { spoilerText: body.spoiler_text } : {}),
          ...(media === undefined ? {} : { media }),
        }),
      )
      return statusOf(key, userId)
    },
  )

  app.get(
    '/api/v1/statuses/:id/history',
    {
      onRequest: [app.identify],
      schema: {
        tags,
        description: "A status's versions, the first first and the current one last, to whoever may read it.",
        params: IdParams,
        response: { 200: Type.Array(StatusEditSchema), ...ERROR_REPLIES },
      },
    },
    async (request) => {
      const readerId = readerIdOf(request)
      const key = keyOf(request.params.id)
      const status = await statusOf(key, readerId)
      if (key.commentId !== undefined) {
        const { comment } = await commentOf(key, readerId)
        const edit = { content: comment.text, spoilerText: '', media: [], poll: null, editedAt: comment.updatedAt }
        return [editOf(edit, status, key.postId)]
      }
      const { versions } = await recordOr404(services.posts.history(key.postId, readerId))
      return versions.map((version) => editOf(version, status, key.postId))
    },
  )

  /** A version as Mastodon's StatusEdit, its images known by their uploads' ids as on the status. */
  const mediaIdOf = (url: string, at: number, postId: string) => {
    const key = services.media.keyOf(url)
    return key === undefined ? `${postId.replace(/-/g, '')}${at === 0 ? '' : at}` : attachmentIdOf(key)
  }
  function editOf(version: PostVersion, status: Status, postId: string) {
    return {
      content: contentHtml(version.content, publicUrl),
      spoiler_text: version.spoilerText,
      sensitive: version.spoilerText !== '',
      created_at: version.editedAt,
      account: status.account,
      poll: version.poll && { options: version.poll.options.map((title) => ({ title })) },
      media_attachments: version.media.map((image, i) =>
        imageAttachment(
          {
            id: mediaIdOf(image.url, i, postId),
            url: image.url,
            description: image.alt === '' ? null : image.alt,
            width: image.width,
            height: image.height,
          },
          publicUrl,
        ),
      ),
      emojis: [],
    }
  }

  app.get(
    '/api/v1/statuses/:id/source',
    {
      config: { scope: 'read:statuses' },
      schema: {
        tags,
        description: "A status's text and content warning as written, for an edit.",
        params: IdParams,
        response: { 200: StatusSourceSchema, ...ERROR_REPLIES },
      },
    },
    async (request) => {
      const userId = request.user._id
      const key = keyOf(request.params.id)
      if (key.commentId !== undefined) {
        const { comment } = await commentOf(key, userId)
        return { id: request.params.id, text: comment.text, spoiler_text: '' }
      }
      const post = await postOf(key, userId)
      return { id: request.params.id, text: post.content, spoiler_text: post.spoilerText ?? '' }
    },
  )
}

export default routes
