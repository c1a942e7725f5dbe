type FollowButtonProps = {
  following: boolean
  /** My request to follow this locked account waits for their answer. */
  requested?: boolean
  busy: boolean
  name: string
  onToggle: () => void
}

/**
 * Follow, Following, or Requested while a locked account has not answered my request; the hover text
 * tells what a click does then (unfollow, withdraw the request). It stays clickable while a write is on
 * its way (`busy`): the follow queue sends the latest click once that write is back.
 */
export function FollowButton({ following, requested = false, busy, name, onToggle }: FollowButtonProps) {
  const on = following || requested
  const [text, label, title] = following
    ? ['Following', `Following ${name}`, `Unfollow ${name}`]
    : requested
      ? ['Requested', `Requested: follow request to ${name}`, `Withdraw the follow request to ${name}`]
      : ['Follow', `Follow ${name}`, undefined]
  return (
    <button
      type="button"
      className={on ? 'button outline small follow-button is-following' : 'button dark small follow-button'}
      aria-pressed={on}
      aria-label={label}
      title={title}
      aria-busy={busy}
      onClick={onToggle}
    >
      {text}
    </button>
  )
}
