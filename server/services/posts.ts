import { randomUUID } from 'node:crypto'
import { MSG, badRequest, notFound } from '../errors.js'
import type { FeedQuery, PostData } from '../schemas/posts.js'
import { hasVisibleText } from '../schemas/text.js'
import type { PageRequest, PostRecord, StoreReader, UserRecord } from '../store/types.js'
import type { ServiceDeps } from './deps.js'
import { isValidMediaUrl } from './urls.js'
import { postViews, toPost, usersOfPosts } from './views.js'

export async function mustGetPost(store: StoreReader, id: string): Promise<PostRecord> {
  const post = await store.getPost(id)
  if (!post) throw notFound(MSG.postNotFound)
  return post
}

function checkContent(content: string, mediaUrl: string) {
  if (!isValidMediaUrl(mediaUrl)) throw badRequest(MSG.badMediaUrl)
  if (!hasVisibleText(content) && mediaUrl === '') throw badRequest(MSG.emptyPost)
}

const paged = (page: PageRequest) => page.limit !== undefined || page.cursor !== undefined

/**
 * The authors of a user's home feed, one array per user record: records are immutable, so the array
 * lives exactly as long as the following list it was made from, and the store can keep what it works
 * out from it (a set, each author's posts) across reads instead of redoing it on every one.
 */
const feedAuthors = new WeakMap<UserRecord, readonly string[]>()
function authorsOfFeed(me: UserRecord): readonly string[] {
  let ids = feedAuthors.get(me)
  if (!ids) feedAuthors.set(me, (ids = Object.freeze([me._id, ...me.following])))
  return ids
}

export function createPostsService({ store, events, now }: ServiceDeps) {
  async function view(post: PostRecord) {
    return toPost(post, await usersOfPosts(store, [post]))
  }

  /** Applies one change to one post, then tells every stream. */
  async function update(
    postId: string,
    change: (post: PostRecord, at: string) => PostRecord | Promise<PostRecord>,
    event: 'post.updated' | 'post.liked',
  ) {
    const next = await store.transaction(async (tx) => {
      const post = await mustGetPost(tx, postId)
      const changed = await change(post, now().toISOString())
      await tx.putPost(changed)
      return changed
    })
    const post = await view(next)
    events.publish({ name: event, data: { post } })
    return { post }
  }

  return {
    /** Every post, newest first: the `posts` of a write reply and of an unpaginated GET /posts. */
    async all() {
      const { items } = await store.listPosts({ sort: 'latest' })
      return postViews(store, items)
    },

    async list(page: PageRequest) {
      const { items, nextCursor } = await store.listPosts({ sort: 'latest', ...page })
      const posts = await postViews(store, items)
      return paged(page) ? { posts, nextCursor } : { posts }
    },

    async get(id: string) {
      return { post: await view(await mustGetPost(store, id)) }
    },

    async byUser(username: string, page: PageRequest) {
      const user = await store.getUserByUsername(username)
      if (!user) throw notFound(MSG.userNotFound)
      const { items, nextCursor } = await store.listPosts({ sort: 'latest', authorIds: [user._id], ...page })
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
      const content = data.content ?? ''
      const mediaUrl = data.mediaUrl ?? ''
      checkContent(content, mediaUrl)
      const at = now().toISOString()
      const record: PostRecord = {
        _id: randomUUID(),
        authorId: userId,
        content,
        mediaUrl,
        type: mediaUrl ? 'image' : '',
        createdAt: at,
        updatedAt: at,
        likedBy: [],
        dislikedBy: [],
        comments: [],
      }
      await store.transaction(async (tx) => {
        if (!(await tx.getUser(userId))) throw notFound(MSG.userNotRegistered)
        await tx.putPost(record)
      })
      const post = await view(record)
      events.publish({ name: 'post.created', data: { post } })
      return { post }
    },

    edit(userId: string, postId: string, data: PostData) {
      return update(
        postId,
        (post, at) => {
          if (post.authorId !== userId) throw badRequest(MSG.editPostNotOwner)
          const content = data.content ?? post.content
          const mediaUrl = data.mediaUrl ?? post.mediaUrl
          checkContent(content, mediaUrl)
          return { ...post, content, mediaUrl, type: mediaUrl ? 'image' : '', updatedAt: at }
        },
        'post.updated',
      )
    },

    /** Deletes the post and takes it out of every bookmark list. */
    async remove(userId: string, postId: string) {
      const id = await store.transaction(async (tx) => {
        const post = await mustGetPost(tx, postId)
        if (post.authorId !== userId) throw badRequest(MSG.deletePostNotOwner)
        await tx.deletePost(post._id)
        const { items: users } = await tx.listUsers({})
        for (const user of users) {
          if (user.bookmarks.includes(post._id)) {
            await tx.putUser({ ...user, bookmarks: user.bookmarks.filter((other) => other !== post._id) })
          }
        }
        return post._id
      })
      events.publish({ name: 'post.deleted', data: { postId: id } })
      return {}
    },

    like(userId: string, postId: string) {
      return update(
        postId,
        (post, at) => {
          if (post.likedBy.includes(userId)) throw badRequest(MSG.alreadyLiked)
          return {
            ...post,
            likedBy: [...post.likedBy, userId],
            dislikedBy: post.dislikedBy.filter((id) => id !== userId),
            updatedAt: at,
          }
        },
        'post.liked',
      )
    },

    /** "Dislike" is unlike: it takes back a like (DECISIONS §1). */
    dislike(userId: string, postId: string) {
      return update(
        postId,
        (post, at) => {
          if (post.likedBy.length === 0) throw badRequest(MSG.likeBelowZero)
          if (!post.likedBy.includes(userId)) throw badRequest(MSG.alreadyDisliked)
          return {
            ...post,
            likedBy: post.likedBy.filter((id) => id !== userId),
            dislikedBy: [...post.dislikedBy.filter((id) => id !== userId), userId],
            updatedAt: at,
          }
        },
        'post.liked',
      )
    },
  }
}

export type PostsService = ReturnType<typeof createPostsService>
