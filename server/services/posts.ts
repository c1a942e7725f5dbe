import { randomUUID } from 'node:crypto'
import { MSG, badRequest, notFound } from '../errors.js'
import type { FeedQuery, PostData } from '../schemas/posts.js'
import { hasVisibleText } from '../schemas/text.js'
import type { PageRequest, PostChanges, PostRecord, StoreReader, UserRecord } from '../store/types.js'
import type { ServiceDeps } from './deps.js'
import { notify, retract, syncMentions } from './notifier.js'
import { editedValue } from './aliases.js'
import { BoundedCache } from './bounded-cache.js'
import { isValidMediaUrl } from './urls.js'
import { postViews, summaryOf, toPost, usersOfPosts } from './views.js'

async function mustGetPost(store: StoreReader, id: string): Promise<PostRecord> {
  const post = await store.getPost(id)
  if (!post) throw notFound(MSG.postNotFound)
  return post
}

/** The pixel size of an image this server stored; undefined for any other URL. */
export type MediaSizes = (url: string) => Promise<{ width: number; height: number } | undefined>

/**
 * A post's text and image fields as they will be stored, or the refusal that says what is wrong. Every
 * image field is named, absent ones as undefined, so an edit that changes the image clears what it had.
 */
async function checkMedia(
  content: string,
  mediaUrl: string,
  mediaAlt: string | undefined,
  sizeOf: MediaSizes,
): Promise<PostChanges> {
  if (!isValidMediaUrl(mediaUrl)) throw badRequest(MSG.badMediaUrl)
  if (!hasVisibleText(content) && mediaUrl === '') throw badRequest(MSG.emptyPost)
  if (mediaUrl === '' && mediaAlt) throw badRequest(MSG.altWithoutMedia)
  const size = mediaUrl ? await sizeOf(mediaUrl) : undefined
  return {
    content,
    mediaUrl,
    type: mediaUrl ? 'image' : '',
    mediaAlt: mediaUrl && mediaAlt ? mediaAlt : undefined,
    mediaWidth: size?.width,
    mediaHeight: size?.height,
  }
}

const paged = (page: PageRequest) => page.limit !== undefined || page.cursor !== undefined

/** A list asked for without a limit still ends somewhere: no request reads a whole table. */
export const MAX_UNPAGED = 1000
export const unpagedCap = (page: PageRequest): PageRequest => (paged(page) ? page : { limit: MAX_UNPAGED })

/**
 * The authors of each user's home feed, by user id, with the following list they were made from. While
 * that list is unchanged (the same array, as the embedded store hands out, or the same ids in the same
 * order, as PostgreSQL's new records hold), the same frozen array is handed out read after read, so the
 * store can keep what it works out from it (a set, each author's posts) instead of redoing it on every one.
 */
const MAX_KEPT_FEEDS = 10_000
const feedAuthors = new BoundedCache<string, { following: readonly string[]; authorIds: readonly string[] }>(
  MAX_KEPT_FEEDS,
)
const sameIds = (a: readonly string[], b: readonly string[]) =>
  a === b || (a.length === b.length && a.every((id, i) => id === b[i]))

function authorsOfFeed(me: UserRecord): readonly string[] {
  const kept = feedAuthors.get(me._id)
  if (kept && sameIds(kept.following, me.following)) return kept.authorIds
  const authorIds = Object.freeze([me._id, ...me.following])
  feedAuthors.set(me._id, { following: me.following, authorIds })
  return authorIds
}

/** Without a media folder (a store tested alone), no image's size is known. */
const noSizes: MediaSizes = async () => undefined

