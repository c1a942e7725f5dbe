import type { PostView } from '../lib/model.js'

type Card = NonNullable<PostView['card']>

/** The address a card opens, and its host as shown: only an https link, as the server makes cards of no other. */
function target(url: string): { href: string; host: string } | undefined {
  let parsed: URL
  try {
    // Not URL.canParse: browsers a few versions old lack it.
    parsed = new URL(url)
  } catch {
    return undefined
  }
  return parsed.protocol === 'https:' ? { href: parsed.href, host: parsed.hostname.replace(/^www\./, '') } : undefined
}

/**
 * The preview of a post's first link: the page's image, host, title and description, the whole card one
 * link to the page in a new tab. Its name is what it shows (the image is decoration), and says where it
 * opens: a label other than the visible text would not be the name that speech input users say.
 */
export function LinkCard({ card }: { card: Card }) {
  const to = target(card.url)
  if (!to) return null
  return (
    <a
      className={card.image ? 'link-card has-image' : 'link-card'}
      href={to.href}
      target="_blank"
      rel="noopener noreferrer nofollow"
    >
      {card.image && <img className="link-card-image" src={card.image} alt="" loading="lazy" />}
      {/* The spaces part the words of the name; a flex box draws none of them. */}
      <span className="link-card-text">
        {card.title && <span className="link-card-host">{to.host}</span>}{' '}
        <span className="link-card-title">{card.title || to.host}</span>{' '}
        {card.description && <span className="link-card-description">{card.description}</span>}{' '}
        <span className="visually-hidden">(opens in a new tab)</span>
      </span>
    </a>
  )
}
