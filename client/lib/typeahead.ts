/** What a typeahead offers: a person to mention or open, or a tag. */
export type Suggestion =
  { kind: 'person'; username: string; name: string; avatarURL: string } | { kind: 'tag'; tag: string; posts: number }

/** The @name or #tag being typed just before the caret: its sign, what follows it, and where it starts. */
export type Token = { trigger: '@' | '#'; query: string; start: number }

/**
 * The mention or tag the caret is at the end of, as the server reads them (docs/api-contract.md §8):
 * not straight after a letter, digit or `_` (an email address is no mention), a username's characters
 * after `@`, letters, digits and `_` after `#`. Null when the caret is elsewhere or nothing follows the sign.
 */
export function tokenAt(text: string, caret: number): Token | null {
  const match = /(?:^|[^\p{L}\p{N}_])([@#])([\p{L}\p{N}_.]{1,50})$/u.exec(text.slice(0, caret))
  if (!match) return null
  const trigger = match[1] as '@' | '#'
  const query = match[2] ?? ''
  const fits = trigger === '@' ? /^[A-Za-z0-9_.]{1,30}$/.test(query) : /^[\p{L}\p{N}_]+$/u.test(query)
  return fits ? { trigger, query, start: caret - query.length - 1 } : null
}

/** `text` with the token replaced by the picked suggestion and a space, and where the caret goes after it. */
export function insertSuggestion(
  text: string,
  token: Token,
  caret: number,
  picked: Suggestion,
): { text: string; caret: number } {
  const word = picked.kind === 'person' ? `@${picked.username}` : `#${picked.tag}`
  const before = `${text.slice(0, token.start)}${word} `
  return { text: before + text.slice(caret).replace(/^ /, ''), caret: before.length }
}

/** `text` with `insert` put in place of the selection [start, end), and where the caret goes after it. */
export function insertAt(text: string, start: number, end: number, insert: string): { text: string; caret: number } {
  return { text: text.slice(0, start) + insert + text.slice(end), caret: start + insert.length }
}
