import { displayNameOf, type UserView } from '../lib/model.js'
import { formatShortDate } from '../lib/relative-time.js'
import { restrictItems, type Restriction } from '../lib/restrict-text.js'
import { Avatar } from './avatar.js'
import { FollowButton } from './follow-button.js'
import { LinkIcon, LockIcon } from './icons.js'
import { Menu } from './menu.js'
import { EmojiText } from './rich-text.js'
import { webAddress } from './remote-html.js'

type ProfileHeaderProps = {
  user: UserView
  /** The true number of the user's posts; undefined until known. */
  postCount: number | undefined
  isMe: boolean
  following: boolean
  /** My request to follow them (a locked account) waits for their answer. */
  requested?: boolean
  followBusy: boolean
  onEditProfile: () => void
  onToggleFollow: () => void
  onShowFollowing: () => void
  onShowFollowers: () => void
  /** Someone else's profile: they can be muted or blocked from its menu (after asking). */
  onRestrict?: (kind: Restriction) => void
  /** Someone else's profile: they can be reported from its menu. */
  onReport?: () => void
}

/**
 * Only http(s) links without credentials are made clickable, whatever a record holds. The text shown is
 * the parsed address, so a look-alike Unicode host shows as its punycode form rather than passing for another.
 */
function safeLink(url: string): { href: string; text: string } | null {
  try {
    const parsed = new URL(url)
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null
    if (parsed.username || parsed.password) return null
    const path = parsed.pathname === '/' ? '' : parsed.pathname
    return { href: parsed.href, text: `${parsed.host}${path}${parsed.search}` }
  } catch {
    return null
  }
}

/** The top of a profile: who they are, the counts, and Edit Profile or Follow. */
export function ProfileHeader(props: ProfileHeaderProps) {
  const { user, postCount, isMe } = props
  const name = displayNameOf(user)
  const website = user.website ? safeLink(user.website) : null
  // A person of another server (DECISIONS §14): their page there.
  const home = user.remote ? webAddress(user.url) : null
  return (
    <section className="profile-header" aria-label="Profile">
      {user.bannerURL ? (
        <img className="profile-banner" src={user.bannerURL} alt="" width="600" height="200" />
      ) : (
        <div className="profile-banner is-empty" />
      )}
      <div className="profile-top">
        <Avatar src={user.avatarURL} name={name} size="lg" />
        {isMe ? (
          <button type="button" className="button outline" onClick={props.onEditProfile}>
            Edit Profile
          </button>
        ) : (
          <div className="profile-actions">
            {props.onRestrict && (
              <Menu
                label="Profile options"
                items={restrictItems(
                  user.username,
                  props.onRestrict,
                  props.onReport && { what: `@${user.username}`, onReport: props.onReport },
                )}
              />
            )}
            <FollowButton
              following={props.following}
              requested={props.requested}
              busy={props.followBusy}
              name={name}
              onToggle={props.onToggleFollow}
            />
          </div>
        )}
      </div>
      <h1 className="profile-name">
        <EmojiText text={name} emojis={user.emojis} />
      </h1>
      <p className="profile-handle">
        <span className="author-handle">@{user.username}</span>
        {user.locked && (
          <span className="profile-lock" role="img" aria-label="Locked account" title="Locked account">
            <LockIcon />
          </span>
        )}
      </p>
      {user.locked && !isMe && !props.following && (
        <p className="profile-note">
          {props.requested
            ? `Your request waits for @${user.username}'s answer. Until then you see only their public posts.`
            : `@${user.username} approves who can follow them. Followers-only posts show once they accept.`}
        </p>
      )}
      {user.bio && (
        <p className="profile-bio">
          <EmojiText text={user.bio} emojis={user.emojis} />
        </p>
      )}
      <div className="profile-meta">
        {website && (
          <a className="profile-website" href={website.href} target="_blank" rel="noopener noreferrer nofollow">
            <LinkIcon />
            {website.text}
          </a>
        )}
        {home && (
          <a className="profile-website" href={home.href} target="_blank" rel="noopener noreferrer nofollow">
            <LinkIcon />
            Their profile on {home.host}
          </a>
        )}
        <span className="profile-joined">
          {user.remote ? 'Known here since' : 'Joined'} {formatShortDate(user.createdAt)}
        </span>
      </div>
      <div className="profile-counts">
        <span className="count">
          <strong>{postCount ?? '–'}</strong> {postCount === 1 ? 'Post' : 'Posts'}
        </span>
        <button type="button" className="count link-like" onClick={props.onShowFollowing}>
          <strong>{user.following.length}</strong> Following
        </button>
        <button type="button" className="count link-like" onClick={props.onShowFollowers}>
          <strong>{user.followers.length}</strong> {user.followers.length === 1 ? 'Follower' : 'Followers'}
        </button>
      </div>
    </section>
  )
}
