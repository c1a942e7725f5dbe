import { MSG, badRequest, notFound } from '../errors.js'
import { MAX_MUTE_SECONDS, type MuteBody } from '../schemas/relations.js'
import type { PageRequest, StoreTx, UserSummaryRecord } from '../store/types.js'
import type { ServiceDeps } from './deps.js'
import { notify, retract, tellUnread } from './notifier.js'
import { DEFAULT_PAGE } from './notifications.js'
import { lookup, summaryOf, summaryRecordOf } from './views.js'
import { addresses, visibilityOf } from './audience.js'
import { MAX_UNPAGED } from './posts.js'
import { federateIn } from './remote-people.js'

/**
 * A follow ended (an unfollow, or a block that ended it): the follower's streams drop, at once, the
 * followee's `followers` posts that did not address them, each with a `post.deleted` (DECISIONS §12),
 * and then hear the unread count their notifications list shows without those posts.
 * Open screens show recent posts, so the newest MAX_UNPAGED of the followee's posts are looked at, as a
 * list read would be.
 */
async function tellFollowEnded(tx: StoreTx, followerId: string, followeeId: string) {
  const { items } = await tx.listPosts({ authorIds: [followeeId], sort: 'latest', limit: MAX_UNPAGED })
  let hidden = false
  for (const post of items) {
    if (visibilityOf(post) !== 'followers' || addresses(post, followerId)) continue
    tx.emit({ name: 'post.deleted', data: { postId: post._id, createdAt: post.createdAt }, to: followerId })
    hidden = true
  }
  if (hidden) await tellUnread(tx, [followerId])
}

/**
 * A follow made or ended, inside its transaction, whoever made it (a person here, or one of another server
 * through federation): every stream hears of it; a follow notifies the followee, and an unfollow takes
 * that notification back and hides the followee's `followers` posts from the follower at once.
 */
export async function tellFollowChanged(
  tx: StoreTx,
  follower: UserSummaryRecord,
  followee: UserSummaryRecord,
  follow: boolean,
  at: string,
) {
  tx.emit({
    name: follow ? 'user.followed' : 'user.unfollowed',
    data: { user: summaryOf(follower), followUser: summaryOf(followee) },
    by: follower._id,
  })
  if (follow) {
    await notify(tx, follower, followee._id, 'follow', {}, at)
    return
  }
  await retract(tx, { identity: { type: 'follow', recipientId: followee._id, actorId: follower._id } })
  await tellFollowEnded(tx, follower._id, followee._id)
}

/**
 * A block inside the caller's transaction: the follows between the two end both ways (their counts and
 * notifications with them), every notification between them is taken back, and the blocker's streams
 * hear of it. Whatever blocks (the call, an import) goes through here. Undefined when it was so already.
 */
export async function blockIn(tx: StoreTx, me: UserSummaryRecord, other: UserSummaryRecord, at: string) {
  const ended = await tx.block(me._id, other._id, at)
  if (ended === undefined) return undefined
  for (const [followerId] of ended) {
    const [user, followUser] = followerId === me._id ? [me, other] : [other, me]
    tx.emit({
      name: 'user.unfollowed',
      data: { user: summaryOf(user), followUser: summaryOf(followUser) },
      by: user._id,
    })
    await tellFollowEnded(tx, user._id, followUser._id)
  }
  await retract(tx, { between: [me._id, other._id] })
  tx.emit({ name: 'user.blocked', data: { user: summaryOf(other) }, to: me._id })
  return ended
}

/** A mute inside the caller's transaction, until `until` or for ever: the muter's streams hear of it. */
export async function muteIn(
  tx: StoreTx,
  meId: string,
  other: UserSummaryRecord,
  until: string | undefined,
  at: string,
) {
  await tx.mute(meId, { userId: other._id, ...(until ? { until } : {}) }, at)
  tx.emit({ name: 'user.muted', data: { user: summaryOf(other), until: until ?? null }, to: meId })
}

/**
 * A block of a person of another server made or lifted here: their server hears it (a `Block`, or its
 * `Undo`) through a delivery job committed with it. Nothing is sent for a person of this server.
 */
async function federateBlock(tx: StoreTx, meId: string, otherId: string, send: 'block' | 'undo-block', at: string) {
  if ((await tx.getAccount(otherId))?.remote) await federateIn(tx, send, meId, otherId, at)
}

/**
 * Blocking and muting (docs/api-contract.md §11). Each is idempotent: blocking someone blocked already,
 * or unmuting someone not muted, answers as the first time and changes nothing. What a block or a mute
 * hides, and from whom, is services/visibility.ts's.
 */
