import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import type { Visibility } from '../../common/audience.js'
import type { Post } from '../schemas/posts.js'
import { statusKeyOf } from '../services/status-ids.js'
import { ERROR_REPLIES, recordNotFound } from './errors.js'
import type { MastodonOptions } from './options.js'
import { readerIdOf, statusOfPost } from './status-page.js'
import { StatusSchema } from './status-schemas.js'

const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) })
const OneStatus = { 200: StatusSchema, ...ERROR_REPLIES }

/** Mastodon's audiences by Chirp's names: `private` is Chirp's `followers`. */
const CHIRP_VISIBILITY: Record<string, Visibility> = {
  public: 'public',
  unlisted: 'unlisted',
  private: 'followers',
  direct: 'direct',
}

const PostBodySchema = Type.Object({
  status: Type.Optional(Type.String()),
  spoiler_text: Type.Optional(Type.String()),
  visibility: Type.Optional(Type.Union(Object.keys(CHIRP_VISIBILITY).map((name) => Type.Literal(name)))),
  quoted_status_id: Type.Optional(Type.String({ maxLength: 100 })),
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
})

/** The post a status id names; a reblog's id names the post it reblogs. */
function postIdOf(id: string): string {
  const key = statusKeyOf(id)
  if (!key) throw recordNotFound()
  return key.postId
}

const DAY_SECONDS = 86_400

/** A poll's length in Chirp's whole days: Mastodon's seconds, rounded up. */
const daysOf = (seconds: number | string) => Math.max(1, Math.ceil(Number(seconds) / DAY_SECONDS))

/** Statuses: written, read, deleted, and the reader's marks on them, through the posts and users services. */
const routes: FastifyPluginAsyncTypebox<MastodonOptions> = async (app, { services, publicUrl }) => {
  const asStatus = (post: Post, readerId: string | undefined) => statusOfPost(services, publicUrl, post, readerId)

  app.get(
    '/api/v1/statuses/:id',
    {
      onRequest: [app.identify],
      schema: {
        tags: ['mastodon'],
        description:
          'A status, as its audience lets the reader read it; a reblog is read through the status it reblogs.',
        params: IdParams,
        response: OneStatus,
      },
    },
    async (request) => {
      const key = statusKeyOf(request.params.id)
      if (!key || key.by !== undefined) throw recordNotFound()
      const readerId = readerIdOf(request)
      const { post } = await services.posts.get(key.postId, readerId)
      // Only the id the post's own status has names it: another time is no status of it.
      if (post.createdAt !== key.at) throw recordNotFound()
      return asStatus(post, readerId)
    },
  )

  app.post(
    '/api/v1/statuses',
    {
      config: { scope: 'write:statuses' },
      schema: {
        tags: ['mastodon'],
        description: 'Writes a post: its text, content warning, audience, quote and poll.',
        body: PostBodySchema,
        response: OneStatus,
      },
    },
    async (request) => {
      const body = request.body
      const userId = request.user._id
      const formOptions = body['poll[options]']
      const options = body.poll?.options ?? (formOptions === undefined ? undefined : [formOptions].flat())
      const expiresIn = body.poll?.expires_in ?? body['poll[expires_in]']
      const visibility = body.visibility === undefined ? undefined : CHIRP_VISIBILITY[body.visibility]
      const { post } = await services.posts.create(userId, {
        content: body.status ?? '',
        ...(body.spoiler_text ? { spoilerText: body.spoiler_text } : {}),
        ...(visibility ? { visibility } : {}),
        ...(body.quoted_status_id === undefined ? {} : { quoteOf: postIdOf(body.quoted_status_id) }),
        ...(options === undefined ? {} : { poll: { options, days: daysOf(expiresIn ?? DAY_SECONDS) } }),
      })
      return asStatus(post, userId)
    },
  )

  app.delete(
    '/api/v1/statuses/:id',
    {
      config: { scope: 'write:statuses' },
      schema: {
        tags: ['mastodon'],
        description:
          'Deletes one of the person\'s posts, answering it as it was, with its text, to "delete and redraft".',
        params: IdParams,
        response: OneStatus,
      },
    },
    async (request) => {
      const userId = request.user._id
      const { post } = await services.posts.get(postIdOf(request.params.id), userId)
      const status = await asStatus(post, userId)
      await services.posts.remove(userId, post._id)
      return { ...status, text: post.content }
    },
  )

  /**
   * A mark and its undoing, answered as the status with the mark as it now is; as Mastodon does, setting a
   * mark already set (or clearing one already clear) changes nothing and is no error.
   */
  const marks = [
    {
      set: 'favourite',
      clear: 'unfavourite',
      field: 'favourited',
      scope: 'write:favourites',
      on: services.posts.like,
      off: services.posts.dislike,
    },
    {
      set: 'reblog',
      clear: 'unreblog',
      field: 'reblogged',
      scope: 'write:statuses',
      on: services.posts.repost,
      off: services.posts.unrepost,
    },
    {
      set: 'bookmark',
      clear: 'unbookmark',
      field: 'bookmarked',
      scope: 'write:bookmarks',
      on: services.users.addBookmark,
      off: services.users.removeBookmark,
    },
    {
      set: 'pin',
      clear: 'unpin',
      field: 'pinned',
      scope: 'write:accounts',
      on: services.posts.pin,
      off: services.posts.unpin,
    },
  ] as const
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
          const postId = postIdOf(request.params.id)
          const before = await asStatus((await services.posts.get(postId, userId)).post, userId)
          if (before[mark.field] !== wanted) await (wanted ? mark.on : mark.off)(userId, postId)
          return asStatus((await services.posts.get(postId, userId)).post, userId)
        },
      )
    }
  }
}

export default routes
