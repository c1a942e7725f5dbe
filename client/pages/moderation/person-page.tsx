import { useEffect, useId, useState, type FormEvent } from 'react'
import { useSnapshot } from 'valtio'
import { Link } from 'wouter'
import type { ModeratedUser, Role } from '../../api/types.js'
import { Avatar } from '../../components/avatar.js'
import { LoadError } from '../../components/load-error.js'
import { Spinner } from '../../components/spinner.js'
import { TextField } from '../../components/text-field.js'
import { useDocumentTitle } from '../../lib/document-title.js'
import { displayNameOf, type DeepReadonly } from '../../lib/model.js'
import { formatShortDate } from '../../lib/relative-time.js'
import { paths } from '../../paths.js'
import {
  decideSignup,
  loadPerson,
  moderatedPeople,
  setPersonRole,
  suspendPerson,
  unsuspendPerson,
} from '../../state/moderated-people.js'
import { session } from '../../state/session.js'
import { StaffOnly } from './staff-only.js'
import { LIMITS } from '../../../common/limits.js'

type Person = DeepReadonly<ModeratedUser>

/** Where the account stands: waiting, suspended (until when, and why) or in good standing. */
function standing(user: Person): string {
  if (user.pending) return 'Waiting for approval'
  if (user.suspension) {
    const until = user.suspension.until ? `until ${formatShortDate(user.suspension.until)}` : 'until lifted'
    return `Suspended ${until}: ${user.suspension.reason}`
  }
  return 'In good standing'
}

function SuspendForm({ user, busy }: { user: Person; busy: boolean }) {
  const [reason, setReason] = useState('')
  const [days, setDays] = useState('')
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const body = days.trim() === '' ? { reason: reason.trim() } : { reason: reason.trim(), days: Number(days) }
    if (await suspendPerson(user._id, body)) setReason('')
  }
  return (
    <form className="stack" aria-label={`Suspend @${user.username}`} onSubmit={(event) => void submit(event)}>
      <TextField label="Reason" value={reason} onValue={setReason} maxLength={LIMITS.reportComment} required />
      <TextField label="Days (empty: until lifted)" type="number" min={1} max={3650} value={days} onValue={setDays} />
      <div className="row-end">
        <button type="submit" className="button danger" disabled={busy || reason.trim() === ''}>
          Suspend
        </button>
      </div>
    </form>
  )
}

const ROLES: readonly Role[] = ['user', 'moderator', 'admin']

/** Admins only: a select and Save, so that a role is never changed by a stray arrow key. */
function RoleForm({ user, busy }: { user: Person; busy: boolean }) {
  const [role, setRole] = useState<Role>(user.role)
  const id = useId()
  return (
    <form
      className="field-row role-form"
      aria-label="Role"
      onSubmit={(event) => {
        event.preventDefault()
        void setPersonRole(user._id, role)
      }}
    >
      <label htmlFor={id}>Role</label>
      <select id={id} value={role} onChange={(event) => setRole(event.currentTarget.value as Role)}>
        {ROLES.map((value) => (
          <option key={value} value={value}>
            {value}
          </option>
        ))}
      </select>
      <button type="submit" className="button outline" disabled={busy || role === user.role}>
        Save role
      </button>
    </form>
  )
}

function Person({ id }: { id: string }) {
  const { person } = useSnapshot(moderatedPeople)
  const admin = useSnapshot(session).user?.role === 'admin'
  useEffect(() => {
    void loadPerson(id)
  }, [id])
  const { user } = person
  if (person.id !== id || (!user && !person.error)) return <Spinner label="Loading the account" />
  if (!user) return <LoadError message={person.error ?? ''} />
  const name = displayNameOf(user)
  return (
    <section className="person-panel stack" aria-label={`@${user.username}`}>
      <div className="moderation-row">
        <Avatar src={user.avatarURL} name={name} />
        <span className="user-names">
          <span className="author-name">{name}</span>
          <Link href={paths.profile.href(user.username)} className="author-handle">
            @{user.username}
          </Link>
        </span>
      </div>
      <p>
        Role: <strong>{user.role}</strong> · Joined {formatShortDate(user.createdAt)}
      </p>
      <p role="status">{standing(user)}</p>
      {user.pending ? (
        <div className="row-end">
          <button type="button" className="button outline" onClick={() => void decideSignup(user._id, false)}>
            Reject signup
          </button>
          <button type="button" className="button dark" onClick={() => void decideSignup(user._id, true)}>
            Approve signup
          </button>
        </div>
      ) : user.suspension ? (
        <div className="row-end">
          <button
            type="button"
            className="button dark"
            disabled={person.busy}
            onClick={() => void unsuspendPerson(user._id)}
          >
            Lift the suspension
          </button>
        </div>
      ) : (
        <SuspendForm user={user} busy={person.busy} />
      )}
      {admin && <RoleForm key={user.role} user={user} busy={person.busy} />}
    </section>
  )
}

/** /moderation/users/:id: one account as moderators see it, and what they may do to it. */
export function ModerationPersonPage({ id }: { id: string }) {
  useDocumentTitle('Account · Moderation')
  return (
    <StaffOnly title="Account">
      <Person id={id} />
    </StaffOnly>
  )
}
