import { Link } from 'wouter'
import { actionText, actorsText, type NotificationGroup } from '../lib/notification-groups.js'
import { displayNameOf } from '../lib/model.js'
import { formatFullDate, relativeTime } from '../lib/relative-time.js'
import { paths } from '../paths.js'
import { Avatar } from './avatar.js'
import { FollowButton } from './follow-button.js'
import { AtIcon, CommentIcon, FollowIcon, HeartIcon, LockIcon, PollIcon, QuoteIcon, RepostIcon } from './icons.js'
import { MentionReply } from './mention-reply.js'

/** How many faces a grouped row shows; the text counts the rest. */
const MAX_AVATARS = 6

const ICONS = {
  like: <HeartIcon filled />,
  comment: <CommentIcon />,
  mention: <AtIcon />,
  follow: <FollowIcon />,
  follow_request: <LockIcon />,
  reply: <CommentIcon />,
  poll: <PollIcon />,
  repost: <RepostIcon />,
  quote: <QuoteIcon />,
} as const

/** Where the row leads: the post it is about, for a follow the follower's profile, for requests the list of them. */
function target(group: NotificationGroup): string {
  const post = group.newest.post
  const first = group.actors[0]
  if (group.type === 'follow_request') return paths.followRequests.href()
  if (group.type !== 'follow' && post) return paths.postDetail.href(post._id)
  return first ? paths.profile.href(first.username) : paths.notifications.href()
}

/**
 * The words quoted under the row: the reply or mention itself, the post that was liked or reposted, or the
 * quote; collapsed to the titles of the reader's `warn` filters it matches (DECISIONS §15), the words
 * themselves not drawn.
 */
function excerpt(group: NotificationGroup): { text: string; filtered: boolean } {
  if (group.type === 'follow' || group.type === 'follow_request') return { text: '', filtered: false }
  const titles = (group.newest.filtered ?? []).map((result) => result.filter.title)
  if (titles.length > 0) return { text: `Filtered: ${titles.join(', ')}`, filtered: true }
  return { text: group.newest.comment?.text ?? group.newest.post?.content ?? '', filtered: false }
}

export type NotificationRowProps = {
  group: NotificationGroup
  now: number
  /** On a follow: whether I follow the newest follower back, and the way to. */
  followBack?: { following: boolean; requested?: boolean; busy: boolean; onToggle: () => void } | undefined
  /** On a mention: answers it with a comment on its post. */
  onReply?: ((text: string) => Promise<boolean>) | undefined
}

/**
 * One row of the notifications page: who (by name), what, the words it is about, and when; the row is a
 * link, with a follow back on a follow and a reply on a mention beside it.
 */
export function NotificationRow({ group, now, followBack, onReply }: NotificationRowProps) {
  const quote = excerpt(group)
  const { createdAt } = group.newest
  const first = group.actors[0]
  return (
    <li className={group.unread ? 'notification is-unread' : 'notification'}>
      <Link href={target(group)} className="notification-link">
        <span className={`notification-icon is-${group.type}`}>{ICONS[group.type]}</span>
        <span className="notification-body">
          <span className="notification-faces">
            {group.actors.slice(0, MAX_AVATARS).map((actor) => (
              <Avatar key={actor._id} src={actor.avatarURL} name={displayNameOf(actor)} size="xs" decorative />
            ))}
          </span>
          <span className="notification-text">
            {group.unread && <span className="visually-hidden">New: </span>}
            <strong>{actorsText(group.actors)}</strong>
            {first && group.actors.length === 1 && <span className="notification-handle"> @{first.username}</span>}{' '}
            {actionText(group)}
            <span className="dot" aria-hidden="true">
              {' · '}
            </span>
            <time className="notification-time" dateTime={createdAt} title={formatFullDate(createdAt)}>
              {relativeTime(createdAt, now)}
            </time>
          </span>
          {quote.text && (
            <span className={quote.filtered ? 'notification-excerpt is-filtered' : 'notification-excerpt'}>
              {quote.text}
            </span>
          )}
        </span>
      </Link>
      {first && followBack && !followBack.following && (
        <div className="notification-actions">
          <FollowButton
            following={false}
            requested={followBack.requested}
            busy={followBack.busy}
            name={displayNameOf(first)}
            onToggle={followBack.onToggle}
          />
        </div>
      )}
      {first && onReply && (
        <div className="notification-actions">
          <MentionReply to={first} onReply={onReply} />
        </div>
      )}
    </li>
  )
}
