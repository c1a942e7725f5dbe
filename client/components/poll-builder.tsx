import { useId } from 'react'
import { LIMITS } from '../../common/limits.js'

export type PollDraft = { options: string[]; days: number }

/** The server's limits on a poll (DECISIONS §10). */
const { minOptions: MIN_OPTIONS, maxOptions: MAX_OPTIONS, option: MAX_OPTION, minDays, maxDays } = LIMITS.poll
const DAYS = Array.from({ length: maxDays - minDays + 1 }, (_, i) => minDays + i)

export const emptyPoll = (): PollDraft => ({ options: ['', ''], days: 1 })

type PollBuilderProps = {
  poll: PollDraft
  locked: boolean
  onChange: (poll: PollDraft) => void
}

/** The composer's poll: 2 to 4 options, each removable past the second, and how many days it stays open. */
export function PollBuilder({ poll, locked, onChange }: PollBuilderProps) {
  const daysId = useId()
  const setOption = (index: number, text: string) =>
    onChange({ ...poll, options: poll.options.map((option, i) => (i === index ? text : option)) })
  return (
    <fieldset className="poll-builder">
      <legend className="visually-hidden">Poll</legend>
      {poll.options.map((option, i) => (
        <div key={i} className="poll-builder-row">
          <input
            type="text"
            className="text-input"
            aria-label={`Option ${i + 1}`}
            placeholder={`Option ${i + 1}`}
            maxLength={MAX_OPTION}
            value={option}
            readOnly={locked}
            onChange={(e) => setOption(i, e.currentTarget.value)}
          />
          {poll.options.length > MIN_OPTIONS && (
            <button
              type="button"
              className="button ghost small"
              aria-label={`Remove option ${i + 1}`}
              disabled={locked}
              onClick={() => onChange({ ...poll, options: poll.options.filter((_, j) => j !== i) })}
            >
              Remove
            </button>
          )}
        </div>
      ))}
      <div className="poll-builder-row">
        {poll.options.length < MAX_OPTIONS && (
          <button
            type="button"
            className="button outline small"
            disabled={locked}
            onClick={() => onChange({ ...poll, options: [...poll.options, ''] })}
          >
            Add option
          </button>
        )}
        <label htmlFor={daysId}>Poll length</label>
        <select
          id={daysId}
          value={poll.days}
          disabled={locked}
          onChange={(e) => onChange({ ...poll, days: Number(e.currentTarget.value) })}
        >
          {DAYS.map((days) => (
            <option key={days} value={days}>
              {days} {days === 1 ? 'day' : 'days'}
            </option>
          ))}
        </select>
      </div>
    </fieldset>
  )
}

/** Whether every option holds something to vote for. */
export const pollReady = (poll: PollDraft) => poll.options.every((option) => option.trim() !== '')
