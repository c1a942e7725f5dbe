import { Link } from 'wouter'
import { actionText, actorsText, type NotificationGroup } from '../lib/notification-groups.js'
import { fullName } from '../lib/model.js'
import { formatFullDate, relativeTime } from '../lib/relative-time.js'
import { paths } from '../paths.js'
import { Avatar } from './avatar.js'
import { AtIcon, CommentIcon, FollowIcon, HeartIcon } from './icons.js'

/** How many faces a grouped row shows; the text counts the rest. */
const MAX_AVATARS = 6

const ICONS = {
  like: <HeartIcon filled />,
  comment: <CommentIcon />,
  mention: <AtIcon />,
  follow: <FollowIcon />,
} as const

/** Where the row leads: the post it is about, or for a follow the follower's profile. */
function target(group: NotificationGroup): string {
  const post = group.newest.post
  const first = group.actors[0]
  if (group.type !== 'follow' && post) return paths.postDetail.href(post._id)
  return first ? paths.profile.href(first.username) : paths.notifications.href()
}

/** The words quoted under the row: the reply or mention itself, or the post that was liked. */
function excerpt(group: NotificationGroup): string {
  if (group.type === 'follow') return ''
  return group.newest.comment?.text ?? group.newest.post?.content ?? ''
}

/** One row of the notifications page: who, what, the words it is about, and when; the whole row is a link. */
export function NotificationRow({ group, now }: { group: NotificationGroup; now: number }) {
  const quote = excerpt(group)
  const { createdAt } = group.newest
  return (
    <li className={group.unread ? 'notification is-unread' : 'notification'}>
      <Link href={target(group)} className="notification-link">
        <span className={`notification-icon is-${group.type}`}>{ICONS[group.type]}</span>
        <span className="notification-body">
          <span className="notification-faces">
            {group.actors.slice(0, MAX_AVATARS).map((actor) => (
              <Avatar key={actor._id} src={actor.avatarURL} name={fullName(actor)} size="xs" decorative />
            ))}
          </span>
          <span className="notification-text">
            {group.unread && <span className="visually-hidden">New: </span>}
            <strong>{actorsText(group.actors)}</strong> {actionText(group)}
            <span className="dot" aria-hidden="true">
              {' · '}
            </span>
            <time className="notification-time" dateTime={createdAt} title={formatFullDate(createdAt)}>
              {relativeTime(createdAt, now)}
            </time>
          </span>
          {quote && <span className="notification-excerpt">{quote}</span>}
        </span>
      </Link>
    </li>
  )
}
