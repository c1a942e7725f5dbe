import { CURSOR, pageOf, type SortKey } from './cursor.js'
import { byCreation } from './memory-index.js'
import type { ConversationMembership, ConversationRecord, Page, PageRequest, PostRecord, UserRecord } from './types.js'

/**
 * Conversations of direct posts as the embedded store keeps them: each participant's membership on their
 * own record (UserRecord.directConversations), and the conversation's posts found by their
 * `conversationId` (MemoryIndex). What its reads, staged or committed, make of them.
 */

/** A set of people as a conversation is found by: each once, sorted. */
export const participantSet = (ids: readonly string[]) => [...new Set(ids)].sort()

const sameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((id, i) => id === b[i])

/** The user's membership of the conversation, if they are in it. */
export const membershipOf = (user: UserRecord | undefined, conversationId: string) =>
  user?.directConversations?.find((membership) => membership._id === conversationId)

/** The conversation between exactly `participants` (a participantSet) that the user is in, if any. */
export const conversationBetween = (user: UserRecord | undefined, participants: readonly string[]) =>
  user?.directConversations?.find((membership) => sameSet(membership.participantIds, participants))

/** Whether `userId` may read the conversation's post: they wrote it, or it addressed them. */
const reaches = (post: PostRecord, userId: string) =>
  post.authorId === userId || post.addressed?.includes(userId) === true

/** What a conversation's record is drawn from: the posts it holds, oldest first, and who and what exists. */
export interface ConversationSource {
  posts: readonly PostRecord[]
  postOf: (id: string) => PostRecord | undefined
  exists: (userId: string) => boolean
}

/** The membership as its holder sees it, the posts of `hide`'s people counting for nothing. */
export function conversationRecord(
  userId: string,
  membership: ConversationMembership,
  source: ConversationSource,
  hide: readonly string[] = [],
): ConversationRecord {
  const hidden = new Set(hide)
  const counts = (post: PostRecord | undefined) => post !== undefined && !hidden.has(post.authorId)
  let lastPost: PostRecord | undefined
  for (let i = source.posts.length - 1; i >= 0 && !lastPost; i--) {
    const post = source.posts[i] as PostRecord
    if (reaches(post, userId) && counts(post)) lastPost = post
  }
  return {
    _id: membership._id,
    participantIds: membership.participantIds.filter(source.exists),
    ...(lastPost ? { lastPost } : {}),
    unread: membership.unread.filter((id) => counts(source.postOf(id))).length,
    activeAt: membership.activeAt,
    hidden: membership.hidden === true,
  }
}

const byActivity: SortKey<ConversationRecord> = {
  of: (conversation) => [conversation.activeAt, conversation._id],
  parts: CURSOR.byTime,
  compare: (a, b) =>
    a.activeAt < b.activeAt ? -1 : a.activeAt > b.activeAt ? 1 : a._id < b._id ? -1 : a._id > b._id ? 1 : 0,
}

/** The shown conversations that hold a post for their reader, the most recently active first. */
export function conversationsPage(records: readonly ConversationRecord[], page: PageRequest): Page<ConversationRecord> {
  const listed = records.filter((record) => !record.hidden && record.lastPost !== undefined).sort(byActivity.compare)
  return pageOf(listed, byActivity, -1, page)
}

const byTime: SortKey<PostRecord> = {
  of: (post) => [post.createdAt, post._id],
  parts: CURSOR.byTime,
  compare: byCreation,
}

/** The conversation's posts (oldest first) that `userId` may read, by nobody `page.hide` names, newest first. */
export function conversationPostsPage(
  posts: readonly PostRecord[],
  userId: string,
  page: PageRequest,
): Page<PostRecord> {
  const hidden = new Set(page.hide)
  const readable = posts.filter((post) => reaches(post, userId) && !hidden.has(post.authorId))
  return pageOf(readable, byTime, -1, page)
}

/** The membership after a post reached its holder at `at`: active, shown, and unread unless they wrote it. */
export function delivered(membership: ConversationMembership, postId: string, at: string, unread: boolean) {
  const { hidden: _shown, ...rest } = membership
  return {
    ...rest,
    activeAt: at,
    unread: unread && !membership.unread.includes(postId) ? [...membership.unread, postId] : membership.unread,
  }
}

/** The user's record with their membership of `next`'s conversation replaced by it (or added). */
export function withMembership(user: UserRecord, next: ConversationMembership): UserRecord {
  const others = (user.directConversations ?? []).filter((membership) => membership._id !== next._id)
  return { ...user, directConversations: [...others, Object.freeze(next)] }
}
