import type { Queryable } from './connect.js'
import { DEFAULT_VISIBILITY, type QuotePolicy, type Visibility } from '../../../common/audience.js'
import type { MailKind } from '../../../common/notification-settings.js'
import {
  SHOWN_OF_A_POST,
  type CommentRecord,
  type LinkCardRecord,
  type LockedPost,
  type MediaRecord,
  type PollRecord,
  type PostRecord,
  type RemoteActorRecord,
  type RemotePostRecord,
  type Role,
  type Suspension,
  type UserRecord,
} from '../types.js'

/**
 * The columns that rebuild a UserRecord as the embedded store keeps it: its follows and bookmarks as id
 * arrays in the order they were made. `u` is the users table.
 */
export const userColumns = (sql: Queryable) => sql`
  u.id, u.username, u.first_name, u.last_name, u.email, u.password_hash, u.avatar_url, u.bio, u.website,
  u.display_name, u.banner_url, u.default_visibility, u.alt_text_reminder, u.quote_policy, u.mail_alerts, u.mailed_through, u.locked, u.remote,
  u.created_at, u.updated_at, u.token_version, u.role, u.suspension, u.pending,
  ARRAY(SELECT f.followee_id FROM follows f WHERE f.follower_id = u.id ORDER BY f.seq) AS following,
  ARRAY(SELECT f.follower_id FROM follows f WHERE f.followee_id = u.id ORDER BY f.seq) AS followers,
  ARRAY(SELECT b.post_id FROM bookmarks b WHERE b.user_id = u.id ORDER BY b.seq) AS bookmarks`

export interface UserRow {
  id: string
  username: string
  first_name: string
  last_name: string
  email: string
  password_hash: string
  avatar_url: string
  display_name: string | null
  banner_url: string | null
  default_visibility: Visibility
  alt_text_reminder: boolean
  quote_policy: QuotePolicy
  mail_alerts: MailKind[]
  mailed_through: Date | null
  locked: boolean
  remote: RemoteActorRecord | null
  bio: string
  website: string
  created_at: Date
  updated_at: Date
  token_version: number
  role: Role
  suspension: Suspension | null
  pending: boolean
  following: string[]
  followers: string[]
  bookmarks: string[]
}

export const toUserRecord = (row: UserRow): UserRecord => ({
  _id: row.id,
  username: row.username,
  firstName: row.first_name,
  lastName: row.last_name,
  email: row.email,
  passwordHash: row.password_hash,
  avatarURL: row.avatar_url,
  ...(row.display_name ? { displayName: row.display_name } : {}),
  ...(row.banner_url ? { bannerURL: row.banner_url } : {}),
  bio: row.bio,
  website: row.website,
  createdAt: row.created_at.toISOString(),
  updatedAt: row.updated_at.toISOString(),
  bookmarks: row.bookmarks,
  following: row.following,
  followers: row.followers,
  tokenVersion: row.token_version,
  ...(row.role !== 'user' ? { role: row.role } : {}),
  ...(row.suspension ? { suspension: row.suspension } : {}),
  ...(row.pending ? { pending: true as const } : {}),
  ...(row.default_visibility !== DEFAULT_VISIBILITY ? { defaultVisibility: row.default_visibility } : {}),
  ...(row.alt_text_reminder ? {} : { altTextReminder: false }),
  ...(row.quote_policy !== 'anyone' ? { quotePolicy: row.quote_policy } : {}),
  ...(row.mail_alerts.length > 0 ? { mailAlerts: row.mail_alerts } : {}),
  ...(row.mailed_through ? { mailedThrough: row.mailed_through.toISOString() } : {}),
  ...(row.locked ? { locked: true as const } : {}),
  ...(row.remote ? { remote: row.remote } : {}),
})

/** The most recent likes (or dislikes) of post `p`, as many as a view shows, in the order they were made. */
const recentReactions = (sql: Queryable, liked: boolean) => sql`
  ARRAY(SELECT r.user_id FROM (
    SELECT r.user_id, r.seq FROM post_reactions r WHERE r.post_id = p.id AND r.liked = ${liked}
    ORDER BY r.seq DESC LIMIT ${SHOWN_OF_A_POST}) r ORDER BY r.seq)`

/** A comment `c` as JSON, with its votes in the order they were cast. */
export const commentJson = (sql: Queryable) => sql`json_build_object(
  'id', c.id, 'authorId', c.author_id, 'text', c.text, 'createdAt', c.created_at, 'updatedAt', c.updated_at,
  'replyTo', c.reply_to,
  'up', ARRAY(SELECT v.user_id FROM comment_votes v WHERE v.comment_id = c.id AND v.up ORDER BY v.seq),
  'down', ARRAY(SELECT v.user_id FROM comment_votes v WHERE v.comment_id = c.id AND NOT v.up ORDER BY v.seq))`

/**
 * The columns that rebuild a PostRecord in one row, bounded as its view is: the most recent likes,
 * dislikes and comments (with their votes, as JSON), each oldest first, beside the counts the posts
 * row keeps. `p` is the posts table.
 */
