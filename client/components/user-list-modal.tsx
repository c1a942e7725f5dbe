import { displayNameOf, type UserSummaryView } from '../lib/model.js'
import { FollowButton } from './follow-button.js'
import { Modal } from './modal.js'
import { UserCard } from './user-card.js'

type UserListModalProps = {
  title: string
  users: readonly UserSummaryView[]
  emptyText: string
  /** The signed-in user's id: no follow toggle on oneself. */
  meId: string
  isFollowing: (userId: string) => boolean
  isRequested: (userId: string) => boolean
  pending: Readonly<Record<string, boolean>>
  onToggleFollow: (userId: string) => void
  onClose: () => void
}

/** A profile's Following or Followers list, each person a link with a Follow/Following toggle. */
export function UserListModal(props: UserListModalProps) {
  const { title, users, emptyText, meId, onClose } = props
  return (
    <Modal title={title} onClose={onClose}>
      {users.length === 0 ? (
        <p className="empty-state small">{emptyText}</p>
      ) : (
        <ul className="user-list">
          {users.map((user) => (
            <li key={user._id} className="user-row">
              <UserCard user={user} onOpen={onClose} />
              {user._id !== meId && (
                <FollowButton
                  following={props.isFollowing(user._id)}
                  requested={props.isRequested(user._id)}
                  busy={props.pending[user._id] === true}
                  name={displayNameOf(user)}
                  onToggle={() => props.onToggleFollow(user._id)}
                />
              )}
            </li>
          ))}
        </ul>
      )}
    </Modal>
  )
}
