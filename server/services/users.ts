import { AppError, MSG, badRequest, notFound } from '../errors.js'
import type { PageRequest, StoreReader, UserRecord } from '../store/types.js'
import { pageByOffset } from '../store/cursor.js'
import type { UserEdit } from '../schemas/users.js'
import type { ServiceDeps } from './deps.js'
import { isValidAvatarUrl, isValidWebsite } from './urls.js'
import { postViews, toUser, userView, usersOfUsers } from './views.js'

async function mustGetUser(tx: StoreReader, id: string): Promise<UserRecord> {
  const user = await tx.getUser(id)
  if (!user) throw notFound(MSG.userNotFound)
  return user
}

const without = (ids: readonly string[], id: string) => ids.filter((other) => other !== id)

export function createUsersService({ store, events, now }: ServiceDeps) {
  /** Both sides of a follow change, as the caller and everyone else see them. */
  async function followViews(me: UserRecord, other: UserRecord) {
    const users = await usersOfUsers(store, [me, other])
    return {
      reply: { user: toUser(me, users, true), followUser: toUser(other, users, false) },
      event: { user: toUser(me, users, false), followUser: toUser(other, users, false) },
    }
  }

  async function changeFollow(meId: string, targetId: string, follow: boolean) {
    const [me, other] = await store.transaction(async (tx) => {
      const me = await mustGetUser(tx, meId)
      const other = await mustGetUser(tx, targetId)
      if (me._id === other._id) throw notFound(MSG.selfFollow)
      const following = me.following.includes(other._id)
      if (follow && following) throw badRequest(MSG.alreadyFollowing)
      if (!follow && !following) throw badRequest(MSG.notFollowing)
      const at = now().toISOString()
      const nextMe: UserRecord = {
        ...me,
        following: follow ? [...me.following, other._id] : without(me.following, other._id),
        updatedAt: at,
      }
      const nextOther: UserRecord = {
        ...other,
        followers: follow ? [...other.followers, me._id] : without(other.followers, me._id),
        updatedAt: at,
      }
      await tx.putUser(nextMe)
      await tx.putUser(nextOther)
      return [nextMe, nextOther] as const
    })
    const views = await followViews(me, other)
    events.publish({ name: follow ? 'user.followed' : 'user.unfollowed', data: views.event })
    return views.reply
  }

  async function changeBookmark(userId: string, postId: string, add: boolean) {
    const [user, markedId] = await store.transaction(async (tx) => {
      const user = await mustGetUser(tx, userId)
      const post = await tx.getPost(postId)
      if (!post) throw notFound(MSG.postNotFound)
      const marked = user.bookmarks.includes(post._id)
      if (add && marked) throw badRequest(MSG.alreadyBookmarked)
      if (!add && !marked) throw badRequest(MSG.notBookmarked)
      const next: UserRecord = {
        ...user,
        bookmarks: add ? [...user.bookmarks, post._id] : without(user.bookmarks, post._id),
        updatedAt: now().toISOString(),
      }
      await tx.putUser(next)
      return [next, post._id] as const
    })
    events.publish({
      name: add ? 'bookmark.added' : 'bookmark.removed',
      data: { postId: markedId, bookmarks: [...user.bookmarks] },
      to: user._id,
    })
    return bookmarksOf(user, {})
  }

  /** Newest bookmark first, as full current posts. */
  async function bookmarksOf(user: UserRecord, page: PageRequest) {
    const ids = [...user.bookmarks].reverse()
    const { items, nextCursor } = pageByOffset(ids, page)
    const bookmarks = await postViews(store, await store.getPosts(items))
    return page.limit === undefined && page.cursor === undefined ? { bookmarks } : { bookmarks, nextCursor }
  }

  return {
    async list(viewerId: string | undefined, page: PageRequest) {
      const { items, nextCursor } = await store.listUsers(page)
      const lookup = await usersOfUsers(store, items)
      const users = items.map((user) => toUser(user, lookup, user._id === viewerId))
      return page.limit === undefined && page.cursor === undefined ? { users } : { users, nextCursor }
    },

    async get(username: string, viewerId: string | undefined) {
      const user = await store.getUserByUsername(username)
      if (!user) throw notFound(MSG.userNotFound)
      return { user: await userView(store, user, user._id === viewerId) }
    },

    async edit(userId: string, edit: UserEdit) {
      if (edit.website !== undefined && !isValidWebsite(edit.website)) throw badRequest(MSG.badWebsite)
      if (edit.avatarURL !== undefined && !isValidAvatarUrl(edit.avatarURL)) throw badRequest(MSG.badAvatarUrl)
      const { username, ...changes } = edit
      const user = await store.transaction(async (tx) => {
        const user = await mustGetUser(tx, userId)
        if (username !== undefined && username !== user.username) throw new AppError(404, MSG.usernameChange)
        const next: UserRecord = { ...user, ...changes, updatedAt: now().toISOString() }
        await tx.putUser(next)
        return next
      })
      const lookup = await usersOfUsers(store, [user])
      events.publish({ name: 'user.updated', data: { user: toUser(user, lookup, false) } })
      return { user: toUser(user, lookup, true) }
    },

    follow: (meId: string, targetId: string) => changeFollow(meId, targetId, true),
    unfollow: (meId: string, targetId: string) => changeFollow(meId, targetId, false),

    /** Who to follow: not me, not followed yet; the most followed first. */
    async suggestions(userId: string, limit: number) {
      const me = await mustGetUser(store, userId)
      const { items } = await store.listUsers({})
      const candidates = items
        .filter((user) => user._id !== me._id && !me.following.includes(user._id))
        .sort((a, b) => b.followers.length - a.followers.length)
        .slice(0, limit)
      const lookup = await usersOfUsers(store, candidates)
      return { users: candidates.map((user) => toUser(user, lookup, false)) }
    },

    async bookmarks(userId: string, page: PageRequest) {
      const user = await store.getUser(userId)
      if (!user) throw notFound(MSG.userNotFound)
      return bookmarksOf(user, page)
    },
    addBookmark: (userId: string, postId: string) => changeBookmark(userId, postId, true),
    removeBookmark: (userId: string, postId: string) => changeBookmark(userId, postId, false),
  }
}

export type UsersService = ReturnType<typeof createUsersService>
