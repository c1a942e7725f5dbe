import { Link } from 'wouter'
import { parseRichText } from '../../common/text-rules.js'
import { emojiRuns, type EmojiUse } from '../../common/custom-emoji.js'
import { paths } from '../paths.js'

/**
 * Post or comment text with its links, @mentions and #tags as links, and the rest as plain text: React
 * text nodes, never HTML, so markup in a post shows as the characters its author typed.
 */
export function RichText({ text, emojis }: { text: string; emojis?: readonly EmojiUse[] | undefined }) {
  return (
    <>
      {parseRichText(text).map((segment, i) => {
        switch (segment.kind) {
          case 'text':
            return <EmojiText key={i} text={segment.text} emojis={emojis} />
          case 'link':
            return (
              <a key={i} href={segment.href} target="_blank" rel="noopener noreferrer nofollow ugc">
                {segment.text}
              </a>
            )
          case 'mention':
            return (
              <Link key={i} href={paths.profile.href(segment.username)}>
                {segment.text}
              </Link>
            )
          case 'tag':
            return (
              <Link key={i} href={paths.tag.href(segment.tag)}>
                {segment.text}
              </Link>
            )
        }
      })}
    </>
  )
}

/** The custom emoji an image shows, sized to the text around it; its shortcode is its text alternative. */
export function CustomEmoji({ shortcode, url }: EmojiUse) {
  const name = `:${shortcode}:`
  return <img className="custom-emoji" src={url} alt={name} title={name} draggable={false} />
}

/**
 * Plain text (a name, a bio, a run of a post) with the `:shortcode:`s that `emojis` holds shown as their
 * images; any other stays as typed.
 */
export function EmojiText({ text, emojis }: { text: string; emojis?: readonly EmojiUse[] | undefined }) {
  if (!emojis || emojis.length === 0) return <>{text}</>
  const known = new Map(emojis.map((emoji) => [emoji.shortcode, emoji.url]))
  return (
    <>
      {emojiRuns(text, known).map((run, i) =>
        typeof run === 'string' ? run : <CustomEmoji key={i} shortcode={run.shortcode} url={run.url} />,
      )}
    </>
  )
}
