import { randomUUID } from 'node:crypto'
import { MSG, forbidden, notFound } from '../errors.js'
import type { AuditEntryRecord, Role, StoreReader, StoreTx, Suspension, UserRecord } from '../store/types.js'

/** Who may do what in moderation (DECISIONS §8), and the audit log every action writes. */

export const roleOf = (user: Pick<UserRecord, 'role'>): Role => user.role ?? 'user'
export const isStaff = (user: Pick<UserRecord, 'role'>) => roleOf(user) !== 'user'

/** A suspension in force at `at`: one without an end, or whose end is still to come. */
export const suspendedAt = (suspension: Suspension | undefined, at: string) =>
  suspension !== undefined && (suspension.until === null || suspension.until > at)

/** What a staff route needs of its caller: any staff role, or admin. */
export type StaffNeed = 'moderator' | 'admin'

declare const checkedFor: unique symbol

/**
 * A user the staff check let through for `N` (a type-only mark: the record is the user's own). Staff
 * actions take one instead of a bare id, so none can run on a caller nobody checked; an admin passes
 * wherever a moderator does.
 */
export type Checked<N extends StaffNeed> = UserRecord & { readonly [checkedFor]: N }
export type StaffMember = Checked<StaffNeed>
export type Admin = Checked<'admin'>

/**
 * The caller, when they are a moderator or an admin (or, with `admin`, an admin); 403 otherwise. The
 * staff route scope (routes/staff-scope.ts) runs it before any of its routes.
 */
export async function staffMember<N extends StaffNeed>(store: StoreReader, userId: string, need: N) {
  const user = await store.getUser(userId)
  if (!user) throw notFound(MSG.userNotRegistered)
  if (need === 'admin' ? roleOf(user) !== 'admin' : !isStaff(user)) throw forbidden(MSG.notAllowed)
  return user as Checked<N>
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
