/**
 * The records components display. State hands components frozen snapshots, so the views are
 * deeply read-only: a component can show a post but never change it behind the state's back.
 */
import type { Comment, Conversation, Notification, Post, User, UserSummary } from '../api/types.js'
import type { Report, ReportBody, ResolveBody } from '../../server/schemas/moderation.js'

export type DeepReadonly<T> = T extends readonly (infer U)[]
  ? readonly DeepReadonly<U>[]
  : T extends object
    ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
    : T

export type PostView = DeepReadonly<Post>
export type CommentView = DeepReadonly<Comment>
export type UserView = DeepReadonly<User>
export type UserSummaryView = DeepReadonly<UserSummary>
export type NotificationView = DeepReadonly<Notification>
export type ConversationView = DeepReadonly<Conversation>
export type ReportView = DeepReadonly<Report>
export type ReportCategory = ReportBody['category']
export type ResolveAction = ResolveBody['action']

/** Who may sign up (REGISTRATION): anyone, anyone a moderator approves, anyone with an invite, or nobody. */
export type Registration = 'open' | 'approval' | 'invite' | 'closed'

/** An image's text alternative: its author's description, or at least whose image it is. */
export function mediaAlt(post: {
  mediaAlt?: string | undefined
  displayName?: string | undefined
  firstName: string
  lastName: string
}): string {
  return post.mediaAlt?.trim() || `Image posted by ${displayNameOf(post)}`
}

/** An image a post shows, or the composer is about to post: its URL, its description ('' for none), its size. */
export type ImageView = { url: string; alt: string; width?: number | undefined; height?: number | undefined }

/** A post's images, the first first; a post that predates `media` (a copy cached before) shows its one image. */
export function imagesOf(post: {
  media?: readonly ImageView[] | undefined
  mediaUrl: string
  mediaAlt?: string | undefined
  mediaWidth?: number | undefined
  mediaHeight?: number | undefined
}): readonly ImageView[] {
  if (post.media && post.media.length > 0) return post.media
  if (post.mediaUrl === '') return []
  return [{ url: post.mediaUrl, alt: post.mediaAlt ?? '', width: post.mediaWidth, height: post.mediaHeight }]
}

/** The text alternative of one of a post's images: its description, or at least whose image it is. */
export function imageAlt(image: ImageView, index: number, count: number, author: Parameters<typeof mediaAlt>[0]) {
  const described = image.alt.trim()
  if (described) return described
  return count > 1
    ? `Image ${index + 1} of ${count} posted by ${displayNameOf(author)}`
    : mediaAlt({ ...author, mediaAlt: '' })
}

export function fullName(user: { firstName: string; lastName: string }): string {
  return `${user.firstName} ${user.lastName}`.trim()
}

/**
 * The name shown wherever a person is: the one they chose, else their first and last name (a server
 * without display names, or a person who chose none, sends none).
 */
export function displayNameOf(user: { displayName?: string | undefined; firstName: string; lastName: string }): string {
  return user.displayName || fullName(user)
}

/** One of the signed-in user's bookmarks: a post id, or the bookmarked post itself. */
export type BookmarkEntry = string | { readonly _id: string }

/**
 * The ids of bookmarked posts. A user's own record carries bookmarks as ids or, from servers that
 * follow docs/api-contract.md §2, as the posts themselves; the client accepts either.
 */
export function bookmarkIds(entries: readonly BookmarkEntry[]): string[] {
  return entries.map((entry) => (typeof entry === 'string' ? entry : entry._id))
}

/**
 * Whether `username` likes the post. It reads a compact post too, whose `likedBy` holds only the reader,
 * and only when they like it.
 */
export function likedBy(post: { likes: { likedBy: readonly { username: string }[] } }, username: string): boolean {
  return post.likes.likedBy.some((u) => u.username === username)
}

/** How many comments a post has: its true count, or, from a server that sends none, its comments, all there. */
export function commentCount(post: { commentCount?: number | undefined; comments: readonly unknown[] }): number {
  return post.commentCount ?? post.comments.length
}

/** One version of a post (DECISIONS §17): what it read at one time. */
export type PostVersionView = {
  content: string
  spoilerText: string
  media: { url: string; alt: string }[]
  poll: { options: string[] } | null
  editedAt: string
}