export function createRelationsService({ store, now }: ServiceDeps) {
  /** The caller and the other person, inside the transaction; refuses an unknown one, and acting on oneself. */
  async function both(tx: StoreTx, meId: string, otherId: string, self: string) {
    const [me, other] = await Promise.all([summaryRecordOf(tx, meId), summaryRecordOf(tx, otherId)])
    if (!me) throw notFound(MSG.userNotRegistered)
    if (!other) throw notFound(MSG.userNotFound)
    if (me._id === other._id) throw badRequest(self)
    return { me, other }
  }

  /** Ends a block or a mute, if there is one: the caller's streams hear of it. */
  async function lift(meId: string, otherId: string, name: 'user.unblocked' | 'user.unmuted') {
    const other = await store.transaction(async (tx) => {
      const blocking = name === 'user.unblocked'
      const { me, other } = await both(tx, meId, otherId, blocking ? MSG.selfBlock : MSG.selfMute)
      const lifted = blocking ? await tx.unblock(me._id, other._id) : await tx.unmute(me._id, other._id)
      if (lifted) tx.emit({ name, data: { user: summaryOf(other) }, to: me._id })
      if (lifted && blocking) await federateBlock(tx, me._id, other._id, 'undo-block', now().toISOString())
      return other
    })
    return { user: summaryOf(other) }
  }

  /** Someone's summaries in the order of `ids`, skipping anyone gone. */
  async function people(ids: readonly string[]): Promise<UserSummaryRecord[]> {
    const found = await lookup(store, ids)
    return ids.flatMap((id) => found.get(id) ?? [])
  }

  return {
    /** Ends the follows between the two both ways (their counts and notifications with them), then blocks. */
    async block(meId: string, otherId: string) {
      const other = await store.transaction(async (tx) => {
        const { me, other } = await both(tx, meId, otherId, MSG.selfBlock)
        const at = now().toISOString()
        if (await blockIn(tx, me, other, at)) await federateBlock(tx, me._id, other._id, 'block', at)
        return other
      })
      return { user: summaryOf(other) }
    },

    unblock: (meId: string, otherId: string) => lift(meId, otherId, 'user.unblocked'),

    /** For `duration` seconds, or for ever without one (or with 0); a mute again sets its end anew. */
    async mute(meId: string, otherId: string, { duration = 0 }: MuteBody) {
      if (!Number.isInteger(duration) || duration < 0 || duration > MAX_MUTE_SECONDS) throw badRequest(MSG.muteDuration)
      const other = await store.transaction(async (tx) => {
        const { me, other } = await both(tx, meId, otherId, MSG.selfMute)
        const at = now()
        const until = duration > 0 ? new Date(at.getTime() + duration * 1000).toISOString() : undefined
        await muteIn(tx, me._id, other, until, at.toISOString())
        return other
      })
      return { user: summaryOf(other) }
    },

    unmute: (meId: string, otherId: string) => lift(meId, otherId, 'user.unmuted'),

    /** Where the caller stands with each of `otherIds`: whom they block, who blocks them, whom they mute now. */
    async with(meId: string, otherIds: readonly string[]) {
      const { blocking, blockedBy, muting } = await store.relationsOf(meId, now().toISOString())
      const blocks = new Set(blocking)
      const blockers = new Set(blockedBy)
      const mutes = new Map(muting.map((mute) => [mute.userId, mute.until ?? null]))
      return otherIds.map((id) => ({
        id,
        blocking: blocks.has(id),
        blockedBy: blockers.has(id),
        muting: mutes.has(id),
        mutedUntil: mutes.get(id) ?? null,
      }))
    },

    /** Whom the caller blocks, the most recent first. */
    async blocks(meId: string, { limit = DEFAULT_PAGE, cursor }: PageRequest) {
      const { items, nextCursor } = await store.listBlocks(meId, { limit, cursor })
      return { users: (await people(items)).map(summaryOf), nextCursor }
    },

    /** Whom the caller mutes now, the most recent first; mutes that have ended are not listed. */
    async mutes(meId: string, { limit = DEFAULT_PAGE, cursor }: PageRequest) {
      const { items, nextCursor } = await store.listMutes(meId, now().toISOString(), { limit, cursor })
      const until = new Map(items.map((mute) => [mute.userId, mute.until ?? null]))
      const users = await people(items.map((mute) => mute.userId))
      return {
        users: users.map((user) => ({ ...summaryOf(user), mutedUntil: until.get(user._id) ?? null })),
        nextCursor,
      }
    },
  }
}

export type RelationsService = ReturnType<typeof createRelationsService>
