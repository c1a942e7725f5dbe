import { VISIBILITIES } from '../../common/audience.js'
import { LIMITS, lengthOf } from '../../common/limits.js'
import { textFault } from '../../common/text-rules.js'
import { MSG, badRequest } from '../errors.js'
import { hasVisibleText, nameProblem } from '../schemas/text.js'

/**
 * What a post, a comment, a profile, a poll or a date may be: checked here, below HTTP, by every path
 * that writes them (the API's services and the account import alike), so that no path stores what
 * another refuses and both stores only ever see text and dates they hold alike. The API's schemas and
 * body hygiene refuse the same things earlier, in the same words; these checks are what holds for a
 * path without them.
 */

/** Why `value` cannot be the field `field`, at most `max` characters long, as a sentence; undefined when it can. */
function textProblem(field: string, value: string, max: number): string | undefined {
  const fault = textFault(value)
  if (fault) return `${field} ${fault}`
  return lengthOf(value) > max ? `${field} must NOT have more than ${max} characters` : undefined
}

/** A field that may be empty but, when set, must show something: a description read aloud as nothing helps no one. */
function describes(field: string, value: string, max: number): string | undefined {
  const problem = textProblem(field, value, max)
  if (problem || value === '' || hasVisibleText(value)) return problem
  return `${field} must contain visible text`
}

const refuse = (problem: string | undefined) => {
  if (problem !== undefined) throw badRequest(problem)
}

/** A post's texts as its author sent them; what is not sent is not checked. */
export interface PostTexts {
  content?: string | undefined
  mediaAlt?: string | undefined
  spoilerText?: string | undefined
  pollOptions?: readonly string[] | undefined
}

/** Why a post's texts cannot be stored, or undefined. Whether the post shows anything at all is its caller's to judge. */
export function postTextsProblem({ content, mediaAlt, spoilerText, pollOptions }: PostTexts): string | undefined {
  const options = pollOptions ?? []
  return (
    (content === undefined ? undefined : textProblem('content', content, LIMITS.postContent)) ??
    (mediaAlt === undefined ? undefined : describes('mediaAlt', mediaAlt, LIMITS.mediaAlt)) ??
    (spoilerText === undefined ? undefined : textProblem('spoilerText', spoilerText, LIMITS.spoilerText)) ??
    options.map((option, i) => textProblem(`poll.options.${i}`, option, LIMITS.poll.option)).find(Boolean) ??
    (options.every(hasVisibleText) ? undefined : MSG.blankPollOption)
  )
}

export const checkPostTexts = (texts: PostTexts) => refuse(postTextsProblem(texts))

const AUDIENCES: ReadonlySet<unknown> = new Set(VISIBILITIES)

/** Why `value` cannot be a post's audience (DECISIONS §12), or undefined; in the words the API's schema answers. */
export const visibilityProblem = (value: unknown): string | undefined =>
  AUDIENCES.has(value)
    ? undefined
    : `visibility must be one of ${VISIBILITIES.map((v) => JSON.stringify(v)).join(', ')}`

export const checkVisibility = (value: unknown) => refuse(visibilityProblem(value))

/** A comment's text: within its limit and showing something. */
export function checkCommentText(text: string) {
  refuse(textProblem('text', text, LIMITS.comment))
  if (!hasVisibleText(text)) throw badRequest(MSG.emptyComment)
}

/** The texts of a profile as sent; what is not sent is not checked, and an empty name is its caller's to judge. */
export interface ProfileTexts {
  firstName?: string | undefined
  lastName?: string | undefined
  displayName?: string | undefined
  bio?: string | undefined
  website?: string | undefined
}

const NAMES = ['firstName', 'lastName', 'displayName'] as const

export function checkProfileTexts(texts: ProfileTexts) {
  for (const field of NAMES) {
    const name = texts[field]
    if (name === undefined) continue
    refuse(textProblem(field, name, LIMITS.name) ?? (name === '' ? undefined : nameProblem(field, name)))
  }
  if (texts.bio !== undefined) refuse(textProblem('bio', texts.bio, LIMITS.bio))
  if (texts.website !== undefined) refuse(textProblem('website', texts.website, LIMITS.website))
}

/** A report's comment, a moderator's note or reason. */
export const checkReportText = (field: string, text: string) => refuse(textProblem(field, text, LIMITS.reportComment))

/**
 * The earliest date a post may carry. Nothing was posted on Chirp, or anywhere like it, before the Unix
 * epoch, and from it on every date is an ISO 8601 time with a four-digit year, which both stores keep
 * alike and a cursor holds (store/cursor.ts takes years 1 to 9999): PostgreSQL refuses years before 4713
 * BC and has no year 0, where JavaScript goes back 271,821 years.
 */
const EARLIEST = Date.UTC(1970, 0, 1)

/**
 * A date a post brings with it (an imported one's), within what is possible: not before 1970, and not
 * after `now`, the moment it is written, so no post from the future tops Explore and feeds for good.
 * Undefined for what is no date at all.
 */
export function keptDate(value: string, now: Date): string | undefined {
  const time = Date.parse(value)
  if (Number.isNaN(time)) return undefined
  return new Date(Math.min(Math.max(time, EARLIEST), now.getTime())).toISOString()
}
