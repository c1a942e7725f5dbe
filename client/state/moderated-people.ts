import { proxy } from 'valtio'
import {
  apiApproveUser,
  apiCreateInvite,
  apiGetAuditLog,
  apiGetInvites,
  apiGetModeratedUser,
  apiGetPendingUsers,
  apiRejectUser,
  apiSetRole,
  apiSuspendUser,
  apiUnsuspendUser,
} from '../api/moderation.js'
import type { AuditEntry, Invite, ModeratedUser, Role, SuspendBody } from '../api/types.js'
import { errorMessage } from '../api/http.js'
import { emptyPaged, loadPaged } from './paged.js'
import { showError, showToast } from './toasts.js'

/** An invite as a paged list keeps it: by its code. */
export type ListedInvite = Invite & { _id: string }

const PAGE = 20

const initial = () => ({
  /** The person on /moderation/users/:id. */
  person: { id: '', user: null as ModeratedUser | null, error: null as string | null, busy: false },
  pending: emptyPaged<ModeratedUser>('pending'),
  invites: emptyPaged<ListedInvite>('invites'),
  log: emptyPaged<AuditEntry>('log'),
})

/** What moderators read and change of people: one person, the signups waiting, invites and the audit log. */
export const moderatedPeople = proxy(initial())

export async function loadPerson(id: string): Promise<void> {
  const { person } = moderatedPeople
  if (person.id !== id) Object.assign(person, { id, user: null, error: null, busy: false })
  try {
    const { user } = await apiGetModeratedUser(id)
    if (moderatedPeople.person.id === id) Object.assign(moderatedPeople.person, { user, error: null })
  } catch (error) {
    if (moderatedPeople.person.id === id) moderatedPeople.person.error = errorMessage(error)
  }
}

/** One change to the person shown: their record as it now is, or a toast saying why not. */
async function change(write: () => Promise<{ user: ModeratedUser }>, done: string): Promise<boolean> {
  const { person } = moderatedPeople
  if (person.busy) return false
  person.busy = true
  try {
    const { user } = await write()
    if (moderatedPeople.person.id === user._id) moderatedPeople.person.user = user
    showToast(done, 'success')
    return true
  } catch (error) {
    showError(error)
    return false
  } finally {
    person.busy = false
  }
}

export const suspendPerson = (id: string, body: SuspendBody) => change(() => apiSuspendUser(id, body), 'Suspended')
export const unsuspendPerson = (id: string) => change(() => apiUnsuspendUser(id), 'Suspension lifted')
export const setPersonRole = (id: string, role: Role) => change(() => apiSetRole(id, role), `Role set to ${role}`)

export function loadPending(more = false): Promise<void> {
  return loadPaged<ModeratedUser, 'pending'>(moderatedPeople, 'pending', 'pending', more, async (cursor) => {
    const reply = await apiGetPendingUsers({ limit: PAGE, cursor })
    return { items: reply.users, nextCursor: reply.nextCursor ?? null }
  })
}

/** Approves (or, with false, rejects and deletes) a waiting signup; it leaves the pending list either way. */
export async function decideSignup(id: string, approve: boolean): Promise<boolean> {
  try {
    if (approve) await apiApproveUser(id)
    else await apiRejectUser(id)
    const { pending, person } = moderatedPeople
    pending.items = pending.items.filter((user) => user._id !== id)
    if (person.id === id) {
      if (approve && person.user) person.user = { ...person.user, pending: false }
      else if (!approve) Object.assign(person, { user: null, error: 'This signup was rejected and deleted.' })
    }
    showToast(approve ? 'Signup approved' : 'Signup rejected', 'success')
    return true
  } catch (error) {
    showError(error)
    return false
  }
}

export function loadInvites(more = false): Promise<void> {
  return loadPaged<ListedInvite, 'invites'>(moderatedPeople, 'invites', 'invites', more, async (cursor) => {
    const reply = await apiGetInvites({ limit: PAGE, cursor })
    return {
      items: reply.invites.map((invite) => ({ ...invite, _id: invite.code })),
      nextCursor: reply.nextCursor ?? null,
    }
  })
}

/** A new invite on top of the list: its code, or null when it was refused. */
export async function createInvite(body: { uses?: number; days?: number }): Promise<string | null> {
  try {
    const { invite } = await apiCreateInvite(body)
    moderatedPeople.invites.items.unshift({ ...invite, _id: invite.code })
    showToast('Invite created', 'success')
    return invite.code
  } catch (error) {
    showError(error)
    return null
  }
}

export function loadAuditLog(more = false): Promise<void> {
  return loadPaged<AuditEntry, 'log'>(moderatedPeople, 'log', 'log', more, async (cursor) => {
    const reply = await apiGetAuditLog({ limit: PAGE, cursor })
    return { items: reply.entries, nextCursor: reply.nextCursor ?? null }
  })
}

export function reset(): void {
  Object.assign(moderatedPeople, initial())
}
