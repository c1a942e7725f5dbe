import { displayNameOf, type UserView } from '../lib/model.js'
import { FollowButton } from './follow-button.js'
import { CloseIcon } from './icon.js'
import { LoadError } from './load-error.js'
import { UserCard } from './user-card.js'

type WhoToFollowProps = {
  users: readonly UserView[]
  loaded: boolean
  pending: Readonly<Record<string, boolean>>
  /** Locked accounts I asked to follow, whose answer waits. */
  requested?: Readonly<Record<string, boolean>>
  onFollow: (userId: string) => void
  /** Stops suggesting someone; without it, no such button. */
  onDismiss?: (userId: string) => void
  /** Why the suggestions could not be loaded, with a way to try again. */
  error?: string | null
  onRetry?: () => void
}

/** The side panel: people I do not follow yet, each a link to the profile with a Follow button. */
export function WhoToFollow({
  users,
  loaded,
  pending,
  requested = {},
  onFollow,
  onDismiss,
  error,
  onRetry,
}: WhoToFollowProps) {
  return (
    <section className="panel">
      <h2 className="panel-title">Who to follow</h2>
      {error && users.length === 0 ? (
        <LoadError message={error} onRetry={onRetry} small />
      ) : (
        loaded && users.length === 0 && <p className="empty-state small">No more suggestions!</p>
      )}
      <ul className="user-list">
        {users.map((user) => (
          <li key={user._id} className="user-row">
            <UserCard user={user} />
            <FollowButton
              following={false}
              requested={requested[user._id] === true}
              busy={pending[user._id] === true}
              name={displayNameOf(user)}
              onToggle={() => onFollow(user._id)}
            />
            {onDismiss && (
              <button
                type="button"
                className="icon-button dismiss-suggestion"
                aria-label={`Don't suggest ${displayNameOf(user)}`}
                title="Don't suggest"
                onClick={() => onDismiss(user._id)}
              >
                <CloseIcon />
              </button>
            )}
          </li>
        ))}
      </ul>
    </section>
  )
}
