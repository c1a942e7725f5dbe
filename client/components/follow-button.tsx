type FollowButtonProps = { following: boolean; busy: boolean; name: string; onToggle: () => void }

/**
 * Follow or Following; the hover text on Following tells that a click unfollows. It stays clickable while
 * a write is on its way (`busy`): the follow queue sends the latest click once that write is back.
 */
export function FollowButton({ following, busy, name, onToggle }: FollowButtonProps) {
  return (
    <button
      type="button"
      className={following ? 'button outline small follow-button is-following' : 'button dark small follow-button'}
      aria-pressed={following}
      aria-label={`${following ? 'Following' : 'Follow'} ${name}`}
      title={following ? `Unfollow ${name}` : undefined}
      aria-busy={busy}
      onClick={onToggle}
    >
      {following ? 'Following' : 'Follow'}
    </button>
  )
}
