import { MSG, badRequest, forbidden, notFound } from '../errors.js'
import type { StoreTx, UserRecord } from '../store/types.js'
import { imageUrlsOf } from '../store/post-parts.js'
import { isGuest, usernameKey } from '../usernames.js'
import { forgetAppGrants } from './app-grants.js'
import type { ServiceDeps } from './deps.js'
import { verifyPassword } from './passwords.js'
import type { MediaService } from './media.js'
import { dropUploads, uploadsShownIn } from './media-deletion.js'
import { tellUnread } from './notifier.js'
import { tellConversation } from './conversations.js'

/** How long a deleted account's username stays held, so nobody takes it over at once (DECISIONS §9). */
const USERNAME_HELD_MS = 30 * 24 * 60 * 60 * 1000

/** Pages of this many posts are read when gathering a big account's uploads. */
const PAGE = 100

export interface AccountDeletionDeps extends ServiceDeps {
  /** Tells this server's uploads from other URLs. */
  media: Pick<MediaService, 'keyOf'>
}

/** The last admin may not go: nobody could then make another. Staff rows are locked, so two admins cannot both go at once. */
async function checkNotOnlyAdmin(tx: StoreTx, user: UserRecord) {
  if (user.role !== 'admin') return
  const staffIds = (await tx.listStaffIds()).sort()
  for (const id of staffIds) await tx.lockUser(id)
  const staff = await tx.getUsers(staffIds)
  if (!staff.some((other) => other.role === 'admin' && other._id !== user._id)) throw badRequest(MSG.onlyAdmin)
}

/**
 * This server's uploads the user shows, by key, each with a URL that names it: their avatar, banner and
 * their posts' images and cards' images, read a page at a time.
 */
async function uploadsOf({ store, media }: AccountDeletionDeps, user: UserRecord): Promise<Map<string, string>> {
  const uploads = new Map<string, string>()
  const note = (url: string) => {
    const key = media.keyOf(url)
    if (key !== undefined) uploads.set(key, url)
  }
  note(user.avatarURL)
  note(user.bannerURL ?? '')
  let cursor: string | undefined
  do {
    const page = await store.listPosts({ authorIds: [user._id], sort: 'latest', limit: PAGE, cursor })
    for (const post of page.items) {
      for (const url of imageUrlsOf(post)) note(url)
      note(post.card?.image ?? '')
    }
    cursor = page.nextCursor ?? undefined
  } while (cursor)
  return uploads
}

export function createAccountDeletion(deps: AccountDeletionDeps) {
  const { store, now } = deps
  return {
    /**
     * Deletes the account and everything it made, in one transaction, after the password is checked;
     * open screens are told of each post that went and of the person, the others in each of their
     * conversations of how it now stands, and every stream of theirs ends.
     * The same transaction enqueues the deletion of the uploads they showed, and of those the open
     * reports that went with them kept as evidence: each goes unless someone else shows it.
     */
    async deleteAccount(userId: string, password: string) {
      const user = await store.getUser(userId)
      if (!user) throw notFound(MSG.userNotRegistered)
      if (isGuest(user)) throw forbidden(MSG.guestUnchangeable)
      if (!(await verifyPassword(password, user.passwordHash))) throw badRequest(MSG.passwordIncorrect)
      const uploads = await uploadsOf(deps, user)
      await store.transaction(async (tx) => {
        await checkNotOnlyAdmin(tx, user)
        const at = now()
        const until = new Date(at.getTime() + USERNAME_HELD_MS).toISOString()
        const reservation = { _id: usernameKey(user.username), userId, until }
        const removal = await tx.deleteAccount(userId, reservation, at.toISOString())
        if (!removal) throw notFound(MSG.userNotRegistered)
        const evidence = removal.openReportSnapshots.flatMap(uploadsShownIn)
        await dropUploads(tx, [...uploads.values(), ...evidence], at.toISOString())
        for (const postId of removal.postIds) tx.emit({ name: 'post.deleted', data: { postId } })
        // The others in each of their conversations hear how it stands without them (or that it is gone).
        for (const { conversationId, participantIds } of removal.conversations) {
          await tellConversation(tx, conversationId, participantIds, at)
        }
        await tellUnread(
          tx,
          removal.unread.map(({ recipientId }) => recipientId),
        )
        tx.emit({ name: 'user.deleted', data: { userId, username: user.username } })
        tx.emit({ name: 'session.ended', data: {}, to: userId })
      })
      await forgetAppGrants(store, userId)
    },
  }
}

export type AccountDeletion = ReturnType<typeof createAccountDeletion>
