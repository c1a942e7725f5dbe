import { randomUUID } from 'node:crypto'
import type { Visibility } from '../../common/audience.js'
import type {
  Database,
  JobStore,
  NotificationRecord,
  PostRecord,
  Store,
  StoreReader,
  StoreTx,
  UserRecord,
} from '../../server/store/types.js'
import { uuidDatabase } from './uuid-database.js'

/**
 * The storage contract as a table: each row runs one operation of the store interface in one case, and
 * the suite (test/server/store-contract.test.ts) runs every row on the embedded store and on PostgreSQL
 * from the same database, comparing what each answers or throws.
 */
export type Operation = keyof StoreTx | keyof JobStore

/** Every operation of the interface, so that one without a row in the table fails the typecheck or the suite. */
export const OPERATIONS: Record<Operation, true> = {
  enqueueJob: true,
  completeJob: true,
  enqueueJobs: true,
  claimJobs: true,
  settleJob: true,
  extendJobLease: true,
  pruneJobs: true,
  countJobs: true,
  listFailedJobs: true,
  watchJobs: true,
  getUser: true,
  getTokenHolder: true,
  getAccount: true,
  getUserByUsername: true,
  getUsers: true,
  getUserSummaries: true,
  listUsers: true,
  suggestUsers: true,
  getPost: true,
  getPosts: true,
  likedAmong: true,
  repostedAmong: true,
  followedAmong: true,
  feedAuthors: true,
  listFeedReposts: true,
  listPinned: true,
  countLikesBy: true,
  listLikers: true,
  listReposters: true,
  getComment: true,
  listComments: true,
  listReplies: true,
  pollVotesOf: true,
  listPosts: true,
  listBookmarks: true,
  listLikedPosts: true,
  countPosts: true,
  listTaggedPosts: true,
  trendingTags: true,
  searchPosts: true,
  searchUsers: true,
  getNotification: true,
  listNotifications: true,
  countUnread: true,
  listUnreadNotifications: true,
  isTokenRevoked: true,
  getReport: true,
  listReports: true,
  countOpenReports: true,
  countReportsSince: true,
  listAuditLog: true,
  listInvites: true,
  listPendingUsers: true,
  listStaffIds: true,
  listSuspended: true,
  relationsOf: true,
  relationBetween: true,
  listBlocks: true,
  listMutes: true,
  listFollowRequests: true,
  requestedAmong: true,
  usersWithEmail: true,
  getTwoFactor: true,
  getActorKeys: true,
  lockPost: true,
  lockPosts: true,
  relationsBetween: true,
  createUser: true,
  updateProfile: true,
  revokeTokens: true,
  setMailAlerts: true,
  setMailedThrough: true,
  setPassword: true,
  beginTwoFactor: true,
  enableTwoFactor: true,
  useTwoFactor: true,
  disableTwoFactor: true,
  addActorKeys: true,
  saveRemoteUser: true,
  getUserByActor: true,
  getPostByNote: true,
  revokeToken: true,
  follow: true,
  unfollow: true,
  block: true,
  unblock: true,
  mute: true,
  unmute: true,
  addFollowRequest: true,
  removeFollowRequest: true,
  acceptFollowRequest: true,
  acceptFollowRequests: true,
  addBookmark: true,
  removeBookmark: true,
  insertPost: true,
  updatePost: true,
  setPostCard: true,
  deletePost: true,
  setReaction: true,
  setReactions: true,
  setRepost: true,
  setPinned: true,
  addComment: true,
  updateComment: true,
  deleteComment: true,
  addPollVote: true,
  removePollVotes: true,
  notePollClosed: true,
  setVote: true,
  addNotification: true,
  removeNotifications: true,
  addNotifications: true,
  removeNotificationsOf: true,
  markNotificationsRead: true,
  setRole: true,
  setSuspension: true,
  approveUser: true,
  deletePendingUser: true,
  lockUser: true,
  addReport: true,
  resolveReport: true,
  addAuditEntry: true,
  addInvite: true,
  useInvite: true,
  emit: true,
  deleteAccount: true,
  isUsernameReserved: true,
  wasDeleted: true,
  listCommentsBy: true,
  listLikedPostIds: true,
  isMediaUsed: true,
  getConversation: true,
  listConversations: true,
  listConversationPosts: true,
  countUnreadConversations: true,
  openConversation: true,
  deliverDirectPost: true,
  markConversationRead: true,
  hideConversation: true,
  getApp: true,
  countCommunity: true,
  listMarkers: true,
  createApp: true,
  addAuthorizationCode: true,
  takeAuthorizationCode: true,
  setMarker: true,
  listPushSubscriptions: true,
  getPushSubscription: true,
  putPushSubscription: true,
  removePushSubscription: true,
  listCustomEmojis: true,
  getCustomEmoji: true,
  addCustomEmoji: true,
  removeCustomEmoji: true,
  listFilters: true,
  listLists: true,
  putFilter: true,
  deleteFilter: true,
  putList: true,
  deleteList: true,
  listPostVersions: true,
  listScheduledPosts: true,
  getScheduledPost: true,
  addPostVersion: true,
  putScheduledPost: true,
  takeScheduledPost: true,
  removeScheduledPost: true,
}

