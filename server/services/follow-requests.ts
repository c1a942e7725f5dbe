import { MSG, badRequest, notFound } from '../errors.js'
import type { AccountRecord, NotificationIdentity, PageRequest, StoreTx, UserSummaryRecord } from '../store/types.js'
import type { ServiceDeps } from './deps.js'
import { federateIn, type Outgoing } from './remote-people.js'
import { notificationOf, notify, retract, tellAdded, tellRetracted } from './notifier.js'
import { DEFAULT_PAGE } from './notifications.js'
import { usersView, userView } from './user-views.js'
import { lookup, summaryOf, summaryRecordOf } from './views.js'
import { NO_RELATION, checkNotSuspended, hears, hiddenFrom } from './visibility.js'

/**
 * Follow requests (DECISIONS §12): following a locked account asks its owner instead, who accepts or
 * refuses. A request is never a follow until accepted; its `follow_request` notification to the owner
 * lasts exactly as long as it waits, and its acceptance tells the follower (`follow`) and every stream
 * (`user.followed`) as a follow does.
 */

/** Whom a request asks: a person here, or one of another server (`remote`). */
type Owner = UserSummaryRecord & Pick<AccountRecord, 'remote'>

/** The owner's notification of the follower's request. */
const requestNotice = (followerId: string, ownerId: string): NotificationIdentity => ({
  type: 'follow_request',
  recipientId: ownerId,
  actorId: followerId,
})

/**
 * `me` asks to follow `owner`, inside the caller's transaction: the owner is told, by a notification and on
 * their streams, unless they are of another server, which tells them itself. A request waiting already, or
 * a follow, is a 400.
 */
export async function requestIn(tx: StoreTx, me: UserSummaryRecord, owner: Owner, at: string) {
  if (!(await tx.addFollowRequest(me._id, owner._id, at))) {
    const waiting = (await tx.requestedAmong(me._id, [owner._id])).has(owner._id)
    throw badRequest(waiting ? MSG.alreadyRequested : MSG.alreadyFollowing)
  }
  if (!owner.remote) await tellRequestedIn(tx, me, owner, at)
}

/** The owner hears of a request just made, by a notification and on their streams. */
export async function tellRequestedIn(tx: StoreTx, me: UserSummaryRecord, owner: UserSummaryRecord, at: string) {
  tx.emit({ name: 'follow_request.created', data: { user: summaryOf(me) }, to: owner._id, by: me._id })
  await notify(tx, me, owner._id, 'follow_request', {}, at)
}

/** Withdraws (or refuses) the request, its notification with it; false when none waited. */
export async function dropRequestIn(tx: StoreTx, followerId: string, ownerId: string) {
  if (!(await tx.removeFollowRequest(followerId, ownerId))) return false
  await retract(tx, { identity: requestNotice(followerId, ownerId) })
  return true
}

/**
 * What follows the acceptance of these followers' requests, inside its transaction: each follow is told to
 * every stream, each follower hears of it from the owner (one of another server by an `Accept` sent to
 * them), and the requests' notifications go.
 */
export async function acceptedIn(tx: StoreTx, owner: UserSummaryRecord, followerIds: readonly string[], at: string) {
  if (followerIds.length === 0) return
  await answerRemoteIn(tx, owner._id, followerIds, 'accept', at)
  const people = await lookup(tx, followerIds)
  const followers = followerIds.flatMap((id) => people.get(id) ?? [])
  for (const follower of followers) {
    tx.emit({
      name: 'user.followed',
      data: { user: summaryOf(follower), followUser: summaryOf(owner) },
      by: follower._id,
    })
  }
  // In one step for all, as an unlock may accept many: whoever does not hear from the owner is not told.
  const relations = await tx.relationsBetween(
    followers.map((follower) => [follower._id, owner._id] as const),
    at,
  )
  const told = followers
    .filter((_, i) => hears(relations[i] ?? NO_RELATION))
    .map((follower) => notificationOf(owner, follower._id, 'follow', {}, at))
  const unread = await tx.addNotifications(told)
  await tellAdded(
    tx,
    told.map((record) => ({ record, actor: owner, subject: {} })),
    unread,
  )
  await tellRetracted(tx, await tx.removeNotificationsOf(followerIds.map((id) => requestNotice(id, owner._id))))
}

/** Sends the owner's answer to those of `followerIds` who are of another server. */
async function answerRemoteIn(
  tx: StoreTx,
  ownerId: string,
  followerIds: readonly string[],
  answer: Outgoing,
  at: string,
) {
  for (const id of followerIds) {
    if ((await tx.getAccount(id))?.remote) await federateIn(tx, answer, ownerId, id, at)
  }
}

/** The calls of a locked account's owner: the requests waiting, and the answer to each. */
export function createFollowRequestsService({ store, now }: ServiceDeps) {
  /** The owner, inside the transaction; a refusal as auth's when the token outlived them. */
  async function owner(tx: StoreTx, meId: string) {
    const me = await summaryRecordOf(tx, meId)
    if (!me) throw notFound(MSG.userNotRegistered)
    return me
  }

  /** Accepts (or refuses) one request, after which the requester is answered as the owner sees them. */
  async function answer(meId: string, followerId: string, accept: boolean) {
    await store.transaction(async (tx) => {
      const me = await owner(tx, meId)
      const at = now().toISOString()
      // A suspended person's request is not there while the suspension lasts, as they are not (DECISIONS §8).
      await checkNotSuspended(tx, followerId, at, MSG.followRequestNotFound)
      const done = accept
        ? await tx.acceptFollowRequest(followerId, me._id, at)
        : await dropRequestIn(tx, followerId, me._id)
      if (!done) throw notFound(MSG.followRequestNotFound)
      if (accept) await acceptedIn(tx, me, [followerId], at)
      else await answerRemoteIn(tx, me._id, [followerId], 'reject', at)
    })
    const follower = await store.getUser(followerId)
    if (!follower) throw notFound(MSG.userNotFound)
    return { user: await userView(store, follower, meId, now()) }
  }

  return {
    /** Who waits, the oldest request first; the people hidden from the owner are left out. */
    async list(meId: string, { limit = DEFAULT_PAGE, cursor }: PageRequest) {
      const at = now()
      const hide = (await hiddenFrom(store, meId, at)).people
      const { items, nextCursor } = await store.listFollowRequests(meId, { limit, cursor, hide })
      return { users: await usersView(store, await store.getUsers(items), meId, at), nextCursor }
    },
    authorize: (meId: string, followerId: string) => answer(meId, followerId, true),
    reject: (meId: string, followerId: string) => answer(meId, followerId, false),
  }
}

export type FollowRequestsService = ReturnType<typeof createFollowRequestsService>
