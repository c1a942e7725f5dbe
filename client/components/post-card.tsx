import { useCallback, useContext, useState, type MouseEvent } from 'react'
import { Link, useLocation } from 'wouter'
import { audienceOf, sharingLimit } from '../lib/audience.js'
import { leaveTo } from '../lib/draft-guard.js'
import { commentCount, displayNameOf, imageAlt, imagesOf, type CommentView, type PostView } from '../lib/model.js'
import { formatFullDate } from '../lib/relative-time.js'
import { restrictItems, type Restriction } from '../lib/restrict-text.js'
import { paths } from '../paths.js'
import { AudienceIcon } from './audience-icon.js'
import { Avatar } from './avatar.js'
import { CommentsSection, type CommentHandlers, type CommentsReading } from './comments-section.js'
import { LinkCard } from './link-card.js'
import { Menu, type MenuItem } from './menu.js'
import { PollCard } from './poll-card.js'
import { LinkIcon, PinIcon, RepostIcon } from './icons.js'
import { PostActions } from './post-actions.js'
import { QuoteCard } from './quote-card.js'
import { RemoteHtml, webAddress } from './remote-html.js'
import { EmojiText, RichText } from './rich-text.js'
import { TimeAgo } from './time-ago.js'
import { PopoverHost } from './use-popover.js'
import { SpoilerGate } from './spoiler-gate.js'

export type PostCardProps = {
  post: PostView
  /** The signed-in user's username. */
  me: string
  /** Whether the signed-in user follows the post's author, whose quote controls may ask it. */
  followsAuthor?: boolean
  liked: boolean
  bookmarked: boolean
  commentsOpen: boolean
  now?: number
  onToggleComments: () => void
  onToggleLike: () => void
  onToggleRepost: () => void
  /** Opens the composer of a quote of this post. */
  onQuote: () => void
  /** The owner's Pin or Unpin item. */
  onTogglePin?: () => void
  /** In the home feed, on a post there because someone reposted it. */
  repostedBy?: { name: string; username: string } | undefined
  /** On the profile: the post is pinned there, and says so. */
  showPinned?: boolean
  onShare: () => void
  /** The browser has a share sheet, which Share opens; without one Share copies the link. */
  shareSheet?: boolean
  onToggleBookmark: () => void
  onEdit: () => void
  /** Opens the post's edit history; without it "Edited" is a mark alone. */
  onShowHistory?: () => void
  onDelete: () => void
  /** Someone else's post: its author can be muted or blocked from its menu. */
  onRestrictAuthor?: (kind: Restriction) => void
  /** Someone else's post: it can be reported from its menu. */
  onReport?: () => void
  /** A vote in the post's poll; without it the poll cannot be voted in. */
  onVote?: ((choice: number) => Promise<boolean>) | undefined
  /** The image was clicked: show it large. */
  /** Opens one of the post's images in the viewer, by its place among them. */
  onOpenMedia: (index: number) => void
  comments: CommentHandlers
  /**
   * The comments read when the section was opened (a list's compact post carries none), and how that
   * goes; without it the section shows the post's own.
   */
  thread?: (CommentsReading & { comments: readonly CommentView[] }) | undefined
  /** The first image of a page loads at once: it is on the first screen, where lazy loading only delays it. */
  eagerMedia?: boolean
  /** 'detail' is the post's own page: larger text, the full date, and no click-through. */
  variant?: 'feed' | 'detail'
}

/** Clicks on these do their own thing; only a click on the card's plain surface opens the post. */
const OWN_CLICK = 'a, button, input, textarea, select, label, [role="menu"], .comments'

/** Whether the reader has just selected text (a drag over the card ends in a click that must not navigate). */
function selectingText(): boolean {
  const selection = window.getSelection()
  return selection !== null && !selection.isCollapsed && selection.toString().trim() !== ''
}

