import { useId, useState } from 'react'
import { restrictConfirmation, type Restriction } from '../lib/restrict-text.js'
import { ConfirmDialog } from './confirm-dialog.js'

/** How long a mute can last, as the mute dialog offers it: seconds, or none for until unmuted. */
const MUTE_DURATIONS: readonly { label: string; seconds: number | undefined }[] = [
  { label: '1 hour', seconds: 3_600 },
  { label: '1 day', seconds: 86_400 },
  { label: '7 days', seconds: 604_800 },
  { label: 'Until I unmute', seconds: undefined },
]

type RestrictDialogProps = {
  kind: Restriction
  username: string
  /** With a mute's length in seconds; none for a block, or a mute until unmuted. */
  onConfirm: (duration: number | undefined) => void
  onCancel: () => void
}

/** Asks before muting or blocking someone; a mute also asks for how long. */
export function RestrictDialog({ kind, username, onConfirm, onCancel }: RestrictDialogProps) {
  const id = useId()
  const [chosen, setChosen] = useState(MUTE_DURATIONS.length - 1)
  return (
    <ConfirmDialog
      {...restrictConfirmation(kind, username)}
      onConfirm={() => onConfirm(kind === 'mute' ? MUTE_DURATIONS[chosen]?.seconds : undefined)}
      onCancel={onCancel}
    >
      {kind === 'mute' && (
        <fieldset className="choice-list">
          <legend>Mute for</legend>
          {MUTE_DURATIONS.map((option, i) => (
            <label key={option.label} className="choice">
              <input type="radio" name={`${id}-duration`} checked={chosen === i} onChange={() => setChosen(i)} />
              <span>{option.label}</span>
            </label>
          ))}
        </fieldset>
      )}
    </ConfirmDialog>
  )
}
