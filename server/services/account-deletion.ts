import { randomUUID } from 'node:crypto'
import { MSG, badRequest, forbidden, notFound } from '../errors.js'
import type { ReservedNameRecord, StoreTx, UserRecord } from '../store/types.js'
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
  /** Whether FEDERATION is on: then the servers that knew a person hear that their account is gone. */
  federating: boolean
}

/** What a person's deletion sends: the `Delete` of their actor (federation/deletions.ts). */
export const PERSON_DELETION = 'delete-person'

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

/**
 * Removes the person and everything of theirs in `tx` (the store's deleteAccount) and tells open screens:
 * each post that went, the others in each of their conversations how it now stands, the unread counts
 * that changed, and the person. Enqueues the deletion of the uploads they showed, and of those the open
 * reports that went with them kept as evidence. False when there was no such person.
 */
async function removeIn(
  tx: StoreTx,
  user: UserRecord,
  uploads: ReadonlyMap<string, string>,
  reservation: ReservedNameRecord,
  at: Date,
): Promise<boolean> {
  const removal = await tx.deleteAccount(user._id, reservation, at.toISOString())
  if (!removal) return false
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
  tx.emit({ name: 'user.deleted', data: { userId: user._id, username: user.username } })
  return true
}

/**
 * Queues, in the deletion's transaction, the `Delete` of a local person's actor to the servers that knew
 * them: the inboxes of their remote followers and of the remote people they followed. The job carries
 * those inboxes and their sealed keys, since neither is there once the account is gone. Nothing is queued
 * for someone no other server knows, or who never had keys (and so never spoke to another server).
 */
async function federateDeletion(tx: StoreTx, user: UserRecord, at: string) {
  const known = await tx.getUsers([...new Set([...user.followers, ...user.following])])
  const recipients = known.flatMap(({ remote }) =>
    remote ? [{ actorId: remote.actorId, inbox: remote.inbox, sharedInbox: remote.sharedInbox }] : [],
  )
  const keys = recipients.length > 0 ? await tx.getActorKeys(user._id) : undefined
  if (!keys) return
  const payload = {
    send: PERSON_DELETION,
    userId: user._id,
    keys: JSON.stringify(keys),
    recipients: JSON.stringify(recipients),
  }
  await tx.enqueueJob({ _id: randomUUID(), kind: 'delivery', payload, runAt: at }, at)
}

export function createAccountDeletion(deps: AccountDeletionDeps) {
  const { store, now, federating } = deps
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
        if (federating) await federateDeletion(tx, user, at.toISOString())
        if (!(await removeIn(tx, user, uploads, reservation, at))) throw notFound(MSG.userNotRegistered)
        tx.emit({ name: 'session.ended', data: {}, to: userId })
      })
      await forgetAppGrants(store, userId)
    },

    /**
     * A remote person's `Delete` of their own actor: they and everything of theirs here go as a deleted
     * account's do, with the same events. Nothing happens for an actor nobody here knows.
     */
    async remoteDeleted(actorId: string) {
      const user = await store.getUserByActor(actorId)
      if (!user?.remote) return
      const uploads = await uploadsOf(deps, user)
      await store.transaction(async (tx) => {
        const at = now()
        // Their name is their server's: it is not held here.
        const reservation = { _id: usernameKey(user.username), userId: user._id, until: at.toISOString() }
        await removeIn(tx, user, uploads, reservation, at)
      })
    },
  }
}

export type AccountDeletion = ReturnType<typeof createAccountDeletion>
