import { useId, useState } from 'react'
import { useSnapshot } from 'valtio'
import { session } from '../../state/session.js'
import { showToast } from '../../state/toasts.js'
import { editProfile } from '../../state/users.js'

/**
 * How the composer helps (DECISIONS §15): whether it asks before posting an image without a description.
 * Kept with the account, so it holds on every device; saved as soon as it changes.
 */
export function ComposingSection() {
  const { user } = useSnapshot(session)
  const [saving, setSaving] = useState(false)
  // The box shows the choice at once; the saved state takes over when the answer comes (or the old one).
  const [chosen, setChosen] = useState<boolean | null>(null)
  const remindId = useId()
  const hintId = useId()
  if (!user) return null
  const reminding = chosen ?? user.altTextReminder !== false

  const setReminder = async (remind: boolean) => {
    setChosen(remind)
    setSaving(true)
    const ok = await editProfile({ altTextReminder: remind }).finally(() => {
      setSaving(false)
      setChosen(null)
    })
    if (ok) showToast(remind ? 'The reminder is on' : 'The reminder is off', 'success')
  }

  return (
    <>
      <div className="setting-toggle">
        <input
          id={remindId}
          type="checkbox"
          checked={reminding}
          disabled={saving}
          aria-describedby={hintId}
          onChange={(event) => void setReminder(event.currentTarget.checked)}
        />
        <label htmlFor={remindId}>Remind me to describe images</label>
      </div>
      <p id={hintId} className="form-note">
        Before a post with an image that has no description goes, the composer asks whether to add one. A description
        tells people who cannot see the image what it shows.
      </p>
    </>
  )
}
