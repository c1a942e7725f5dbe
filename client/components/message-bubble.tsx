import { Link } from 'wouter'
import { displayNameOf, mediaAlt, type PostView } from '../lib/model.js'
import { formatFullDate } from '../lib/relative-time.js'
import { paths } from '../paths.js'
import { Avatar } from './avatar.js'
import { RichText } from './rich-text.js'
import { SpoilerGate } from './spoiler-gate.js'
import { TimeAgo } from './time-ago.js'

/**
 * One message of a conversation: mine on the right, theirs on the left with their face. Its time leads to
 * the message's own page, where it can be reported or deleted as any post.
 */
export function MessageBubble({ post, mine }: { post: PostView; mine: boolean }) {
  const name = displayNameOf(post)
  return (
    <li className={mine ? 'message is-mine' : 'message'}>
      {!mine && (
        <Link href={paths.profile.href(post.username)} className="message-avatar" aria-label={`${name}'s profile`}>
          <Avatar src={post.avatarURL} name={name} size="sm" decorative />
        </Link>
      )}
      <div className="message-bubble">
        <div className="message-meta">
          <span className="author-name">{mine ? 'You' : name}</span>
          <span className="dot" aria-hidden="true">
            ·
          </span>
          <Link href={paths.postDetail.href(post._id)} className="message-time" title={formatFullDate(post.createdAt)}>
            <TimeAgo at={post.createdAt} />
          </Link>
        </div>
        <SpoilerGate warning={post.spoilerText}>
          {post.content && (
            <p className="message-text">
              <RichText text={post.content} />
            </p>
          )}
          {post.mediaUrl && <img className="message-media" src={post.mediaUrl} alt={mediaAlt(post)} loading="lazy" />}
        </SpoilerGate>
      </div>
    </li>
  )
}
