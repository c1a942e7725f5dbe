import { displayNameOf, type UserSummaryView } from '../lib/model.js'
import { FollowButton } from './follow-button.js'
import { UserCard } from './user-card.js'

type PersonRowProps = {
  user: UserSummaryView & { readonly bio?: string }
  /** No toggle on oneself. */
  isMe: boolean
  following: boolean
  /** My request to follow them (a locked account) waits for their answer. */
  requested?: boolean
  busy: boolean
  onToggleFollow: () => void
}

/** A person found: the card linking to their profile, their bio under it, and Follow or Following. */
export function PersonRow({ user, isMe, following, requested = false, busy, onToggleFollow }: PersonRowProps) {
  return (
    <li className="person-row">
      <div className="user-row">
        <UserCard user={user} />
        {!isMe && (
          <FollowButton
            following={following}
            requested={requested}
            busy={busy}
            name={displayNameOf(user)}
            onToggle={onToggleFollow}
          />
        )}
      </div>
      {user.bio && <p className="person-bio">{user.bio}</p>}
    </li>
  )
}
