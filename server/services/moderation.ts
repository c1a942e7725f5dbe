import { randomUUID } from 'node:crypto'
import { MSG, badRequest, forbidden, notFound } from '../errors.js'
import type { InviteBody, SuspendBody } from '../schemas/moderation.js'
import type { InviteRecord, PageRequest, Role, StoreTx, UserRecord } from '../store/types.js'
import { isGuest } from '../usernames.js'
import type { ServiceDeps } from './deps.js'
import {
  audit,
  isStaff,
  mustGetUser,
  roleOf,
  staffMember,
  suspendedAt,
  type Admin,
  type StaffMember,
  type StaffNeed,
} from './moderation-access.js'
import { auditViews, moderatedUser } from './moderation-views.js'
import { dropUploads } from './media-deletion.js'
import { deleteCommentIn, deletePostIn } from './removals.js'
import { suspendIn } from './suspensions.js'

const DAY_MS = 86_400_000
const DEFAULT_PAGE = 20

const inviteView = (invite: InviteRecord) => ({
  code: invite._id,
  uses: invite.uses,
  used: invite.used,
  expiresAt: invite.expiresAt,
})

/**
 * Sets a role inside a transaction, for an admin (actor) or the command line (null). The guest is
 * everyone's and never rises above `user`; an admin cannot lower their own role here, so the last admin
 * cannot leave the community without one by a slip.
 */
async function setRoleIn(tx: StoreTx, actorId: string | null, target: UserRecord, role: Role, at: string) {
  if (isGuest(target) && role !== 'user') throw badRequest(MSG.guestRole)
  if (actorId === target._id && role !== 'admin') throw badRequest(MSG.ownRoleLowered)
  const changed = await tx.setRole(target._id, role, at)
  if (!changed) throw notFound(MSG.userNotFound)
  await audit(tx, actorId, 'set-role', { type: 'user', id: target._id }, at, role)
  return changed
}

export function createModerationService({ store, now }: ServiceDeps) {
  /** A staff action on a user, in one transaction with its audit line. */
  async function onUser(change: (tx: StoreTx, at: string) => Promise<UserRecord | undefined>) {
    const changed = await store.transaction((tx) => change(tx, now().toISOString()))
    if (!changed) throw notFound(MSG.userNotFound)
    return { user: moderatedUser(changed) }
  }

  return {
    /** The check every staff route's scope makes of its caller before the route runs: 403 for anyone else. */
    staffMember: <N extends StaffNeed>(userId: string, need: N) => staffMember(store, userId, need),

    async user(_staff: StaffMember, targetId: string) {
      return { user: moderatedUser(await mustGetUser(store, targetId)) }
    },

    async pending(_staff: StaffMember, page: PageRequest) {
      const { items, nextCursor } = await store.listPendingUsers({
        limit: page.limit ?? DEFAULT_PAGE,
        cursor: page.cursor,
      })
      return { users: items.map(moderatedUser), nextCursor }
    },

    setRole(admin: Admin, targetId: string, role: Role) {
      return store.transaction(async (tx) => {
        // Read again inside the change: two admins lowering each other at once must not leave none.
        const actor = await staffMember(tx, admin._id, 'admin')
        const target = await mustGetUser(tx, targetId)
        return { user: moderatedUser(await setRoleIn(tx, actor._id, target, role, now().toISOString())) }
      })
    },

    /** `npm run admin -- role`: the operator, with no account of their own, logged as "cli". */
    async setRoleFromCli(username: string, role: Role) {
      return store.transaction(async (tx) => {
        const target = await tx.getUserByUsername(username)
        if (!target) throw notFound(MSG.userNotFound)
        return moderatedUser(await setRoleIn(tx, null, target, role, now().toISOString()))
      })
    },

    suspend: (actor: StaffMember, targetId: string, body: SuspendBody) =>
      onUser((tx, at) => suspendIn(tx, actor, targetId, body, at)),

    unsuspend: (actor: StaffMember, targetId: string) =>
      onUser(async (tx, at) => {
        const target = await mustGetUser(tx, targetId)
        if (isStaff(target) && roleOf(actor) !== 'admin') throw forbidden(MSG.notAllowed)
        if (!suspendedAt(target.suspension, at)) throw badRequest(MSG.notSuspended)
        const lifted = await tx.setSuspension(target._id, null, at)
        tx.emit({ name: 'user.unsuspended', data: { userId: target._id, username: target.username } })
        await audit(tx, actor._id, 'unsuspend', { type: 'user', id: target._id }, at)
        return lifted
      }),

    approve: (actor: StaffMember, targetId: string) =>
      onUser(async (tx, at) => {
        await mustGetUser(tx, targetId)
        if (!(await tx.approveUser(targetId, at))) throw badRequest(MSG.notPending)
        await audit(tx, actor._id, 'approve', { type: 'user', id: targetId }, at)
        return tx.getUser(targetId)
      }),

    async reject(actor: StaffMember, targetId: string) {
      await store.transaction(async (tx) => {
        const target = await mustGetUser(tx, targetId)
        if (!(await tx.deletePendingUser(targetId))) throw badRequest(MSG.notPending)
        const at = now().toISOString()
        await dropUploads(tx, [target.avatarURL, target.bannerURL], at)
        await audit(tx, actor._id, 'reject', { type: 'user', id: targetId }, at, target.username)
      })
      return {}
    },

    async removePost(actor: StaffMember, postId: string) {
      await store.transaction(async (tx) => {
        const post = await tx.lockPost(postId)
        if (!post) throw notFound(MSG.postNotFound)
        const at = now()
        await deletePostIn(tx, post, at)
        await audit(tx, actor._id, 'remove-post', { type: 'post', id: post._id }, at.toISOString())
      })
      return {}
    },

    async removeComment(actor: StaffMember, postId: string, commentId: string) {
      await store.transaction(async (tx) => {
        const post = await tx.lockPost(postId)
        if (!post) throw notFound(MSG.postNotFound)
        const comment = await tx.getComment(postId, commentId)
        if (!comment) throw notFound(MSG.commentNotFound)
        await deleteCommentIn(tx, post, comment)
        await audit(tx, actor._id, 'remove-comment', { type: 'comment', id: commentId }, now().toISOString())
      })
      return {}
    },

    async log(_staff: StaffMember, page: PageRequest) {
      const { items, nextCursor } = await store.listAuditLog({ limit: page.limit ?? DEFAULT_PAGE, cursor: page.cursor })
      return { entries: await auditViews(store, items), nextCursor }
    },

    async createInvite(actor: StaffMember, body: InviteBody) {
      const at = now()
      const invite: InviteRecord = {
        _id: randomUUID(),
        createdBy: actor._id,
        uses: body.uses ?? 1,
        used: 0,
        expiresAt: body.days === undefined ? null : new Date(at.getTime() + body.days * DAY_MS).toISOString(),
        createdAt: at.toISOString(),
      }
      await store.transaction(async (tx) => {
        await tx.addInvite(invite)
        await audit(tx, actor._id, 'create-invite', { type: 'invite', id: invite._id }, invite.createdAt)
      })
      return { invite: inviteView(invite) }
    },

    async invites(_staff: StaffMember, page: PageRequest) {
      const { items, nextCursor } = await store.listInvites({ limit: page.limit ?? DEFAULT_PAGE, cursor: page.cursor })
      return { invites: items.map(inviteView), nextCursor }
    },
  }
}

export type ModerationService = ReturnType<typeof createModerationService>
