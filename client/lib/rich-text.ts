/**
 * How post and comment text is cut into plain text, links, @mentions and #tags (docs/api-contract.md
 * §8). The rules are the server's own, so what shows as a mention or a tag is what the server notifies and
 * indexes: a link is never scanned for either, a tag is 1 to 50 letters of any script, digits or `_`
 * (not only digits), and a mention follows the username rule.
 */

export type Segment =
  | { kind: 'text'; text: string }
  | { kind: 'link'; text: string; href: string }
  | { kind: 'mention'; text: string; username: string }
  | { kind: 'tag'; text: string; tag: string }

/** `http://` or `https://` where a word starts, up to the next space. */
const LINK = /(?<![\p{L}\p{N}_])https?:\/\/\S+/giu

/**
 * `@` or `#` after anything but a letter, digit or `_` (so `ada@example.com` mentions nobody), then the
 * whole run of the characters each may hold; a run too long is no mention or tag at all, as on the server.
 */
const MARKER = /(?<![\p{L}\p{M}\p{N}_])(?:@([A-Za-z0-9_.]+)|#([\p{L}\p{M}\p{N}_]+))/gu
const USERNAME = /^[A-Za-z0-9_.]{3,30}$/
const TAG = /^[\p{L}\p{M}\p{Nd}_]{1,50}$/u
const DIGITS_ONLY = /^\p{Nd}+$/u

/** Punctuation that ends a sentence rather than a link: `(see https://a.example/x).` links `…/x`. */
const TRAILING = /[.,;:!?'"’”»…>)\]}*]/u
const OPENERS: Record<string, string> = { ')': '(', ']': '[', '}': '{' }

/** The link as written minus the punctuation after it; a closing bracket stays when the link opened it (`Foo_(bar)`). */
function trimLink(raw: string): string {
  let link = raw
  for (;;) {
    const last = link[link.length - 1]
    if (last === undefined || !TRAILING.test(last)) return link
    const opener = OPENERS[last]
    if (opener !== undefined && count(link, opener) >= count(link, last)) return link
    link = link.slice(0, -1)
  }
}

function count(text: string, char: string): number {
  return text.split(char).length - 1
}

/** Whether `text` (without `#`) can be a tag: 1 to 50 letters of any script, digits or `_`, not only digits. */
export function isTag(text: string): boolean {
  return TAG.test(text) && !DIGITS_ONLY.test(text)
}

/** The address to open, or null when the text only looks like one. */
function safeHref(text: string): string | null {
  try {
    const url = new URL(text)
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== '' ? url.href : null
  } catch {
    return null
  }
}

function markers(text: string, into: Segment[]): void {
  let at = 0
  for (const match of text.matchAll(MARKER)) {
    const [whole, name, tag] = match
    const start = match.index
    let segment: Segment | null = null
    let length = whole.length
    if (name !== undefined) {
      // `@maya.lin.` at the end of a sentence names maya.lin.
      const username = name.replace(/\.+$/, '')
      if (USERNAME.test(username)) {
        segment = { kind: 'mention', text: `@${username}`, username }
        length = username.length + 1
      }
    } else if (tag !== undefined && isTag(tag)) {
      segment = { kind: 'tag', text: whole, tag: tag.normalize('NFC').toLowerCase() }
    }
    if (!segment) continue
    if (start > at) into.push({ kind: 'text', text: text.slice(at, start) })
    into.push(segment)
    at = start + length
  }
  if (at < text.length) into.push({ kind: 'text', text: text.slice(at) })
}

/** Whether the text may hold a link, mention or tag at all; most posts do not, and skip the scans below. */
const MAY_MARK = /[@#]|https?:\/\//i

/** The text in order, cut where a link, mention or tag starts and ends; joined again, it is the text. */
export function parseRichText(text: string): Segment[] {
  if (!MAY_MARK.test(text)) return text === '' ? [] : [{ kind: 'text', text }]
  const segments: Segment[] = []
  let at = 0
  for (const match of text.matchAll(LINK)) {
    const link = trimLink(match[0])
    const href = safeHref(link)
    if (href === null) continue
    markers(text.slice(at, match.index), segments)
    segments.push({ kind: 'link', text: link, href })
    at = match.index + link.length
  }
  markers(text.slice(at), segments)
  // Neighbouring plain pieces (a marker that was not one) read as one.
  return segments.reduce<Segment[]>((joined, segment) => {
    const previous = joined[joined.length - 1]
    if (previous?.kind === 'text' && segment.kind === 'text') previous.text += segment.text
    else joined.push(segment)
    return joined
  }, [])
}

/** The tags a text holds, lower case, as links would show them. */
export function tagsIn(text: string): string[] {
  return parseRichText(text).flatMap((segment) => (segment.kind === 'tag' ? [segment.tag] : []))
}
