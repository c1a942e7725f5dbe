import { MSG, badRequest, forbidden, notFound } from '../errors.js'
import type { StoreTx, UserRecord } from '../store/types.js'
import { audit, isStaff, roleOf } from './moderation-access.js'

const DAY_MS = 86_400_000

/**
 * Suspends a user inside a transaction (DECISIONS §8): every token they hold stops working, now and after
 * the suspension ends, and their streams close on every instance (the `session.ended` travels through
 * the event log like a logout everywhere). A moderator may suspend only plain users; an admin anyone but themselves.
 */
export async function suspendIn(
  tx: StoreTx,
  actor: UserRecord,
  targetId: string,
  { reason, days }: { reason: string; days?: number | undefined },
  at: string,
) {
  const target = await tx.getUser(targetId)
  if (!target) throw notFound(MSG.userNotFound)
  if (target._id === actor._id) throw badRequest(MSG.suspendSelf)
  if (isStaff(target) && roleOf(actor) !== 'admin') throw forbidden(MSG.notAllowed)
  const until = days === undefined ? null : new Date(Date.parse(at) + days * DAY_MS).toISOString()
  const suspended = await tx.setSuspension(target._id, { reason, at, until }, at)
  await tx.revokeTokens(target._id)
  tx.emit({ name: 'session.ended', data: {}, to: target._id })
  tx.emit({ name: 'user.suspended', data: { userId: target._id, username: target.username } })
  await audit(tx, actor._id, 'suspend', { type: 'user', id: target._id }, at, reason)
  return suspended ?? target
}
