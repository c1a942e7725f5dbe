import { useId } from 'react'
import type { Visibility } from '../../common/audience.js'
import { AUDIENCES, audienceOf } from '../lib/audience.js'
import { AudienceIcon } from './audience-icon.js'

type AudiencePickerProps = {
  value: Visibility
  disabled?: boolean
  onChange: (visibility: Visibility) => void
  /** The words before the select: "Audience" in the composer, "Default audience" in Settings. */
  label?: string
}

/**
 * Who may read a post: a native select, so keyboards and screen readers work as everywhere else, with
 * what the choice means said under it (and read out with it).
 */
export function AudiencePicker({ value, disabled = false, onChange, label = 'Audience' }: AudiencePickerProps) {
  const id = useId()
  const hintId = useId()
  return (
    <div className="audience-picker">
      <div className="audience-choice">
        <AudienceIcon visibility={value} />
        <label htmlFor={id}>{label}</label>
        <select
          id={id}
          value={value}
          disabled={disabled}
          aria-describedby={hintId}
          onChange={(event) => {
            const chosen = AUDIENCES.find((audience) => audience.value === event.currentTarget.value)
            if (chosen) onChange(chosen.value)
          }}
        >
          {AUDIENCES.map((audience) => (
            <option key={audience.value} value={audience.value}>
              {audience.label}
            </option>
          ))}
        </select>
      </div>
      <p id={hintId} className="form-note audience-hint">
        {audienceOf(value).hint}
      </p>
    </div>
  )
}
