import { paths } from '../paths.js'
import { Avatar } from './avatar.js'
import { DotsIcon } from './icons.js'
import { Menu } from './menu.js'

type AccountMenuProps = {
  username: string
  name: string
  avatarURL: string
  onLogout: () => void
  onShowShortcuts: () => void
  /** "Follow requests (3)" when people wait for my answer; no item otherwise. */
  followRequests?: string | undefined
}

/**
 * The signed-in account as Twitter and Mastodon show it: the avatar (with the name where there is room)
 * opens a menu with the profile and logging out, so logging out is never one stray tap away.
 */
export function AccountMenu({
  username,
  name,
  avatarURL,
  onLogout,
  onShowShortcuts,
  followRequests,
}: AccountMenuProps) {
  return (
    <Menu
      label="Account menu"
      className="account-menu"
      trigger={
        <>
          <Avatar src={avatarURL} name="" size="sm" />
          {/* Named by what it shows, so speech input can say the name seen on screen. */}
          <span className="visually-hidden">Account menu</span>
          <span className="account-names">
            <span className="author-name">{name}</span>
            <span className="author-handle">@{username}</span>
          </span>
          <DotsIcon />
        </>
      }
      items={[
        { label: 'Profile', href: paths.profile.href(username) },
        ...(followRequests ? [{ label: followRequests, href: paths.followRequests.href() }] : []),
        { label: 'Settings', href: paths.settings.href() },
        { label: 'Keyboard shortcuts', onSelect: onShowShortcuts },
        { label: `Log out @${username}`, onSelect: onLogout },
      ]}
    />
  )
}
