import { useId, useState, type FormEvent } from 'react'
import type { PostView } from '../lib/model.js'
import { useNow } from '../lib/use-now.js'

type PollView = NonNullable<PostView['poll']>

type PollCardProps = {
  poll: PollView
  /** The time to draw it at; without it, the shared clock's (only the poll draws again at each tick). */
  now?: number | undefined
  /** Sends the vote; without it (a visitor) the poll shows but cannot be voted in. */
  onVote?: ((choice: number) => Promise<boolean>) | undefined
}

const HOUR = 3_600_000
const DAY = 24 * HOUR

/** "3 days left", "5 hours left", "less than an hour left". */
function timeLeft(closesAt: string, now: number): string {
  const left = Date.parse(closesAt) - now
  if (left >= DAY) return plural(Math.floor(left / DAY), 'day')
  if (left >= HOUR) return plural(Math.floor(left / HOUR), 'hour')
  if (left >= 60_000) return plural(Math.floor(left / 60_000), 'minute')
  return 'less than a minute left'
}
const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'} left`

/**
 * A post's poll: radio buttons and Vote while the reader may vote, then bars with each option's share
 * and count once the server shows the counts (after their vote, or once the poll closed).
 */
export function PollCard({ poll, now: given, onVote }: PollCardProps) {
  const live = useNow()
  const now = given ?? live
  const [choice, setChoice] = useState<number | null>(null)
  const [sending, setSending] = useState(false)
  const name = useId()
  // The server closes a poll by the clock too: past closesAt it is closed, whatever the post read said.
  const closed = poll.closed || Date.parse(poll.closesAt) <= now
  const status = closed ? 'Closed' : timeLeft(poll.closesAt, now)
  const total = poll.votes ?? 0
  const summary = `${poll.votes === null ? '' : `${total} vote${total === 1 ? '' : 's'} · `}${status}`

  if (poll.votes === null && !closed && onVote) {
    const vote = async (event: FormEvent) => {
      event.preventDefault()
      if (choice === null || sending) return
      setSending(true)
      await onVote(choice)
      setSending(false)
    }
    return (
      <form className="poll" onSubmit={(event) => void vote(event)}>
        <fieldset>
          <legend className="visually-hidden">Poll</legend>
          {poll.options.map((option, i) => (
            <label key={i} className="poll-choice">
              <input
                type="radio"
                name={name}
                value={i}
                checked={choice === i}
                onChange={() => setChoice(i)}
                disabled={sending}
              />{' '}
              {option.text}
            </label>
          ))}
        </fieldset>
        <div className="poll-foot">
          <button type="submit" className="button primary small" disabled={choice === null || sending}>
            Vote
          </button>
          <span className="poll-status">{summary}</span>
        </div>
      </form>
    )
  }

  return (
    <div className="poll" role="group" aria-label="Poll results">
      <ul className="poll-results">
        {poll.options.map((option, i) => {
          const votes = option.votes ?? 0
          const share = total > 0 ? Math.round((votes / total) * 100) : 0
          return (
            <li key={i} className={poll.voted === i ? 'poll-result is-mine' : 'poll-result'}>
              <span className="poll-bar" style={{ width: `${share}%` }} aria-hidden="true" />
              <span className="poll-text">
                {option.text}
                {poll.voted === i && <span className="poll-mine"> (your vote)</span>}
              </span>
              <span className="poll-share">
                {option.votes === null ? '' : `${share}% · ${votes} vote${votes === 1 ? '' : 's'}`}
              </span>
            </li>
          )
        })}
      </ul>
      <p className="poll-status">{summary}</p>
    </div>
  )
}
