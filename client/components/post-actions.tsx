import type { ShareLimit } from '../lib/audience.js'
import { BookmarkIcon, CommentIcon, HeartIcon, ShareIcon } from './icons.js'
import { RepostMenu } from './repost-menu.js'

type PostActionsProps = {
  commentCount: number
  likeCount: number
  liked: boolean
  bookmarked: boolean
  commentsOpen: boolean
  onToggleComments: () => void
  repostCount: number
  reposted: boolean
  onToggleRepost: () => void
  onQuote: () => void
  /** Why the post cannot be reposted (or quoted) by this reader, when it cannot. */
  shareLimit?: ShareLimit | null | undefined
  onToggleLike: () => void
  onShare: () => void
  /** Share opens the browser's share sheet rather than copying the link. */
  shareSheet: boolean
  onToggleBookmark: () => void
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`

/** The action row under a post; each button's name says what it does and the count beside it. */
export function PostActions(props: PostActionsProps) {
  const { commentCount, likeCount, liked, bookmarked, commentsOpen, shareSheet } = props
  return (
    <div className="post-actions">
      <button
        type="button"
        className="action comment-action"
        aria-expanded={commentsOpen}
        aria-label={`Comments, ${plural(commentCount, 'comment')}`}
        onClick={props.onToggleComments}
      >
        <CommentIcon />
        <span aria-hidden="true">{commentCount}</span>
      </button>
      <RepostMenu
        reposted={props.reposted}
        repostCount={props.repostCount}
        onToggleRepost={props.onToggleRepost}
        onQuote={props.onQuote}
        limit={props.shareLimit}
      />
      <button
        type="button"
        className={`action like-action${liked ? ' is-on' : ''}`}
        aria-pressed={liked}
        aria-label={`${liked ? 'Unlike' : 'Like'}, ${plural(likeCount, 'like')}`}
        onClick={props.onToggleLike}
      >
        <HeartIcon filled={liked} />
        <span aria-hidden="true">{likeCount}</span>
      </button>
      <button
        type="button"
        className="action share-action"
        aria-label={shareSheet ? 'Share' : 'Share: copy link'}
        onClick={props.onShare}
      >
        <ShareIcon />
      </button>
      <button
        type="button"
        className={`action bookmark-action${bookmarked ? ' is-on' : ''}`}
        aria-pressed={bookmarked}
        aria-label={bookmarked ? 'Remove bookmark' : 'Bookmark'}
        onClick={props.onToggleBookmark}
      >
        <BookmarkIcon filled={bookmarked} />
      </button>
    </div>
  )
}