export const lockedColumns = (sql: Queryable) => sql`
  p.id, p.author_id, p.content, p.media_url, p.type, p.media_alt, p.media_width, p.media_height, p.more_media,
  p.created_at, p.updated_at, p.edited_at, p.imported_at, p.card, p.like_count, p.comment_count, p.spoiler_text,
  p.poll, p.repost_count, p.quote_of, p.pinned_at, p.visibility, p.addressed, p.conversation_id, p.in_reply_to,
  p.remote`

export const postColumns = (sql: Queryable) => sql`
  ${lockedColumns(sql)},
  ${recentReactions(sql, true)} AS liked_by,
  ${recentReactions(sql, false)} AS disliked_by,
  (SELECT coalesce(json_agg(${commentJson(sql)} ORDER BY c.seq), '[]') FROM (
    SELECT * FROM comments c WHERE c.post_id = p.id ORDER BY c.seq DESC LIMIT ${SHOWN_OF_A_POST}) c) AS comments`

/** A comment as commentJson writes it; its dates are JSON strings with an offset. */
export interface CommentJson {
  id: string
  authorId: string
  text: string
  createdAt: string
  updatedAt: string
  replyTo: string | null
  up: string[]
  down: string[]
}

/** A post's images after the first, as `posts.more_media` keeps them (migration 35). */
export type MoreMediaJson = { readonly images: readonly { readonly [key: string]: string | number }[] }

/** The `more_media` of a post with these images after the first: NULL for none. */
export const moreMediaJson = (images: readonly MediaRecord[] | undefined): MoreMediaJson | null =>
  images && images.length > 0
    ? { images: images.map((image) => Object.fromEntries(Object.entries(image).filter(([, v]) => v !== undefined))) }
    : null

/** A post's own row, as lockPost reads it. */
export interface LockedRow {
  id: string
  author_id: string
  content: string
  media_url: string
  type: string
  media_alt: string | null
  media_width: number | null
  media_height: number | null
  more_media: { images: MediaRecord[] } | null
  created_at: Date
  updated_at: Date
  edited_at: Date | null
  card: LinkCardRecord | null
  imported_at: Date | null
  like_count: number
  comment_count: number
  spoiler_text: string | null
  poll: PollRecord | null
  repost_count: number
  quote_of: string | null
  pinned_at: Date | null
  visibility: Visibility
  addressed: string[]
  conversation_id: string | null
  in_reply_to: string | null
  remote: RemotePostRecord | null
}

export interface PostRow extends LockedRow {
  liked_by: string[]
  disliked_by: string[]
  comments: CommentJson[]
}

const iso = (date: string) => new Date(date).toISOString()

export const toCommentRecord = (comment: CommentJson): CommentRecord => ({
  _id: comment.id,
  authorId: comment.authorId,
  text: comment.text,
  upvotedBy: comment.up,
  downvotedBy: comment.down,
  createdAt: iso(comment.createdAt),
  updatedAt: iso(comment.updatedAt),
  ...(comment.replyTo !== null ? { replyTo: comment.replyTo } : {}),
})

/** Optional fields are left out when NULL, as the embedded store never holds `undefined`. */
export const toLockedPost = (row: LockedRow): LockedPost => ({
  _id: row.id,
  authorId: row.author_id,
  content: row.content,
  mediaUrl: row.media_url,
  type: row.type,
  ...(row.media_alt !== null ? { mediaAlt: row.media_alt } : {}),
  ...(row.media_width !== null ? { mediaWidth: row.media_width } : {}),
  ...(row.media_height !== null ? { mediaHeight: row.media_height } : {}),
  ...(row.more_media !== null ? { moreMedia: row.more_media.images } : {}),
  createdAt: row.created_at.toISOString(),
  updatedAt: row.updated_at.toISOString(),
  ...(row.edited_at !== null ? { editedAt: row.edited_at.toISOString() } : {}),
  ...(row.card !== null ? { card: row.card } : {}),
  ...(row.imported_at !== null ? { importedAt: row.imported_at.toISOString() } : {}),
  likeCount: row.like_count,
  commentCount: row.comment_count,
  ...(row.spoiler_text !== null ? { spoilerText: row.spoiler_text } : {}),
  ...(row.poll !== null ? { poll: row.poll } : {}),
  ...(row.repost_count > 0 ? { repostCount: row.repost_count } : {}),
  ...(row.quote_of !== null ? { quoteOf: row.quote_of } : {}),
  ...(row.pinned_at !== null ? { pinnedAt: row.pinned_at.toISOString() } : {}),
  ...(row.visibility !== DEFAULT_VISIBILITY ? { visibility: row.visibility } : {}),
  ...(row.addressed.length > 0 ? { addressed: row.addressed } : {}),
  ...(row.conversation_id !== null ? { conversationId: row.conversation_id } : {}),
  ...(row.in_reply_to !== null ? { inReplyTo: row.in_reply_to } : {}),
  ...(row.remote !== null ? { remote: row.remote } : {}),
})

export const toPostRecord = (row: PostRow): PostRecord => ({
  ...toLockedPost(row),
  likedBy: row.liked_by,
  dislikedBy: row.disliked_by,
  comments: row.comments.map(toCommentRecord),
})

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

/**
 * Ids reach the store from URLs: one PostgreSQL cannot read as a uuid names nothing, rather than failing
 * the query. Lower case only, as ids are made and as the embedded store compares them.
 */
export const isUuid = (id: unknown): id is string => typeof id === 'string' && UUID.test(id)
