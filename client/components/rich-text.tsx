import { Link } from 'wouter'
import { parseRichText } from '../../common/text-rules.js'
import { paths } from '../paths.js'

/**
 * Post or comment text with its links, @mentions and #tags as links, and the rest as plain text: React
 * text nodes, never HTML, so markup in a post shows as the characters its author typed.
 */
export function RichText({ text }: { text: string }) {
  return (
    <>
      {parseRichText(text).map((segment, i) => {
        switch (segment.kind) {
          case 'text':
            return segment.text
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
