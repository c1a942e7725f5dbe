import { Link } from 'wouter'
import { displayNameOf, mediaAlt, type PostView } from '../lib/model.js'
import { paths } from '../paths.js'
import { Avatar } from './avatar.js'

type QuoteCardProps = {
  /** The quoted post in its compact form; null when it was deleted or is hidden from the reader. */
  quote: Omit<PostView, 'quote' | 'repostedBy' | 'repostedAt'> | null | undefined
}

/**
 * The post a post quotes, small and inside it: a link to the quoted post, or a box that says it is gone.
 * The link is named by what it shows, after words heard only by screen readers that say what it is.
 */
export function QuoteCard({ quote }: QuoteCardProps) {
  if (!quote) return <div className="quote-card is-unavailable">This post is unavailable</div>
  const name = displayNameOf(quote)
  // Behind a content warning only the warning shows here (the card is one link, so it holds no Show
  // button): the text and the image are opened on the post itself.
  const warning = quote.spoilerText
  return (
    <Link href={paths.postDetail.href(quote.id)} className="quote-card">
      {/* The spaces part the words of the name; a flex box draws none of them. */}
      <span className="quote-head">
        <span className="visually-hidden">Quoted post by</span>{' '}
        <Avatar src={quote.avatarURL} name={name} size="xs" decorative />
        <span className="author-name">{name}</span> <span className="author-handle">@{quote.username}</span>
      </span>{' '}
      {warning ? (
        <span className="quote-content post-spoiler-text">Content warning: {warning}</span>
      ) : (
        <>
          {/* Plain text: the card is one link, and links cannot hold links. */}
          {quote.content && <span className="quote-content">{quote.content}</span>}{' '}
          {quote.mediaUrl && <img className="quote-media" src={quote.mediaUrl} alt={mediaAlt(quote)} loading="lazy" />}
        </>
      )}
    </Link>
  )
}
