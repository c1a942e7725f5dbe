import { MSG, badRequest, forbidden, notFound } from '../errors.js'
import type { UserEdit } from '../schemas/users.js'
import type { AccountRecord, PageRequest, ProfileChanges, StoreReader, StoreTx, UserRecord } from '../store/types.js'
import { isGuest } from '../usernames.js'
import { editedValue } from './aliases.js'
import type { ServiceDeps } from './deps.js'
import { dropUploads } from './media-deletion.js'
import { MAX_UNPAGED, unpagedCap } from './posts.js'
import { isValidAvatarUrl, isValidMediaUrl, isValidWebsite } from './urls.js'
import { ownBookmarks, postViews, type Reader } from './post-views.js'
import { requestedOf, userView, usersOfUsers } from './user-views.js'
import { acceptedIn, dropRequestIn, requestIn } from './follow-requests.js'
import { summaryOf, toUser } from './views.js'
import { federateIn, type RemotePeople } from './remote-people.js'
import { createSuggestionDismissals } from './suggestion-dismissals.js'
import { checkProfileTexts } from './content-rules.js'
import { tellFollowChanged } from './relations.js'
import { audienceOf } from './audience-events.js'
import { checkCanInteract, checkNotSuspended, hiddenFrom, seeing, suspendedPeople } from './visibility.js'
import { checkMayRead, readableBy } from './audience-reads.js'

/** The user `id`; the caller's own record missing means the token outlived its user, as in auth. */
async function mustGetUser(store: StoreReader, id: string, missing: string = MSG.userNotFound): Promise<UserRecord> {
  const user = await store.getUser(id)
  if (!user) throw notFound(missing)
  return user
}

/**
 * Someone else, as everyone but moderators sees them (a signup waiting for approval is nobody yet, DECISIONS
 * §8), without their lists: who they are is all a check needs, and a popular account's followers are many.
 */
async function mustGetVisibleAccount(store: StoreReader, id: string): Promise<AccountRecord> {
  const user = await store.getAccount(id)
  if (!user || user.pending) throw notFound(MSG.userNotFound)
  return user
}

type SentProfile = Omit<UserEdit, 'username' | 'token'>

