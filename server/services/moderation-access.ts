import { randomUUID } from 'node:crypto'
import { MSG, forbidden, notFound } from '../errors.js'
import type { AuditEntryRecord, Role, StoreReader, StoreTx, Suspension, UserRecord } from '../store/types.js'

/** Who may do what in moderation (DECISIONS §8), and the audit log every action writes. */

export const roleOf = (user: Pick<UserRecord, 'role'>): Role => user.role ?? 'user'
export const isStaff = (user: Pick<UserRecord, 'role'>) => roleOf(user) !== 'user'

/** A suspension in force at `at`: one without an end, or whose end is still to come. */
export const suspendedAt = (suspension: Suspension | undefined, at: string) =>
  suspension !== undefined && (suspension.until === null || suspension.until > at)

/** The caller, when they are a moderator or an admin (or, with `admin`, an admin); 403 otherwise. */
export async function staffMember(store: StoreReader, userId: string, need: 'moderator' | 'admin' = 'moderator') {
  const user = await store.getUser(userId)
  if (!user) throw notFound(MSG.userNotRegistered)
  if (need === 'admin' ? roleOf(user) !== 'admin' : !isStaff(user)) throw forbidden(MSG.notAllowed)
  return user
}

export async function mustGetUser(store: StoreReader, id: string) {
  const user = await store.getUser(id)
  if (!user) throw notFound(MSG.userNotFound)
  return user
}

/** One line of the audit log, written in the action's own transaction: it exists exactly when the action does. */
export function audit(
  tx: StoreTx,
  actorId: string | null,
  action: string,
  target: { type: string; id: string },
  at: string,
  reason?: string,
) {
  const entry: AuditEntryRecord = {
    _id: randomUUID(),
    actorId,
    action,
    targetType: target.type,
    targetId: target.id,
    ...(reason ? { reason } : {}),
    createdAt: at,
  }
  return tx.addAuditEntry(entry)
}
