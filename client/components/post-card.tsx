import { Link } from 'wouter'
import { fullName, type PostView } from '../lib/model.js'
import { relativeTime } from '../lib/relative-time.js'
import { paths } from '../paths.js'
import { Avatar } from './avatar.js'
import { CommentsSection, type CommentHandlers } from './comments-section.js'
import { Menu } from './menu.js'
import { PostActions } from './post-actions.js'

export type PostCardProps = {
  post: PostView
  /** The signed-in user's username. */
  me: string
  liked: boolean
  bookmarked: boolean
  commentsOpen: boolean
  now?: number
  onToggleComments: () => void
  onToggleLike: () => void
  onShare: () => void
  onToggleBookmark: () => void
  onEdit: () => void
  onDelete: () => void
  comments: CommentHandlers
}

/** One post as SPEC §2 draws it: author, time, text, image, actions, and the comments area on demand. */
export function PostCard(props: PostCardProps) {
  const { post, me, now = Date.now() } = props
  const profile = paths.profile.href(post.username)
  const name = fullName(post)
  const isOwner = post.username === me
  return (
    <article className="post-card" aria-label={`Post by ${name}`}>
      <Link href={profile} className="post-avatar" aria-label={`${name}'s profile`}>
        <Avatar src={post.avatarURL} name={name} />
      </Link>
      <div className="post-main">
        <header className="post-head">
          <Link href={profile} className="post-author">
            <span className="author-name">{name}</span>
            <span className="author-handle">@{post.username}</span>
          </Link>
          <span className="dot" aria-hidden="true">
            ·
          </span>
          <time className="post-time" dateTime={post.createdAt} title={new Date(post.createdAt).toLocaleString()}>
            {relativeTime(post.createdAt, now)}
          </time>
          {isOwner && (
            <Menu
              label="Post options"
              items={[
                { label: 'Edit Post', onSelect: props.onEdit },
                { label: 'Delete Post', onSelect: props.onDelete, danger: true },
              ]}
            />
          )}
        </header>
        {post.content && <p className="post-content">{post.content}</p>}
        {post.mediaUrl && (
          <Link href={paths.postDetail.href(post.id)} className="post-media" aria-label="Open post">
            <img src={post.mediaUrl} alt={`Image posted by ${name}`} loading="lazy" />
          </Link>
        )}
        <PostActions
          commentCount={post.comments.length}
          likeCount={post.likes.likeCount}
          liked={props.liked}
          bookmarked={props.bookmarked}
          commentsOpen={props.commentsOpen}
          onToggleComments={props.onToggleComments}
          onToggleLike={props.onToggleLike}
          onShare={props.onShare}
          onToggleBookmark={props.onToggleBookmark}
        />
        {props.commentsOpen && (
          <CommentsSection
            comments={post.comments}
            me={me}
            postOwner={post.username}
            now={now}
            handlers={props.comments}
          />
        )}
      </div>
    </article>
  )
}
