/**
 * How much each thing a person writes may hold: the one list the server's schemas, its rules below HTTP
 * (server/services/content-rules.ts) and the client's forms all read, so that a form never lets through
 * what the server refuses, nor stops short of what it takes. Lengths are in characters as JSON Schema
 * counts them: code points, so an emoji outside the Basic Multilingual Plane is one.
 */
export const LIMITS = {
  /** A post's text. */
  postContent: 500,
  /** A post's image: a /media/ path or an https URL. */
  mediaUrl: 500,
  /** The description of a post's image. */
  mediaAlt: 1000,
  /** How many images a post may show. */
  postImages: 4,
  /** A content warning. */
  spoilerText: 100,
  /** Scheduled posts a person may have waiting at once. */
  scheduledPosts: 100,
  comment: 500,
  poll: { minOptions: 2, maxOptions: 4, option: 50, minDays: 1, maxDays: 7 },
  /** A first, last or display name. */
  name: 50,
  bio: 160,
  website: 200,
  /** A report's comment, and a moderator's note or reason. */
  reportComment: 1000,
  searchQuery: 100,
} as const

/** The length of `text` as the limits count it, as Ajv does: in code points, a surrogate pair being one. */
export function lengthOf(text: string): number {
  let length = 0
  for (let i = 0; i < text.length; i++, length++) {
    const unit = text.charCodeAt(i)
    const next = text.charCodeAt(i + 1)
    if (unit >= 0xd800 && unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) i++
  }
  return length
}
