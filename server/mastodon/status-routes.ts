import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import type { Visibility } from '../../common/audience.js'
import { unprocessableEntity } from '../errors.js'
import type { Post } from '../schemas/posts.js'
import { statusKeyOf, type StatusKey } from '../services/status-ids.js'
import { ERROR_REPLIES, recordNotFound } from './errors.js'
import type { MastodonOptions } from './options.js'
import { readerIdOf, recordOr404, statusOfPost } from './status-page.js'
import { ContextSchema, StatusSchema, type Status } from './status-schemas.js'
import { ScheduledStatusSchema, scheduledStatusOf } from './scheduled-status.js'
import { ancestorsIn, commentIn, commentStatus, commentStatusesOf, subtreeIn, threadOf } from './thread-page.js'

const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) })
const OneStatus = { 200: StatusSchema, ...ERROR_REPLIES }
/** A status written, or with `scheduled_at` the ScheduledStatus kept. */
const WrittenOrScheduled = { 200: Type.Union([StatusSchema, ScheduledStatusSchema]), ...ERROR_REPLIES }

/** Mastodon's audiences by Chirp's names: `private` is Chirp's `followers`. */
const CHIRP_VISIBILITY: Record<string, Visibility> = {
  public: 'public',
  unlisted: 'unlisted',
  private: 'followers',
  direct: 'direct',
}

const StatusIdSchema = Type.String({ maxLength: 100 })

const PostBodySchema = Type.Object({
  status: Type.Optional(Type.String()),
  spoiler_text: Type.Optional(Type.String()),
  visibility: Type.Optional(Type.Union(Object.keys(CHIRP_VISIBILITY).map((name) => Type.Literal(name)))),
  quoted_status_id: Type.Optional(StatusIdSchema),
  in_reply_to_id: Type.Optional(StatusIdSchema),
  /** `media_ids[]` as a form or JSON; a form's one `media_ids` arrives as text. */
  media_ids: Type.Optional(Type.Union([Type.Array(StatusIdSchema, { maxItems: 20 }), StatusIdSchema])),
  /** As JSON. */
  poll: Type.Optional(
    Type.Object({
      options: Type.Array(Type.String()),
      expires_in: Type.Union([Type.Integer({ minimum: 1 }), Type.String({ pattern: '^[0-9]+$' })]),
    }),
  ),
  /** As a form, which arrives flat. */
  'poll[options]': Type.Optional(Type.Union([Type.String(), Type.Array(Type.String())])),
  'poll[expires_in]': Type.Optional(Type.String({ pattern: '^[0-9]+$' })),
  /** When to publish it: then the answer is a ScheduledStatus, and nothing is published yet. */
  scheduled_at: Type.Optional(Type.String({ maxLength: 100 })),
})

const PostHeadersSchema = Type.Object({ 'idempotency-key': Type.Optional(Type.String({ maxLength: 1000 })) })

/** A comment holds its text alone: what a reply may not carry, and the marks a comment has none of. */
export const replyMessages = {
  textOnly:
    'Validation failed: a reply is a comment, which holds text alone (no media, poll, content warning or quote)',
  cannot: (what: string) => `Validation failed: a comment cannot be ${what}`,
  unvote: 'Validation failed: an upvote of a comment cannot be taken back',
  audience: 'Validation failed: a reply is seen by those who see what it answers; it cannot be narrower',
  scheduled: 'Validation failed: a reply is a comment, which is written at once; it cannot be scheduled',
}

/** The post a status id names (a reblog's id names the post it reblogs); no comment's. */
function postIdOf(id: string): string {
  const key = statusKeyOf(id)
  if (!key || key.commentId !== undefined) throw recordNotFound()
  return key.postId
}

/** The entry a status id names, or a 404. */
function keyOf(id: string): StatusKey {
  const key = statusKeyOf(id)
  if (!key) throw recordNotFound()
  return key
}

const DAY_SECONDS = 86_400

/** A poll's length in Chirp's whole days: Mastodon's seconds, rounded up. */
const daysOf = (seconds: number | string) => Math.max(1, Math.ceil(Number(seconds) / DAY_SECONDS))

/**
 * Statuses: written, read, deleted, and the reader's marks on them, through the posts, comments, media
 * and users services. A comment is a status that answers its post or the comment it replies to.
 */
