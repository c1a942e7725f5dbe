type CharRingProps = { used: number; max: number; id: string }

const RADIUS = 10
const CIRCUMFERENCE = 2 * Math.PI * RADIUS

/**
 * How much of the limit is used, as a ring that fills, with the characters left beside it from the
 * first keystroke. Its text (`id`) describes the text box; near the end it is also announced.
 */
export function CharRing({ used, max, id }: CharRingProps) {
  const left = max - used
  const state = left <= 0 ? 'is-full' : left <= 20 ? 'is-near' : ''
  const filled = Math.min(1, used / max) * CIRCUMFERENCE
  return (
    <span className={`char-ring ${state}`}>
      <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" focusable="false">
        <circle className="char-ring-track" cx="12" cy="12" r={RADIUS} />
        <circle className="char-ring-fill" cx="12" cy="12" r={RADIUS} strokeDasharray={`${filled} ${CIRCUMFERENCE}`} />
      </svg>
      <span className="char-left" aria-hidden="true">
        {left}
      </span>
      <span id={id} className="visually-hidden">
        {left === 1 ? '1 character left' : `${left} characters left`}
      </span>
      <span className="visually-hidden" aria-live="polite">
        {left <= 20 ? `${left} left` : ''}
      </span>
    </span>
  )
}
