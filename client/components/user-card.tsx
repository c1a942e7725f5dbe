import { Link } from 'wouter'
import { displayNameOf, type UserSummaryView } from '../lib/model.js'
import { paths } from '../paths.js'
import { Avatar } from './avatar.js'

/** A person in a list: picture, name and @username, the whole of it a link to their profile. */
export function UserCard({ user, onOpen }: { user: UserSummaryView; onOpen?: () => void }) {
  const name = displayNameOf(user)
  return (
    <Link href={paths.profile.href(user.username)} className="user-card" onClick={onOpen}>
      <Avatar src={user.avatarURL} name={name} size="sm" />
      <span className="user-names">
        <span className="author-name">{name}</span>
        <span className="author-handle">@{user.username}</span>
      </span>
    </Link>
  )
}
