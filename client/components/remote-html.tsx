import type { ReactNode } from 'react'
import { Link } from 'wouter'
import { paths } from '../paths.js'

/**
 * A remote post's content (DECISIONS §14) as its server wrote it. The server keeps only paragraphs, line
 * breaks, links and spans, but the client does not take that on trust: the HTML is parsed into an inert
 * document (nothing in it loads or runs) and drawn again as React elements of that same subset, every
 * other element reduced to its text and every attribute but a link's address dropped. Mentions open the
 * person's profile here and hashtags the tag's page; other links open in a new tab.
 */
export function RemoteHtml({ html }: { html: string }) {
  const body = new DOMParser().parseFromString(html, 'text/html').body
  return <>{childrenOf(body, window.location.host)}</>
}

/** Elements whose text is never content. */
const UNSEEN = new Set(['SCRIPT', 'STYLE', 'TEMPLATE', 'NOSCRIPT', 'IFRAME', 'OBJECT', 'SVG', 'MATH'])
/** The spans Mastodon uses to shorten a long link: the hidden part, and the part ending in an ellipsis. */
const SPAN_CLASSES = ['invisible', 'ellipsis']
const REL = 'noopener noreferrer nofollow ugc'

function childrenOf(node: Node, ownHost: string): ReactNode[] {
  return [...node.childNodes].map((child, i) => nodeOf(child, i, ownHost))
}

function nodeOf(node: Node, key: number, ownHost: string): ReactNode {
  if (node.nodeType === Node.TEXT_NODE) return node.textContent
  if (node.nodeType !== Node.ELEMENT_NODE) return null
  const element = node as Element
  const tag = element.tagName.toUpperCase()
  if (UNSEEN.has(tag)) return null
  const children = childrenOf(element, ownHost)
  switch (tag) {
    case 'P':
      return <p key={key}>{children}</p>
    case 'BR':
      return <br key={key} />
    case 'SPAN': {
      const kept = SPAN_CLASSES.filter((name) => element.classList.contains(name))
      return kept.length > 0 ? (
        <span key={key} className={kept.map((name) => `remote-${name}`).join(' ')}>
          {children}
        </span>
      ) : (
        <span key={key}>{children}</span>
      )
    }
    case 'A':
      return linkOf(element, key, children, ownHost)
    default:
      return <span key={key}>{children}</span>
  }
}

/** An http(s) address, or null for any other scheme (javascript:, data:…) or none. */
export function webAddress(href: string | null | undefined): URL | null {
  if (!href || !URL.canParse(href)) return null
  const url = new URL(href)
  return url.protocol === 'https:' || url.protocol === 'http:' ? url : null
}

function linkOf(element: Element, key: number, children: ReactNode[], ownHost: string): ReactNode {
  const url = webAddress(element.getAttribute('href'))
  if (!url) return <span key={key}>{children}</span>
  const text = (element.textContent ?? '').trim()
  if (element.classList.contains('hashtag') && text.startsWith('#') && text.length > 1) {
    return (
      <Link key={key} href={paths.tag.href(text.slice(1))}>
        {children}
      </Link>
    )
  }
  if (element.classList.contains('mention') && text.startsWith('@') && text.length > 1) {
    const [name = '', host = url.host] = text.slice(1).split('@')
    const username = host === ownHost ? name : `${name}@${host}`
    return (
      <Link key={key} href={paths.profile.href(username)}>
        {children}
      </Link>
    )
  }
  return (
    <a key={key} href={url.href} target="_blank" rel={REL}>
      {children}
    </a>
  )
}
