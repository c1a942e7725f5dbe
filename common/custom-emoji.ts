/**
 * Custom emoji (DECISIONS §15, §17): `:shortcode:` in a text shows the community's image of that name.
 * A shortcode is 2 to 32 of A-Z, a-z, 0-9 and _; the server and the client find them in text alike.
 */
export const SHORTCODE = /^[A-Za-z0-9_]{2,32}$/

/** The largest image an admin may upload as an emoji: 256 KB. */
export const EMOJI_MAX_BYTES = 256 * 1024

/** A custom emoji as posts, comments and people carry it. */
export interface EmojiUse {
  shortcode: string
  url: string
}

const IN_TEXT = /:([A-Za-z0-9_]{2,32}):/g

/** The shortcodes a text names, each once, in the order they first appear. */
export function shortcodesIn(text: string): string[] {
  const found = new Set<string>()
  for (const match of text.matchAll(IN_TEXT)) found.add(match[1] as string)
  return [...found]
}

/** A text cut into plain runs and the emoji it names that `known` holds, in order. */
export function emojiRuns(text: string, known: ReadonlyMap<string, string>): (string | EmojiUse)[] {
  const runs: (string | EmojiUse)[] = []
  let from = 0
  for (const match of text.matchAll(IN_TEXT)) {
    const shortcode = match[1] as string
    const url = known.get(shortcode)
    if (url === undefined) continue
    if (match.index > from) runs.push(text.slice(from, match.index))
    runs.push({ shortcode, url })
    from = match.index + match[0].length
  }
  if (from < text.length) runs.push(text.slice(from))
  return runs
}