const routes: FastifyPluginAsyncTypebox<MastodonOptions> = async (app, { services, publicUrl }) => {
  const asStatus = (post: Post, readerId: string | undefined) => statusOfPost(services, publicUrl, post, readerId)

  /** A comment's status and its thread, as the reader may see them. */
  async function commentOf(key: StatusKey, readerId: string | undefined) {
    const thread = await threadOf(services, key.postId, readerId)
    const comment = commentIn(thread, key)
    return { thread, comment, status: await commentStatus(services, publicUrl, thread, comment, readerId) }
  }

  /** The status an id names, as the reader may see it; a reblog's id names no status of its own here. */
  async function statusById(id: string, readerId: string | undefined): Promise<Status> {
    const key = keyOf(id)
    if (key.by !== undefined) throw recordNotFound()
    if (key.commentId !== undefined) return (await commentOf(key, readerId)).status
    const { post } = await recordOr404(services.posts.get(key.postId, readerId))
    // Only the id the post's own status has names it: another time is no status of it.
    if (post.createdAt !== key.at) throw recordNotFound()
    return asStatus(post, readerId)
  }

  app.get(
    '/api/v1/statuses/:id',
    {
      onRequest: [app.identify],
      schema: {
        tags: ['mastodon'],
        description:
          'A status (a post or a comment), as its audience lets the reader read it; a reblog is read through the status it reblogs.',
        params: IdParams,
        response: OneStatus,
      },
    },
    async (request) => statusById(request.params.id, readerIdOf(request)),
  )

  app.get(
    '/api/v1/statuses/:id/context',
    {
      onRequest: [app.identify],
      schema: {
        tags: ['mastodon'],
        description:
          "A status's thread: for a post, its comments as descendants; for a comment, its post and the chain of comments it answers as ancestors, root first, and every reply under it as descendants. Descendants come in thread order: each reply follows the status it answers, depth first, oldest first among siblings.",
        params: IdParams,
        response: { 200: ContextSchema, ...ERROR_REPLIES },
      },
    },
    async (request) => {
      const readerId = readerIdOf(request)
      const key = keyOf(request.params.id)
      if (key.by !== undefined) throw recordNotFound()
      if (key.commentId === undefined) {
        // The post's own id alone names it, as for the status itself.
        await statusById(request.params.id, readerId)
        const thread = await threadOf(services, key.postId, readerId)
        return {
          ancestors: [],
          descendants: await commentStatusesOf(services, publicUrl, thread, subtreeIn(thread), readerId),
        }
      }
      const { thread, comment } = await commentOf(key, readerId)
      return {
        ancestors: [
          await asStatus(thread.post, readerId),
          ...(await commentStatusesOf(services, publicUrl, thread, ancestorsIn(thread, comment), readerId)),
        ],
        descendants: await commentStatusesOf(services, publicUrl, thread, subtreeIn(thread, comment), readerId),
      }
    },
  )

  app.post(
    '/api/v1/statuses',
    {
      config: { scope: 'write:statuses' },
      schema: {
        tags: ['mastodon'],
        description:
          'Writes a post (its text, content warning, audience, quote, poll and up to 4 images by `media_ids`, each with its description), or with `in_reply_to_id` a comment answering that status. ' +
          'With `scheduled_at` (at least 5 minutes ahead) the post is kept and published then, and the answer is a ScheduledStatus. ' +
          'With an `Idempotency-Key`, the same key from the same person within an hour answers the status the first request made and writes nothing more.',
        headers: PostHeadersSchema,
        body: PostBodySchema,
        response: WrittenOrScheduled,
      },
    },
    async (request) => {
      const body = request.body
      const userId = request.user._id
      const mediaIds = body.media_ids === undefined ? [] : [body.media_ids].flat()

      const reply = async (inReplyTo: string): Promise<Status> => {
        const key = keyOf(inReplyTo)
        if (key.by !== undefined) throw recordNotFound()
        if (key.commentId === undefined) {
          // A direct message is answered by another in its conversation, as Mastodon's apps expect.
          const { post: answered } = await recordOr404(services.posts.get(key.postId, userId))
          if (answered.visibility === 'direct') return post('direct')
        }
        const hasPoll = body.poll !== undefined || body['poll[options]'] !== undefined
        if (mediaIds.length > 0 || hasPoll || body.spoiler_text || body.quoted_status_id !== undefined) {
          throw unprocessableEntity(replyMessages.textOnly)
        }
        // A comment has its post's audience: asking for a narrower one is not quietly made wider.
        const asked = body.visibility === undefined ? undefined : CHIRP_VISIBILITY[body.visibility]
        if (asked === 'followers' || asked === 'direct') {
          const { post: answered } = await recordOr404(services.posts.get(key.postId, userId))
          if (answered.visibility !== asked) throw unprocessableEntity(replyMessages.audience)
        }
        const { comment } = await recordOr404(
          services.comments.add(userId, key.postId, body.status ?? '', key.commentId ?? null),
        )
        const thread = await threadOf(services, key.postId, userId)
        return commentStatus(services, publicUrl, thread, comment, userId)
      }

      /** The post the body asks for, in Chirp's fields. */
      const postData = async (audience?: Visibility) => {
        const formOptions = body['poll[options]']
        const options = body.poll?.options ?? (formOptions === undefined ? undefined : [formOptions].flat())
        const expiresIn = body.poll?.expires_in ?? body['poll[expires_in]']
        const visibility = audience ?? (body.visibility === undefined ? undefined : CHIRP_VISIBILITY[body.visibility])
        const media = await services.mediaAttachments.forPost(userId, mediaIds)
        const quoteOf = body.quoted_status_id === undefined ? undefined : postIdOf(body.quoted_status_id)
        return {
          content: body.status ?? '',
          ...media,
          ...(body.spoiler_text ? { spoilerText: body.spoiler_text } : {}),
          ...(visibility ? { visibility } : {}),
          ...(quoteOf === undefined ? {} : { quoteOf }),
          ...(options === undefined ? {} : { poll: { options, days: daysOf(expiresIn ?? DAY_SECONDS) } }),
        }
      }

      const post = async (audience?: Visibility): Promise<Status> => {
        const { post: written } = await services.posts.create(userId, await postData(audience))
        return asStatus(written, userId)
      }

      if (body.scheduled_at !== undefined) {
        if (body.in_reply_to_id) throw unprocessableEntity(replyMessages.scheduled)
        const { scheduledPost } = await services.scheduledPosts.schedule(userId, {
          ...(await postData()),
          scheduledAt: body.scheduled_at,
        })
        return scheduledStatusOf(services, publicUrl, scheduledPost)
      }
      const write = () => (body.in_reply_to_id ? reply(body.in_reply_to_id) : post())
      const idempotencyKey = request.headers['idempotency-key']
      if (idempotencyKey === undefined) return write()
      const made: { status?: Status } = {}
      const { id } = await services.idempotency.once(userId, idempotencyKey, async () => {
        made.status = await write()
        return made.status.id
      })
      return made.status ?? statusById(id, userId)
    },
  )

  app.delete(
    '/api/v1/statuses/:id',
    {
      config: { scope: 'write:statuses' },
      schema: {
        tags: ['mastodon'],
        description:
          'Deletes one of the person\'s posts or comments (or a comment on their post), answering it as it was, with its text, to "delete and redraft".',
        params: IdParams,
        response: OneStatus,
      },
    },
    async (request) => {
      const userId = request.user._id
      const key = keyOf(request.params.id)
      if (key.commentId !== undefined) {
        const { comment, status } = await commentOf(key, userId)
        await services.comments.remove(userId, key.postId, comment._id)
        return { ...status, text: comment.text }
      }
      const { post } = await recordOr404(services.posts.get(postIdOf(request.params.id), userId))
      const status = await asStatus(post, userId)
      await services.posts.remove(userId, post._id)
      return { ...status, text: post.content }
    },
  )

  /**
   * A mark and its undoing, answered as the status with the mark as it now is; as Mastodon does, setting a
   * mark already set (or clearing one already clear) changes nothing and is no error. On a comment, a
   * favourite is an upvote, which cannot be taken back; a comment has no other mark.
   */
  const marks = [
    {
      set: 'favourite',
      clear: 'unfavourite',
      field: 'favourited',
      scope: 'write:favourites',
      on: services.posts.like,
      off: services.posts.dislike,
      comment: 'favourited',
    },
    {
      set: 'reblog',
      clear: 'unreblog',
      field: 'reblogged',
      scope: 'write:statuses',
      on: services.posts.repost,
      off: services.posts.unrepost,
      comment: 'reblogged',
    },
    {
      set: 'bookmark',
      clear: 'unbookmark',
      field: 'bookmarked',
      scope: 'write:bookmarks',
      on: services.users.addBookmark,
      off: services.users.removeBookmark,
      comment: 'bookmarked',
    },
    {
      set: 'pin',
      clear: 'unpin',
      field: 'pinned',
      scope: 'write:accounts',
      on: services.posts.pin,
      off: services.posts.unpin,
      comment: 'pinned',
    },
  ] as const

  /** A mark on a comment: an upvote for a favourite; nothing else is there to set or take back. */
  async function markComment(key: StatusKey, userId: string, mark: (typeof marks)[number], wanted: boolean) {
    const before = await commentOf(key, userId)
    if ((before.status[mark.field] ?? false) === wanted) return before.status
    if (mark.set !== 'favourite') throw unprocessableEntity(replyMessages.cannot(mark.comment))
    if (!wanted) throw unprocessableEntity(replyMessages.unvote)
    await recordOr404(services.comments.upvote(userId, key.postId, before.comment._id))
    return (await commentOf(key, userId)).status
  }

  for (const mark of marks) {
    for (const wanted of [true, false]) {
      app.post(
        `/api/v1/statuses/:id/${wanted ? mark.set : mark.clear}`,
        {
          config: { scope: mark.scope },
          schema: {
            tags: ['mastodon'],
            description: `${wanted ? 'Sets' : 'Clears'} the person's ${mark.field} mark on a status; the status answers as it then is.`,
            params: IdParams,
            response: OneStatus,
          },
        },
        async (request) => {
          const userId = request.user._id
          const key = keyOf(request.params.id)
          if (key.commentId !== undefined) return markComment(key, userId, mark, wanted)
          const postId = postIdOf(request.params.id)
          const before = await asStatus((await recordOr404(services.posts.get(postId, userId))).post, userId)
          if (before[mark.field] !== wanted) await (wanted ? mark.on : mark.off)(userId, postId)
          return asStatus((await services.posts.get(postId, userId)).post, userId)
        },
      )
    }
  }
}

export default routes