/** What an edit changes in `current`, checked; fields not sent are left out, so they keep their values. */
function profileChanges({ portfolio, avatar, ...sent }: SentProfile, current: UserRecord): ProfileChanges {
  const website = editedValue(sent.website, portfolio, current.website)
  checkProfileTexts({ ...sent, website })
  const avatarURL = editedValue(sent.avatarURL, avatar, current.avatarURL)
  if (website !== undefined && !isValidWebsite(website)) throw badRequest(MSG.badWebsite)
  if (avatarURL !== undefined && !isValidAvatarUrl(avatarURL)) throw badRequest(MSG.badAvatarUrl)
  // A banner is shown like a post's image, so it is held to the same rule; empty takes it away.
  if (sent.bannerURL !== undefined && !isValidMediaUrl(sent.bannerURL)) throw badRequest(MSG.badBannerUrl)
  // Only an account made by a signup without names has an empty last name, and it may send it back.
  if (sent.lastName === '' && current.lastName !== '') throw badRequest(MSG.emptyLastName)
  const changes: ProfileChanges = { ...sent, website, avatarURL }
  return Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined))
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** `remotePeople` finds people of other servers; without it (tests of the rules alone) none are found. */
export function createUsersService({ store, now, remotePeople }: ServiceDeps & { remotePeople?: RemotePeople }) {
  const dismissals = createSuggestionDismissals(store, now)

  /**
   * A follow or an unfollow; of a locked account, a request made or withdrawn instead (DECISIONS §12):
   * whether it was a request.
   */
  async function changeFollowIn(tx: StoreTx, meId: string, targetId: string, follow: boolean) {
    const me = await tx.getAccount(meId)
    if (!me) throw notFound(MSG.userNotRegistered)
    let other = await mustGetVisibleAccount(tx, targetId)
    if (me._id === other._id) throw notFound(MSG.selfFollow)
    const at = now().toISOString()
    await checkNotSuspended(tx, other._id, at, MSG.userNotFound)
    if (follow) await checkCanInteract(tx, me._id, other._id, at)
    if (follow && other.remote) {
      // A person of another server answers on their server: until their Accept, a request (DECISIONS §14).
      await requestIn(tx, me, other, at)
      await federateIn(tx, 'follow', me._id, other._id, at)
      return true
    }
    if (follow && other.locked) {
      // Held to the end, so the owner cannot unlock (accepting what waits) between this read and the request.
      await tx.lockUser(other._id)
      other = await mustGetVisibleAccount(tx, targetId)
      if (other.locked) {
        await requestIn(tx, me, other, at)
        return true
      }
    }
    const changed = follow ? await tx.follow(me._id, other._id, at) : await tx.unfollow(me._id, other._id, at)
    const withdrawn = !changed && !follow && (await dropRequestIn(tx, me._id, other._id))
    if (!changed && !withdrawn) throw badRequest(follow ? MSG.alreadyFollowing : MSG.notFollowing)
    if (!follow && other.remote) await federateIn(tx, 'undo-follow', me._id, other._id, at)
    if (withdrawn) return true
    await tellFollowChanged(tx, me, other, follow, at)
    return false
  }

  /** The caller and the other person after the change; after a request, the other person alone. */
  async function changeFollow(meId: string, targetId: string, follow: boolean) {
    const request = await store.transaction((tx) => changeFollowIn(tx, meId, targetId, follow))
    const [me, other] = await Promise.all([
      mustGetUser(store, meId, MSG.userNotRegistered),
      mustGetUser(store, targetId),
    ])
    const at = now()
    const followUser = await userView(store, other, meId, at)
    if (request) return { user: followUser, requested: follow }
    return { user: await userView(store, me, meId, at), followUser }
  }

  async function changeBookmark(userId: string, postId: string, add: boolean) {
    await store.transaction(async (tx) => {
      const post = await tx.lockPost(postId)
      if (!post) throw notFound(MSG.postNotFound)
      const at = now().toISOString()
      if (post.authorId !== userId) await checkNotSuspended(tx, post.authorId, at, MSG.postNotFound)
      if (add) await checkMayRead(tx, post, userId)
      if (add) await checkCanInteract(tx, userId, post.authorId, at)
      const changed = add ? await tx.addBookmark(userId, post._id, at) : await tx.removeBookmark(userId, post._id, at)
      if (!changed) throw badRequest(add ? MSG.alreadyBookmarked : MSG.notBookmarked)
      tx.emit({
        name: add ? 'bookmark.added' : 'bookmark.removed',
        data: { postId: post._id },
        to: userId,
        audience: audienceOf(post),
      })
    })
    return bookmarksOf(userId, {}, { userId, compact: false })
  }

  /** Newest bookmark first, as current posts: those the user may still read. */
  async function bookmarksOf(userId: string, { limit, cursor }: PageRequest, asked: Reader) {
    const page = { limit, cursor }
    const reader = await seeing(store, asked, now())
    const hide = reader.hidden.people
    const audience = readableBy(userId)
    const { items, nextCursor } = await store.listBookmarks(userId, { ...unpagedCap(page), hide, audience })
    const bookmarks = await postViews(store, items, reader)
    return page.limit === undefined && page.cursor === undefined ? { bookmarks } : { bookmarks, nextCursor }
  }

  return {
    async list(viewerId: string | undefined, page: PageRequest) {
      // Whom the reader cannot see (a block either way, a running mute, a suspension) is not in the list either.
      const hide = (await hiddenFrom(store, viewerId, now())).people
      const { items, nextCursor } = await store.listUsers({ ...unpagedCap(page), hide })
      const [lookup, requested] = await Promise.all([
        suspendedPeople(store, now()).then((suspended) => usersOfUsers(store, items, suspended)),
        requestedOf(store, viewerId, items),
      ])
      const mine =
        viewerId !== undefined && items.some((user) => user._id === viewerId) ? await ownBookmarks(store, viewerId) : []
      const users = items.map((user) => toUser(user, lookup, user._id === viewerId, mine, requested.has(user._id)))
      return page.limit === undefined && page.cursor === undefined ? { users } : { users, nextCursor }
    },

    /**
     * By username, or by `_id` as the original API looked users up; `name@host` is a person of another
     * server, found through it when not known yet (DECISIONS §14).
     */
    async get(usernameOrId: string, viewerId: string | undefined) {
      const user = usernameOrId.includes('@')
        ? await remotePeople?.byHandle(usernameOrId)
        : ((await store.getUserByUsername(usernameOrId)) ??
          (UUID.test(usernameOrId) ? await store.getUser(usernameOrId) : undefined))
      if (!user || user.pending) throw notFound(MSG.userNotFound)
      // To someone they block, a person is not there; whom they block or mute can still open their profile.
      if (!user || (await hiddenFrom(store, viewerId, now())).shut.has(user._id)) throw notFound(MSG.userNotFound)
      return { user: await userView(store, user, viewerId, now()) }
    },

    /**
     * The signed-in person's own record, without the posts they bookmarked (an app that starts reads its
     * account each time, and its bookmarks, when it wants them, page by page).
     */
    async own(userId: string) {
      const user = await store.getUser(userId)
      if (!user) throw notFound(MSG.userNotFound)
      return { user: await userView(store, user, userId, now(), { bookmarks: false }) }
    },

    /**
     * A `token` sent along is never stored; the reply's user carries it back, as the original mock did.
     * Unlocking the account accepts every request waiting, in the same transaction (DECISIONS §12).
     */
    async edit(userId: string, { username, token, ...sent }: UserEdit) {
      const user = await store.transaction(async (tx) => {
        const current = await mustGetUser(tx, userId, MSG.userNotRegistered)
        if (isGuest(current)) throw forbidden(MSG.guestUnchangeable)
        if (username !== undefined && username !== current.username) throw notFound(MSG.usernameChange)
        const at = now().toISOString()
        const user = await tx.updateProfile(userId, profileChanges(sent, current), at)
        if (!user) throw notFound(MSG.userNotRegistered)
        // An avatar or banner replaced or taken off goes, unless something else shows it.
        const replaced = (before: string | undefined, after: string | undefined) => (before !== after ? before : '')
        await dropUploads(
          tx,
          [replaced(current.avatarURL, user.avatarURL), replaced(current.bannerURL, user.bannerURL)],
          at,
        )
        const { bio, website, updatedAt } = user
        const shown = { displayName: user.displayName ?? '', bannerURL: user.bannerURL ?? '', locked: !!user.locked }
        tx.emit({
          name: 'user.updated',
          data: { user: { ...summaryOf(user), ...shown, bio, website, updatedAt } },
          by: user._id,
        })
        if (!current.locked || user.locked) return user
        await acceptedIn(tx, user, await tx.acceptFollowRequests(user._id, at), at)
        return (await tx.getUser(userId)) ?? user
      })
      const view = await userView(store, user, userId, now())
      return { user: typeof token === 'string' ? { ...view, token } : view }
    },

    follow: (meId: string, targetId: string) => changeFollow(meId, targetId, true),
    unfollow: (meId: string, targetId: string) => changeFollow(meId, targetId, false),

    /** Who to follow: not me, not followed yet, not dismissed; the most followed first. */
    async suggestions(userId: string, limit: number) {
      await mustGetUser(store, userId)
      const [hidden, dismissed] = await Promise.all([hiddenFrom(store, userId, now()), dismissals.of(userId)])
      const left = dismissed.length === 0 ? hidden.people : [...new Set([...hidden.people, ...dismissed])]
      const candidates = await store.suggestUsers(userId, Math.min(limit, MAX_UNPAGED), left, hidden.suspended)
      const [lookup, requested] = await Promise.all([
        usersOfUsers(store, candidates, new Set(hidden.suspended)),
        requestedOf(store, userId, candidates),
      ])
      return { users: candidates.map((user) => toUser(user, lookup, false, [], requested.has(user._id))) }
    },

    /** Leaves `targetId` out of `userId`'s suggestions from now on (for a year). */
    async dismissSuggestion(userId: string, targetId: string): Promise<void> {
      await mustGetUser(store, userId)
      await mustGetUser(store, targetId)
      await dismissals.add(userId, targetId)
    },

    async bookmarks(userId: string, page: PageRequest, reader: Reader) {
      await mustGetUser(store, userId)
      return bookmarksOf(userId, page, reader)
    },
    addBookmark: (userId: string, postId: string) => changeBookmark(userId, postId, true),
    removeBookmark: (userId: string, postId: string) => changeBookmark(userId, postId, false),
  }
}

export type UsersService = ReturnType<typeof createUsersService>