/** A read: run on the store itself and inside a transaction, which must answer alike. */
export interface ReadCase {
  op: Operation
  name: string
  read: (store: StoreReader) => Promise<unknown>
}

/** A write: run in a transaction of its own; after it, both stores must hold the same records. */
export interface WriteCase {
  op: Operation
  name: string
  write: (tx: StoreTx) => Promise<unknown>
}

/** An operation of the store beside its transactions (the job queue's): run on the store itself. */
interface StoreCase {
  op: Operation
  name: string
  run: (store: Store) => Promise<unknown>
}

export type ContractCase = ReadCase | WriteCase | StoreCase

/** A uuid no record has, and an id no record could have (PostgreSQL's ids are uuids). */
export const UNKNOWN = '00000000-0000-4000-8000-000000000000'
export const MALFORMED = 'not-a-uuid'

/** The database both stores start from and the ids the rows name, made once so they are the same for both. */
export interface Fixture {
  database: Database
  /** Eight users; u[0] follows u[5] and u[1], u[0] and u[1] have bookmarks (uuidDatabase). */
  u: string[]
  /** Twelve posts, p[i] by u[i % 8]; p[1] has a comment with votes, p[4] likes. */
  p: string[]
  /** The first comment of p[1] and of p[2]. */
  c1: string
  c2: string
  /** A user the writes create, and two signups waiting for approval. */
  newcomer: UserRecord
  pending: [UserRecord, UserRecord]
  /** Ids for the records the writes add. */
  fresh: Record<
    | 'post'
    | 'poll'
    | 'reply'
    | 'comment'
    | 'notification'
    | 'unread'
    | 'report'
    | 'resolved'
    | 'evidence'
    | 'audit'
    | 'token'
    | 'conversation'
    | 'pair'
    | 'direct'
    | 'answer'
    | 'aside'
    | 'again'
    | 'remote'
    | 'remotePost',
    string
  >
  at: (minute: number) => string
}

export function contractFixture(): Fixture {
  const database = withAudiences(uuidDatabase({ users: 8, posts: 12 }))
  const u = database.users.map((user) => user._id)
  const p = database.posts.map((post) => post._id)
  const commentOf = (i: number) => database.posts[i]?.comments[0]?._id as string
  const at = (minute: number) => new Date(Date.UTC(2026, 5, 1, 0, minute)).toISOString()
  // A new account: the first user's profile under a name of its own, with no follows, bookmarks or logouts yet.
  const blank = { bookmarks: [], following: [], followers: [], tokenVersion: 0, createdAt: at(0), updatedAt: at(0) }
  const person = (username: string, extra: Partial<UserRecord> = {}): UserRecord => ({
    ...(database.users[0] as UserRecord),
    ...blank,
    ...{ _id: randomUUID(), username, email: `${username}@example.com` },
    ...extra,
  })
  return {
    database,
    u,
    p,
    c1: commentOf(1),
    c2: commentOf(2),
    newcomer: person('newcomer'),
    pending: [person('waiting', { pending: true }), person('hopeful', { pending: true })],
    fresh: {
      post: randomUUID(),
      poll: randomUUID(),
      reply: randomUUID(),
      comment: randomUUID(),
      notification: randomUUID(),
      unread: randomUUID(),
      report: randomUUID(),
      resolved: randomUUID(),
      evidence: randomUUID(),
      audit: randomUUID(),
      token: randomUUID(),
      conversation: randomUUID(),
      pair: randomUUID(),
      direct: randomUUID(),
      answer: randomUUID(),
      aside: randomUUID(),
      again: randomUUID(),
      remote: randomUUID(),
      remotePost: randomUUID(),
    },
    at,
  }
}

