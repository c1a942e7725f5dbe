import { MSG, badRequest } from '../errors.js'
import { encodeCursor } from '../store/cursor.js'

/**
 * The ids of the Mastodon client API's statuses (DECISIONS §13, §17): strings of one length that sort, as
 * text, as the entries of Chirp's time-ordered lists do, so that `max_id`, `since_id` and `min_id` page
 * by the same (time, post id) key both stores order those lists by. An id is three parts in lower-case
 * hex: the entry's time in milliseconds (12 digits), the post's id (32), and who reposted it (32), all
 * zeros for the post itself. A post's id is so stable (its creation time never changes), and a repost is
 * an entry of its own, at the time it was made, as Mastodon's reblogs are.
 */
export interface StatusKey {
  /** When the entry reached its lists: the post's creation, or the repost. */
  at: string
  postId: string
  /** The reposter, on a repost's entry. */
  by?: string
}

const TIME_DIGITS = 12
const UUID_DIGITS = 32
const NOBODY = '0'.repeat(UUID_DIGITS)
const STATUS_ID = new RegExp(`^[0-9a-f]{${TIME_DIGITS + 2 * UUID_DIGITS}}$`)

const hexOf = (uuid: string) => uuid.replace(/-/g, '').toLowerCase()
const uuidOf = (hex: string) =>
  `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`

export function statusIdOf({ at, postId, by }: StatusKey): string {
  const time = new Date(at).getTime().toString(16).padStart(TIME_DIGITS, '0')
  return `${time}${hexOf(postId)}${by === undefined ? NOBODY : hexOf(by)}`
}

/** The entry a status id names; undefined for a string that is not one. */
export function statusKeyOf(id: string): StatusKey | undefined {
  if (!STATUS_ID.test(id)) return undefined
  const at = new Date(Number.parseInt(id.slice(0, TIME_DIGITS), 16))
  if (Number.isNaN(at.getTime())) return undefined
  const post = id.slice(TIME_DIGITS, TIME_DIGITS + UUID_DIGITS)
  const by = id.slice(TIME_DIGITS + UUID_DIGITS)
  return { at: at.toISOString(), postId: uuidOf(post), ...(by === NOBODY ? {} : { by: uuidOf(by) }) }
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
