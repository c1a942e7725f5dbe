import type { StoreTx } from '../store/types.js'
import type { ServiceDeps } from './deps.js'
import { acceptedIn, dropRequestIn, tellRequestedIn } from './follow-requests.js'
import { suspendedAt } from './moderation-access.js'
import { federateIn } from './remote-people.js'
import { blockIn, tellFollowChanged } from './relations.js'
import { summaryRecordOf } from './views.js'
import { blockedEitherWay } from './visibility.js'

/**
 * Follows with people of other servers, as their servers tell of them (DECISIONS §14): a remote person's
 * `Follow` of a person here, its `Undo`, and the `Accept` or `Reject` of a request made from here. Each is
 * the same write, with the same events and notifications, as the follow it stands for; federation/
 * translates the activities into these calls, with the remote person already kept (remote-people.ts).
 */
export function createFederationFollows({ store, now }: ServiceDeps) {
  /** The remote person and the local one, inside the transaction; undefined unless both are what they should be. */
  async function pair(tx: StoreTx, remoteId: string, localId: string) {
    const [remote, local] = await Promise.all([tx.getAccount(remoteId), tx.getAccount(localId)])
    if (!remote?.remote || !local || local.remote || local.pending) return undefined
    return { remote, local }
  }

  return {
    /**
     * A remote person follows a local one: a follow, with an `Accept` sent back (again when it existed,
     * as their server missed the first), or, for a locked account, a request its owner answers. Refused
     * (`Reject`) across a block and while the local person is suspended.
     */
    async followed(remoteId: string, localId: string) {
      await store.transaction(async (tx) => {
        const found = await pair(tx, remoteId, localId)
        if (!found) return
        const { remote } = found
        let { local } = found
        const at = now().toISOString()
        const [relation] = await tx.relationsBetween([[localId, remoteId]], at)
        if (suspendedAt(local.suspension, at) || (relation && blockedEitherWay(relation))) {
          await federateIn(tx, 'reject', localId, remoteId, at)
          return
        }
        if ((await tx.requestedAmong(remoteId, [localId])).has(localId)) return
        if (local.locked) {
          // Held to the end, so the owner cannot unlock (accepting what waits) between this read and the request.
          await tx.lockUser(localId)
          local = (await tx.getAccount(localId)) ?? local
          // Not made when they follow already: then their server is answered again below.
          if (local.locked && (await tx.addFollowRequest(remoteId, localId, at))) {
            await tellRequestedIn(tx, remote, local, at)
            return
          }
        }
        if (await tx.follow(remoteId, localId, at)) await tellFollowChanged(tx, remote, local, true, at)
        await federateIn(tx, 'accept', localId, remoteId, at)
      })
    },

    /** A remote person's `Undo` of their `Follow`: the follow ends, or the request waiting is withdrawn. */
    async unfollowed(remoteId: string, localId: string) {
      await store.transaction(async (tx) => {
        const found = await pair(tx, remoteId, localId)
        if (!found) return
        const at = now().toISOString()
        if (await tx.unfollow(remoteId, localId, at)) await tellFollowChanged(tx, found.remote, found.local, false, at)
        else await dropRequestIn(tx, remoteId, localId)
      })
    },

    /**
     * A remote person's `Block` of a local one: a block as theirs, so the follows between the two end both
     * ways (counts, notifications and events with them), and neither sees nor reaches the other.
     */
    async blocked(remoteId: string, localId: string) {
      await store.transaction(async (tx) => {
        const found = await pair(tx, remoteId, localId)
        const [remote, local] = await Promise.all([summaryRecordOf(tx, remoteId), summaryRecordOf(tx, localId)])
        if (found && remote && local) await blockIn(tx, remote, local, now().toISOString())
      })
    },

    /** Their `Undo` of that `Block`: it is lifted. */
    async unblocked(remoteId: string, localId: string) {
      await store.transaction(async (tx) => {
        if (await pair(tx, remoteId, localId)) await tx.unblock(remoteId, localId)
      })
    },

    /** The remote person accepted a local person's request: it becomes a follow, and the follower hears of it. */
    async accepted(remoteId: string, localId: string) {
      await store.transaction(async (tx) => {
        const found = await pair(tx, remoteId, localId)
        if (!found) return
        const at = now().toISOString()
        if (await tx.acceptFollowRequest(localId, remoteId, at)) await acceptedIn(tx, found.remote, [localId], at)
      })
    },

    /** The remote person refused a local person's request, or ended their follow: either is gone. */
    async rejected(remoteId: string, localId: string) {
      await store.transaction(async (tx) => {
        const found = await pair(tx, remoteId, localId)
        if (!found) return
        const at = now().toISOString()
        if (await dropRequestIn(tx, localId, remoteId)) return
        if (await tx.unfollow(localId, remoteId, at)) await tellFollowChanged(tx, found.local, found.remote, false, at)
      })
    },
  }
}

export type FederationFollows = ReturnType<typeof createFederationFollows>