/** Upload URLs only a card and only an open report's snapshot show (isMediaUsed). */
export const CARD_IMAGE = '/media/0c0c0c0c-0000-4000-8000-000000000001.png'
export const REPORTED_IMAGE = '/media/0c0c0c0c-0000-4000-8000-000000000002.png'

/**
 * The database with posts of every audience (DECISIONS §12), in turn by their place: public, unlisted,
 * followers (addressing someone three places on) and direct (addressing the next person); three of them
 * tagged, and notifications to u[4] and u[1] about posts of each audience, so the reads of store-contract-
 * audiences.ts have something to keep and something to leave out.
 */
function withAudiences(database: Database): Database {
  const users = database.users.map((user) => user._id)
  const person = (i: number) => users[i % users.length] as string
  const audiences = ['public', 'unlisted', 'followers', 'direct'] as const
  const posts = database.posts.map((post, i): PostRecord => {
    const visibility = audiences[i % 4] as Visibility
    const addressed = visibility === 'followers' ? [person(i + 3)] : visibility === 'direct' ? [person(i + 1)] : []
    const tagged = i === 0 || i === 2 || i === 3 ? ' #chirp' : ''
    // A public post keeps no audience, as PostgreSQL reads one back.
    const audience = visibility === 'public' ? {} : { visibility }
    return { ...post, content: post.content + tagged, ...audience, ...(addressed.length > 0 ? { addressed } : {}) }
  })
  const notifications = posts.slice(0, 8).flatMap((post, i): NotificationRecord[] =>
    [4, 1].map((recipient) => ({
      _id: randomUUID(),
      type: 'mention',
      recipientId: person(recipient),
      actorId: post.authorId === person(recipient) ? person(recipient + 1) : post.authorId,
      postId: post._id,
      createdAt: new Date(Date.UTC(2026, 4, 1, 0, i)).toISOString(),
      read: i % 3 === 0,
    })),
  )
  return { ...database, posts, notifications }
}

/** What a row gave: its answer, made comparable, or the error it threw (its message and status). */
export type Outcome = { answer: unknown } | { error: string; statusCode?: number }

export async function outcomeOf(work: () => Promise<unknown>): Promise<Outcome> {
  try {
    return { answer: comparable(await work()) }
  } catch (error) {
    const { message, statusCode } = error as { message: string; statusCode?: number }
    return statusCode === undefined ? { error: message } : { error: message, statusCode }
  }
}

/**
 * Sets as sorted arrays, and a user record without what the embedded store alone keeps on it (blocks,
 * mutes, two-factor state, federation keys, liked posts, their lists' places, follow requests, conversations, filters and lists, which
 * PostgreSQL keeps in tables and its own reads answer for).
 */
const EMBEDDED_ONLY = new Set([
  'blocking',
  'muting',
  'twoFactor',
  'actorKeys',
  'likes',
  'places',
  'followRequests',
  'directConversations',
  'filters',
  'lists',
  'scheduledPosts',
])

/**
 * A poll's voters and a post's reposts, which the embedded store keeps on the post and PostgreSQL in tables
 * (pollVotesOf and repostedAmong read them).
 */
const isPollRecord = (record: Record<string, unknown>) => 'counts' in record && 'closesAt' in record

function comparable(value: unknown): unknown {
  if (value instanceof Set) return [...(value as Set<unknown>)].map(String).sort()
  if (Array.isArray(value)) return value.map(comparable)
  if (value === null || typeof value !== 'object') return value
  const record = value as Record<string, unknown>
  const kept = Object.entries(record).filter(
    ([key]) =>
      !('passwordHash' in record && EMBEDDED_ONLY.has(key)) &&
      !(isPollRecord(record) && key === 'voters') &&
      !('authorId' in record && 'likedBy' in record && (key === 'reposts' || key === 'versions')),
  )
  return Object.fromEntries(kept.map(([key, inner]) => [key, comparable(inner)]))
}

/** Pages through a list with `limit` a page: every item once, then the end. */
export async function everyPage<T>(
  read: (cursor: string | undefined) => Promise<{ items: T[]; nextCursor: string | null }>,
): Promise<T[]> {
  const items: T[] = []
  let cursor: string | undefined
  for (let pages = 0; pages < 50; pages++) {
    const page = await read(cursor)
    items.push(...page.items)
    if (page.nextCursor === null) return items
    cursor = page.nextCursor
  }
  throw new Error('more than 50 pages')
}
