import { isTag, mentionsIn, tagsIn } from '../../common/text-rules.js'
import { usernameKey } from '../usernames.js'

/**
 * The one definition of what a post's or a person's text holds for search, hashtags and mentions
 * (docs/api-contract.md §8). Both stores index with it and the services parse with it, so a word, a tag or a
 * mention is the same thing everywhere: PostgreSQL stores what these functions return rather than
 * folding text its own way (its `unaccent` and text-search parser split and fold differently: `ø`,
 * `ß`, `maya.lin` as a host name), which would make the two stores answer one search differently.
 */

/** Scripts written without spaces between words: each of their characters is a word of its own. */
const UNSPACED = String.raw`\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}`
const WORD = new RegExp(String.raw`[${UNSPACED}]|(?:(?![${UNSPACED}])[\p{L}\p{N}_])+`, 'gu')
/** Longer runs are no words anyone searches for (a query is at most 100 characters), and they would bloat an index. */
const MAX_WORD = 100

/** Text of ASCII characters only, controls included. */
// eslint-disable-next-line no-control-regex -- the whole ASCII range, controls included, is what the fast path takes
const ASCII = /^[\x00-\x7f]*$/

/**
 * Text as search compares it: lower case, compatibility forms unified (`ﬁ`, full-width letters) and
 * accents and other marks dropped, so `Café`, `CAFE` and `café` are one word.
 */
function fold(text: string): string {
  // Plain ASCII has no compatibility forms and no marks: lower case is all the rest would do to it, and
  // most text is plain ASCII, which a large database's start indexes post by post.
  if (ASCII.test(text)) return text.toLowerCase()
  return text.toLowerCase().normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().normalize('NFC')
}

/** The distinct words of a text, folded: runs of letters, digits and `_`, and each character of Han, Hiragana and Katakana. */
export function wordsOf(text: string): string[] {
  const words = new Set<string>()
  for (const [word] of fold(text).matchAll(WORD)) if ([...word].length <= MAX_WORD) words.add(word)
  return [...words]
}

/** A tag as stored and matched: composed, lower case; undefined when `raw` is not one (too long, other characters, only digits). */
export function tagOf(raw: string): string | undefined {
  const tag = raw.normalize('NFC')
  return isTag(tag) ? tag.toLowerCase() : undefined
}

/** The distinct hashtags of a post or comment, lower case, in order of first use, by the rules the client draws with. */
function tagsOf(text: string): string[] {
  return [...new Set(tagsIn(text))]
}

/** A text that may carry tags, and when it was written: a post's content, or one of its comments. */
interface TaggedText {
  readonly text: string
  readonly createdAt: string
}

/**
 * The tags a post carries, in its content or in any of its comments, each with the time of its latest
 * use: when the post or comment holding it was written. A tag's page lists the post; trending counts it
 * in the days of that use.
 */
export function tagUsesOf(post: {
  content: string
  createdAt: string
  comments: readonly { text: string; createdAt: string }[]
}): Map<string, string> {
  const uses = new Map<string, string>()
  const texts: TaggedText[] = [{ text: post.content, createdAt: post.createdAt }, ...post.comments]
  for (const { text, createdAt } of texts) {
    for (const tag of tagsOf(text)) {
      const latest = uses.get(tag)
      if (latest === undefined || latest < createdAt) uses.set(tag, createdAt)
    }
  }
  return uses
}

/**
 * Every `@name` of a text, by the rules the client draws with, each as the usernames it may mean, as
 * usernameKey gives them, longest first: `@maya.lin.` at the end of a sentence is `maya.lin.` if
 * someone has that name, else `maya.lin`. Which one, if any, names a user is for the caller to find out.
 */
export function mentionsOf(text: string): string[][] {
  return mentionsIn(text).map((candidates) => [...new Set(candidates.map(usernameKey))])
}

/** What a post is found by: its words, and `@name` for each name it mentions (so `@ada` finds the posts that mention ada). */
export function searchTermsOf(content: string): string[] {
  const mentions = mentionsOf(content).flatMap((candidates) => candidates.map((name) => `@${name}`))
  return [...new Set([...wordsOf(content), ...mentions])]
}

/** What a person is found by: the words of their username, first and last names; a search word must begin one of them. */
export function nameWordsOf(user: { username: string; firstName: string; lastName: string }): string[] {
  return [...new Set([user.username, user.firstName, user.lastName].flatMap(wordsOf))]
}

/**
 * The words of a people search, as the prefixes a person's name words must begin with. A word that
 * begins another asks nothing more than that one (`a ada` finds whom `ada` finds), so it is dropped,
 * and no two of the rest can begin the same word: each needs a word of its own. Longest first, the
 * likeliest to narrow the search most; ties in code unit order, so every store gets the same list.
 */
export function namePrefixesOf(q: string): string[] {
  const words = wordsOf(q).sort((a, b) => b.length - a.length || (a < b ? -1 : a > b ? 1 : 0))
  return words.filter((word) => !words.some((other) => other !== word && other.startsWith(word)))
}

/** A username prefix as `@` searches take it: its usernameKey, or undefined when no username could start so. */
export function usernamePrefixOf(raw: string): string | undefined {
  return /^[A-Za-z0-9_.]{0,30}$/.test(raw) ? usernameKey(raw) : undefined
}