/** One post as the feed draws it: author, time, text, image, actions, and the comments area on demand. */
export function PostCard(props: PostCardProps) {
  // Without `now` the card's times follow the shared clock themselves (TimeAgo), so the card never draws again for them.
  const { post, me, now } = props
  const [, navigate] = useLocation()
  const profile = paths.profile.href(post.username)
  const detail = paths.postDetail.href(post.id)
  const name = displayNameOf(post)
  const isOwner = post.username === me
  const isDetail = props.variant === 'detail'
  const origin = post.remote ? webAddress(post.url) : null
  const images = imagesOf(post)
  // How many menus or emoji grids are open in the card (a comment's too): while any is, it is drawn in full.
  const [popovers, setPopovers] = useState(0)
  // The group of cards around it (a long list's) is told as well.
  const outer = useContext(PopoverHost)
  const onPopover = useCallback(
    (open: boolean) => {
      setPopovers((count) => count + (open ? 1 : -1))
      outer?.(open)
    },
    [outer],
  )
  const pinItems: MenuItem[] = props.onTogglePin
    ? [{ label: post.pinned ? 'Unpin from profile' : 'Pin to profile', onSelect: props.onTogglePin }]
    : []
  const menuItems: MenuItem[] = isOwner
    ? [
        ...pinItems,
        { label: 'Edit Post', onSelect: props.onEdit },
        { label: 'Delete Post', onSelect: props.onDelete, danger: true },
      ]
    : props.onRestrictAuthor
      ? restrictItems(
          post.username,
          props.onRestrictAuthor,
          props.onReport && { what: 'post', onReport: props.onReport },
        )
      : []

  const openPost = (event: MouseEvent<HTMLElement>) => {
    const target = event.target as Element
    if (isDetail) return
    // React passes clicks up from portals (a modal opened by the card) that are not inside it in the page.
    if (!event.currentTarget.contains(target) || target.closest(OWN_CLICK) || selectingText()) return
    if (event.ctrlKey || event.metaKey) window.open(detail, '_blank', 'noopener')
    else leaveTo(detail, navigate)
  }

  return (
    <PopoverHost value={onPopover}>
      <article
        className={`post-card ${isDetail ? 'is-detail' : 'is-clickable'}${popovers > 0 ? ' has-popover' : ''}`}
        aria-label={`Post by ${name}`}
        // Where a list finds its place again on the way back (lib/reading-position.ts).
        data-post-id={post._id}
        // Focusable for the j and k shortcuts, without adding a stop per post to the Tab order.
        tabIndex={-1}
        onClick={openPost}
      >
        <Link href={profile} className="post-avatar" aria-label={`${name}'s profile`}>
          <Avatar src={post.avatarURL} name={name} />
        </Link>
        <div className="post-main">
          {props.repostedBy && (
            <p className="post-context">
              <RepostIcon />
              <Link href={paths.profile.href(props.repostedBy.username)}>Reposted by {props.repostedBy.name}</Link>
            </p>
          )}
          {props.showPinned && post.pinned && (
            <p className="post-context">
              <PinIcon />
              Pinned
            </p>
          )}
          <header className="post-head">
            <Link href={profile} className="post-author">
              <span className="author-name">
                <EmojiText text={name} emojis={post.emojis} />
              </span>
              <span className="author-handle">@{post.username}</span>
            </Link>
            {!isDetail && (
              <>
                <span className="dot" aria-hidden="true">
                  ·
                </span>
                <Link href={detail} className="post-time" title={formatFullDate(post.createdAt)}>
                  <TimeAgo at={post.createdAt} now={now} />
                </Link>
              </>
            )}
            {post.visibility !== 'public' && (
              <span
                className={`post-audience is-${post.visibility}`}
                role="img"
                aria-label={`Audience: ${audienceOf(post.visibility).badge}`}
                title={audienceOf(post.visibility).badge}
              >
                <AudienceIcon visibility={post.visibility} />
              </span>
            )}
            {post.editedAt &&
              (props.onShowHistory ? (
                <button
                  type="button"
                  className="post-edited link-button"
                  title={`Edited ${formatFullDate(post.editedAt)}`}
                  aria-haspopup="dialog"
                  aria-label={`Edited ${formatFullDate(post.editedAt)}: show the edit history`}
                  onClick={props.onShowHistory}
                >
                  Edited
                </button>
              ) : (
                <span className="post-edited" title={`Edited ${formatFullDate(post.editedAt)}`}>
                  Edited
                </span>
              ))}
            {menuItems.length > 0 && <Menu label="Post options" items={menuItems} />}
          </header>
          <SpoilerGate warning={post.spoilerText}>
            {post.contentHtml !== undefined ? (
              <div className="post-content is-remote">
                <RemoteHtml html={post.contentHtml} />
              </div>
            ) : (
              post.content && (
                <p className="post-content">
                  <RichText text={post.content} emojis={post.emojis} />
                </p>
              )
            )}
            {images.length > 0 && (
              <div className={`post-media-grid count-${images.length}`}>
                {images.map((image, i) => (
                  // A link to the file itself (a new tab with Ctrl or the middle button); a plain click shows it here.
                  <a
                    key={`${i}:${image.url}`}
                    href={image.url}
                    className="post-media"
                    data-stay=""
                    onClick={(event) => {
                      if (event.ctrlKey || event.metaKey || event.shiftKey) return
                      event.preventDefault()
                      props.onOpenMedia(i)
                    }}
                  >
                    <img
                      src={image.url}
                      alt={imageAlt(image, i, images.length, post)}
                      width={image.width}
                      height={image.height}
                      loading={props.eagerMedia && i === 0 ? 'eager' : 'lazy'}
                      // The first image is often the largest thing on the first screen: it goes before the rest.
                      fetchPriority={props.eagerMedia && i === 0 ? 'high' : 'auto'}
                    />
                    {image.alt.trim() !== '' && (
                      // The description is the image's name already; the badge shows sighted readers it has one.
                      <span className="alt-badge" aria-hidden="true">
                        ALT
                      </span>
                    )}
                  </a>
                ))}
              </div>
            )}
            {post.card && <LinkCard card={post.card} />}
            {post.quoteOf !== undefined && <QuoteCard quote={post.quote} />}
          </SpoilerGate>
          {post.poll && <PollCard poll={post.poll} now={now} onVote={props.onVote} />}
          {origin && (
            <p className="post-origin">
              <a href={origin.href} target="_blank" rel="noopener noreferrer nofollow">
                <LinkIcon />
                Open the original on {origin.host}
              </a>
            </p>
          )}
          {isDetail && (
            <p className="post-date">
              <time dateTime={post.createdAt}>{formatFullDate(post.createdAt)}</time>
            </p>
          )}
          <PostActions
            commentCount={commentCount(post)}
            likeCount={post.likes.likeCount}
            liked={props.liked}
            bookmarked={props.bookmarked}
            commentsOpen={props.commentsOpen}
            onToggleComments={props.onToggleComments}
            onToggleLike={props.onToggleLike}
            repostCount={post.repostCount}
            reposted={post.reposted}
            onToggleRepost={props.onToggleRepost}
            onQuote={props.onQuote}
            shareLimit={sharingLimit(post.visibility, isOwner, {
              policy: post.quotePolicy,
              followsAuthor: props.followsAuthor ?? false,
            })}
            onShare={props.onShare}
            shareSheet={props.shareSheet ?? false}
            onToggleBookmark={props.onToggleBookmark}
          />
          {props.commentsOpen && (
            <CommentsSection
              comments={props.thread?.comments ?? post.comments}
              me={me}
              postOwner={post.username}
              now={now}
              handlers={props.comments}
              reading={props.thread}
            />
          )}
        </div>
      </article>
    </PopoverHost>
  )
}
