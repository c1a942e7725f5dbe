/**
 * What counts as visible text, for every text field, on the server and in the client alike: plain
 * runtime code with no imports, so the client's bundle can take it as it is.
 */

/**
 * A character that draws something: not a space of any width, a control, a format character, a
 * combining mark on its own, a default-ignorable one (zero-width spaces, joiners, bidi marks, the soft
 * hyphen, the Hangul fillers, variation selectors) or the blank Braille pattern, all of which render
 * as nothing and so make a post, a comment or a name that looks empty.
 */
const VISIBLE = /[^\s\p{Cc}\p{Cf}\p{M}\p{Default_Ignorable_Code_Point}\u2800]/u

/** Whether `text` shows anything at all once rendered. */
export function hasVisibleText(text: string): boolean {
  return VISIBLE.test(text)
}

/**
 * In a display name, characters that make it read as someone else's: bidi marks, embeddings, overrides
 * and isolates (the "gnp.exe" trick), and invisible padding that turns "Maya" into a second "Maya".
 * Zero-width joiners and variation selectors stay, for emoji and the scripts that need them.
 */
const NAME_SPOOFING = /[\u00ad\u061c\u200b\u200e\u200f\u202a-\u202e\u2060\u2066-\u2069\u2800\u3164\ufeff\uffa0]/
/** A name is shown on one line: tabs and line breaks would break every layout it sits in. */
const NAME_BREAKS = /[\t\n\v\f\r\u0085\u2028\u2029]/

/** Why `name` cannot be a first or last name, as a sentence about `field`; undefined when it can. */
export function nameProblem(field: string, name: string): string | undefined {
  if (NAME_BREAKS.test(name)) return `${field} must be one line, without tabs or line breaks`
  if (NAME_SPOOFING.test(name)) return `${field} must not contain invisible or direction-changing characters`
  if (!hasVisibleText(name)) return `${field} must contain visible text`
  return undefined
}
