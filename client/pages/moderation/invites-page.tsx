import { useEffect, useState, type FormEvent } from 'react'
import { useSnapshot } from 'valtio'
import { PagedView } from '../../components/paged-view.js'
import { TextField } from '../../components/text-field.js'
import { useDocumentTitle } from '../../lib/document-title.js'
import { formatShortDate } from '../../lib/relative-time.js'
import { createInvite, loadInvites, moderatedPeople } from '../../state/moderated-people.js'
import { StaffOnly } from './staff-only.js'

/** A whole number typed in a field, or undefined when left empty. */
const count = (text: string) => (text.trim() === '' ? undefined : Number(text))

function NewInvite() {
  const [uses, setUses] = useState('1')
  const [days, setDays] = useState('')
  const [busy, setBusy] = useState(false)
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    setBusy(true)
    const asked = { uses: count(uses), days: count(days) }
    await createInvite(Object.fromEntries(Object.entries(asked).filter(([, value]) => value !== undefined)))
    setBusy(false)
  }
  return (
    <form className="stack invite-form" aria-label="New invite" onSubmit={(event) => void submit(event)}>
      <div className="field-row">
        <TextField label="Uses" type="number" min={1} max={1000} value={uses} onValue={setUses} required />
        <TextField label="Days valid (empty: no end)" type="number" min={1} max={365} value={days} onValue={setDays} />
      </div>
      <div className="row-end">
        <button type="submit" className="button dark" disabled={busy}>
          Create invite
        </button>
      </div>
    </form>
  )
}

function Invites() {
  const { invites } = useSnapshot(moderatedPeople)
  useEffect(() => {
    void loadInvites()
  }, [])
  return (
    <>
      <NewInvite />
      <PagedView
        state={invites}
        label="Invites"
        empty="No invites yet."
        end="That's every invite."
        onLoad={(more) => void loadInvites(more)}
      >
        {invites.items.map((invite) => (
          <li key={invite.code} className="moderation-row">
            <code className="invite-code">{invite.code}</code>
            <span className="report-meta">
              {invite.used} of {invite.uses} used ·{' '}
              {invite.expiresAt ? `until ${formatShortDate(invite.expiresAt)}` : 'no end'}
            </span>
          </li>
        ))}
      </PagedView>
    </>
  )
}

/** /moderation/invites: codes that let people sign up when REGISTRATION=invite. */
export function ModerationInvitesPage() {
  useDocumentTitle('Invites · Moderation')
  return (
    <StaffOnly title="Invites">
      <Invites />
    </StaffOnly>
  )
}
