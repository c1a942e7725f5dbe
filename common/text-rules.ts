/**
 * The one definition of how post and comment text is cut into plain text, links, @mentions and #tags
 * (docs/api-contract.md §8). The client draws with it and the server indexes tags and notifies mentions
 * with it, so what shows as a mention or a tag is what the server notifies and indexes: a link starts
 * where a word starts and is never scanned for either, a tag is 1 to 50 letters of any script, digits or
 * `_` (not only digits), and a mention is a run of username characters that is, or ends in dots after, a
 * username.
 */

export type Segment =
  | { kind: 'text'; text: string }
  | { kind: 'link'; text: string; href: string }
  | {
      kind: 'mention'
      text: string
      /** The name the mention shows and links to: the run without the dots that may end a sentence. */
      username: string
      /** Every name it may mean, longest first: `@maya.lin.` is `maya.lin.` if someone has that name, else `maya.lin`. */
      candidates: string[]
    }
  | { kind: 'tag'; text: string; tag: string }

/** The patterns the rules below are made of. */
type Rules = {
  /** `http://` or `https://` where a word starts, up to the next space. */
  link: RegExp
  /**
   * `@` or `#` after anything but a letter, digit or `_` (so `ada@example.com` mentions nobody), then the
   * whole run of the characters each may hold; a run too long is no mention or tag at all, as on the server.
   */
  marker: RegExp
  tag: RegExp
  digitsOnly: RegExp
}

const ANY_SCRIPT: Rules = {
  link: /(?<![\p{L}\p{N}_])https?:\/\/\S+/giu,
  marker: /(?<![\p{L}\p{M}\p{N}_])(?:@([A-Za-z0-9_.]+)|#([\p{L}\p{M}\p{N}_]+))/gu,
  tag: /^[\p{L}\p{M}\p{Nd}_]{1,50}$/u,
  digitsOnly: /^\p{Nd}+$/u,
}

/**
 * The same rules for text in printable ASCII, where the letters are A to Z and the digits 0 to 9. A page's
 * first post with a tag paid for building the Unicode classes above, several milliseconds of a phone's
 * first load; most posts are plain ASCII and never need them.
 */
const ASCII: Rules = {
  link: /(?<![A-Za-z0-9_])https?:\/\/\S+/gi,
  marker: /(?<![A-Za-z0-9_])(?:@([A-Za-z0-9_.]+)|#([A-Za-z0-9_]+))/g,
  tag: /^[A-Za-z0-9_]{1,50}$/,
  digitsOnly: /^[0-9]+$/,
}

/** A character other than printable ASCII, a tab or a line break: text with one takes the Unicode rules. */
const BEYOND_ASCII = /[^\t\n\r -~]/
const rulesFor = (text: string): Rules => (BEYOND_ASCII.test(text) ? ANY_SCRIPT : ASCII)

const USERNAME = /^[A-Za-z0-9_.]{3,30}$/

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
  const rules = rulesFor(text)
  return rules.tag.test(text) && !rules.digitsOnly.test(text)
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

/** The names a run after `@` may mean, longest first; none when neither the run nor the run without its last dots is a username. */
function mentionCandidates(run: string): string[] {
  return [...new Set([run, run.replace(/\.+$/, '')])].filter((name) => USERNAME.test(name))
}

function markers(text: string, rules: Rules, into: Segment[]): void {
  let at = 0
  for (const match of text.matchAll(rules.marker)) {
    const [whole, name, tag] = match
    const start = match.index
    let segment: Segment | null = null
    let length = whole.length
    if (name !== undefined) {
      const candidates = mentionCandidates(name)
      const username = candidates[candidates.length - 1]
      if (username !== undefined) {
        segment = { kind: 'mention', text: `@${username}`, username, candidates }
        length = username.length + 1
      }
    } else if (tag !== undefined) {
      const composed = tag.normalize('NFC')
      if (isTag(composed)) segment = { kind: 'tag', text: whole, tag: composed.toLowerCase() }
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
  const rules = rulesFor(text)
  const segments: Segment[] = []
  let at = 0
  for (const match of text.matchAll(rules.link)) {
    const link = trimLink(match[0])
    const href = safeHref(link)
    if (href === null) continue
    markers(text.slice(at, match.index), rules, segments)
    segments.push({ kind: 'link', text: link, href })
    at = match.index + link.length
  }
  markers(text.slice(at), rules, segments)
  // Neighbouring plain pieces (a marker that was not one) read as one.
  return segments.reduce<Segment[]>((joined, segment) => {
    const previous = joined[joined.length - 1]
    if (previous?.kind === 'text' && segment.kind === 'text') previous.text += segment.text
    else joined.push(segment)
    return joined
  }, [])
}

/**
 * Controls no text a person writes needs: NUL (which no PostgreSQL text can hold) and the other C0 and C1
 * controls. Tab, line feed and carriage return stay, for the lines of posts and comments.
 */
// eslint-disable-next-line no-control-regex -- control characters are exactly what this matches
const CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/
/** A high surrogate without its low half, or a low one without its high half: no UTF-8 can hold it. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

/**
 * What is wrong with a text no field may hold, as the end of a sentence about the field, or undefined:
 * lone surrogates (each store kept them differently: as they were, or as U+FFFD) and controls (a NUL was
 * stored by one store and refused by the other).
 */
export function textFault(text: string): string | undefined {
  if (LONE_SURROGATE.test(text)) return 'must be well-formed Unicode text'
  if (CONTROLS.test(text)) return 'must not contain control characters'
  return undefined
}

/** The tags a text holds, lower case and composed, in order, as links would show them. */
export function tagsIn(text: string): string[] {
  return parseRichText(text).flatMap((segment) => (segment.kind === 'tag' ? [segment.tag] : []))
}

/** The names each mention of a text may mean, longest first (see the mention segment's `candidates`). */
export function mentionsIn(text: string): string[][] {
  return parseRichText(text).flatMap((segment) => (segment.kind === 'mention' ? [segment.candidates] : []))
}

/** The addresses of a text's links, in order. */
export function linksIn(text: string): string[] {
  return parseRichText(text).flatMap((segment) => (segment.kind === 'link' ? [segment.href] : []))
}