export function createPostsService({ store, now, sizeOf = noSizes }: ServiceDeps & { sizeOf?: MediaSizes }) {
  async function view(post: PostRecord) {
    return toPost(post, await usersOfPosts(store, [post]))
  }

  /** A post write's reply: the post as it now is. */
  async function reply(postId: string) {
    return { post: await view(await mustGetPost(store, postId)) }
  }

  /** A like (true) or an unlike: one reaction changed on a locked post, and the delta told to every stream. */
  async function react(userId: string, postId: string, liked: boolean) {
    await store.transaction(async (tx) => {
      const post = await tx.lockPost(postId)
      if (!post) throw notFound(MSG.postNotFound)
      if (liked && post.likedBy.includes(userId)) throw badRequest(MSG.alreadyLiked)
      if (!liked && post.likedBy.length === 0) throw badRequest(MSG.likeBelowZero)
      if (!liked && !post.likedBy.includes(userId)) throw badRequest(MSG.alreadyDisliked)
      const me = await tx.getUser(userId)
      if (!me) throw notFound(MSG.userNotRegistered)
      const at = now().toISOString()
      await tx.setReaction(post._id, userId, liked, at)
      const likeCount = post.likedBy.length + (liked ? 1 : -1)
      tx.emit({ name: 'post.liked', data: { postId: post._id, user: summaryOf(me), liked, likeCount, updatedAt: at } })
      if (liked) await notify(tx, me, post.authorId, 'like', { post }, at)
      else
        await retract(tx, { identity: { type: 'like', recipientId: post.authorId, actorId: userId, postId: post._id } })
    })
    return reply(postId)
  }

  return {
    /** The newest posts, at most a page of MAX_UNPAGED: the `posts` of a write reply and of an unpaginated GET /posts. */
    async all() {
      const { items } = await store.listPosts({ sort: 'latest', limit: MAX_UNPAGED })
      return postViews(store, items)
    },

    async list(page: PageRequest) {
      const { items, nextCursor } = await store.listPosts({ sort: 'latest', ...unpagedCap(page) })
      const posts = await postViews(store, items)
      return paged(page) ? { posts, nextCursor } : { posts }
    },

    async get(id: string) {
      return { post: await view(await mustGetPost(store, id)) }
    },

    async byUser(username: string, page: PageRequest) {
      const user = await store.getUserByUsername(username)
      if (!user) throw notFound(MSG.userNotFound)
      const { items, nextCursor } = await store.listPosts({
        sort: 'latest',
        authorIds: [user._id],
        ...unpagedCap(page),
      })
      const posts = await postViews(store, items)
      return paged(page) ? { posts, nextCursor } : { posts }
    },

    /** The home timeline: my posts and those of everyone I follow. */
    async feed(userId: string, query: FeedQuery) {
      const me = await store.getUser(userId)
      if (!me) throw notFound(MSG.userNotRegistered)
      const { sort = 'latest', ...page } = query
      const { items, nextCursor } = await store.listPosts({ sort, authorIds: authorsOfFeed(me), ...page })
      return { posts: await postViews(store, items), nextCursor }
    },

    async create(userId: string, data: PostData) {
      const { mediaAlt, mediaWidth, mediaHeight, ...media } = await checkMedia(
        data.content ?? '',
        data.mediaUrl ?? '',
        data.mediaAlt,
        sizeOf,
      )
      const at = now().toISOString()
      const record: PostRecord = {
        _id: randomUUID(),
        authorId: userId,
        ...media,
        ...(mediaAlt !== undefined ? { mediaAlt } : {}),
        ...(mediaWidth !== undefined && mediaHeight !== undefined ? { mediaWidth, mediaHeight } : {}),
        createdAt: at,
        updatedAt: at,
        likedBy: [],
        dislikedBy: [],
        comments: [],
      }
      await store.transaction(async (tx) => {
        const me = await tx.getUser(userId)
        if (!me) throw notFound(MSG.userNotRegistered)
        await tx.insertPost(record)
        tx.emit({ name: 'post.created', data: { post: toPost(record, await usersOfPosts(tx, [record])) } })
        await syncMentions(tx, me, { before: '', after: record.content }, { post: record }, at)
      })
      return reply(record._id)
    },

    async edit(userId: string, postId: string, data: PostData) {
      await store.transaction(async (tx) => {
        const post = await tx.lockPost(postId)
        if (!post) throw notFound(MSG.postNotFound)
        if (post.authorId !== userId) throw badRequest(MSG.editPostNotOwner)
        const mediaUrl = editedValue(data.mediaUrl, data.image ?? data.imageUrl, post.mediaUrl) ?? post.mediaUrl
        // A new image starts without the old one's description unless one is sent with it.
        const keptAlt = mediaUrl === post.mediaUrl ? post.mediaAlt : undefined
        const changes = await checkMedia(data.content ?? post.content, mediaUrl, data.mediaAlt ?? keptAlt, sizeOf)
        const at = now().toISOString()
        await tx.updatePost(post._id, changes, at)
        const { mediaAlt, mediaWidth, mediaHeight, ...text } = changes
        tx.emit({
          name: 'post.updated',
          data: {
            postId: post._id,
            ...text,
            ...(mediaAlt !== undefined ? { mediaAlt } : {}),
            ...(mediaWidth !== undefined && mediaHeight !== undefined ? { mediaWidth, mediaHeight } : {}),
            updatedAt: at,
          },
        })
        const me = await tx.getUser(userId)
        const texts = { before: post.content, after: changes.content }
        if (me)
          await syncMentions(
            tx,
            me,
            texts,
            { post: { _id: post._id, content: changes.content, mediaUrl: changes.mediaUrl } },
            at,
          )
      })
      return reply(postId)
    },

    /** Deletes the post, which also takes it out of every bookmark list. */
    async remove(userId: string, postId: string) {
      await store.transaction(async (tx) => {
        const post = await tx.lockPost(postId)
        if (!post) throw notFound(MSG.postNotFound)
        if (post.authorId !== userId) throw badRequest(MSG.deletePostNotOwner)
        // Before the post goes: PostgreSQL would cascade its notifications away unseen, and recipients must hear their counts.
        await retract(tx, { postId: post._id })
        await tx.deletePost(post._id)
        tx.emit({ name: 'post.deleted', data: { postId: post._id } })
      })
      return {}
    },

    like: (userId: string, postId: string) => react(userId, postId, true),
    /** "Dislike" is unlike: it takes back a like. */
    dislike: (userId: string, postId: string) => react(userId, postId, false),
  }
}

export type PostsService = ReturnType<typeof createPostsService>
