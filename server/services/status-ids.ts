import { MSG, badRequest } from '../errors.js'
import { encodeCursor } from '../store/cursor.js'

/**
 * The ids of the Mastodon client API's statuses (DECISIONS §13, §17): strings of one length that sort, as
 * text, as the entries of Chirp's time-ordered lists do, so that `max_id`, `since_id` and `min_id` page
 * by the same (time, post id) key both stores order those lists by. An id is three parts in lower-case
 * hex: the entry's time in milliseconds (12 digits), the post's id (32), and who reposted it (32), all
 * zeros for the post itself. A post's id is so stable (its creation time never changes), and a repost is
 * an entry of its own, at the time it was made, as Mastodon's reblogs are.
 *
 * A comment is a status too (a reply): its time is the comment's creation, the post's id is its post's,
 * and the last part is the comment's own id with one bit of its variant digit (the 17th) set. Every id
 * Chirp makes is a random UUID, whose variant digit is 8, 9, a or b; with that bit set it is c, d, e or
 * f, which no reposter's id has, so a comment's status id is told from a post's and a repost's by its
 * text alone, and its post and comment are read back from it without asking the store.
 */
export interface StatusKey {
  /** When the entry reached its lists: the post's creation, or the repost. */
  at: string
  postId: string
  /** The reposter, on a repost's entry. */
  by?: string
  /** The comment, on a comment's status. */
  commentId?: string
}

const TIME_DIGITS = 12
const UUID_DIGITS = 32
const NOBODY = '0'.repeat(UUID_DIGITS)
const STATUS_ID = new RegExp(`^[0-9a-f]{${TIME_DIGITS + 2 * UUID_DIGITS}}$`)

const hexOf = (uuid: string) => uuid.replace(/-/g, '').toLowerCase()
const uuidOf = (hex: string) =>
  `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`

/** Where a UUID's variant digit is in its hex, and the bit that marks a comment's id there. */
const VARIANT_DIGIT = 16
const COMMENT_BIT = 0x4

/** Flips the comment bit of a UUID's hex: marks a comment's id, or reads one back. */
const flipped = (hex: string) =>
  `${hex.slice(0, VARIANT_DIGIT)}${(Number.parseInt(hex[VARIANT_DIGIT] ?? '0', 16) ^ COMMENT_BIT).toString(16)}${hex.slice(VARIANT_DIGIT + 1)}`
const isCommentHex = (hex: string) => (Number.parseInt(hex[VARIANT_DIGIT] ?? '0', 16) & 0xc) === 0xc

export function statusIdOf({ at, postId, by, commentId }: StatusKey): string {
  const time = new Date(at).getTime().toString(16).padStart(TIME_DIGITS, '0')
  const last = commentId !== undefined ? flipped(hexOf(commentId)) : by === undefined ? NOBODY : hexOf(by)
  return `${time}${hexOf(postId)}${last}`
}

/** The entry a status id names; undefined for a string that is not one. */
export function statusKeyOf(id: string): StatusKey | undefined {
  if (!STATUS_ID.test(id)) return undefined
  const at = new Date(Number.parseInt(id.slice(0, TIME_DIGITS), 16))
  if (Number.isNaN(at.getTime())) return undefined
  const post = id.slice(TIME_DIGITS, TIME_DIGITS + UUID_DIGITS)
  const last = id.slice(TIME_DIGITS + UUID_DIGITS)
  const postId = uuidOf(post)
  if (isCommentHex(last)) return { at: at.toISOString(), postId, commentId: uuidOf(flipped(last)) }
  return { at: at.toISOString(), postId, ...(last === NOBODY ? {} : { by: uuidOf(last) }) }
}

/** The cursor of Chirp's time-ordered lists that continues past the entry an id names. */
export function cursorOfStatusId(id: string): string {
  const key = statusKeyOf(id)
  if (!key) throw badRequest(MSG.badCursor)
  return encodeCursor([key.at, key.postId])
}

/**
 * The id of anything else a Mastodon list orders by time and then its id (notifications): as a status's,
 * with nobody in the reposter's place, so it sorts and pages alike.
 */
export const timedIdOf = (at: string, id: string) => statusIdOf({ at, postId: id })
