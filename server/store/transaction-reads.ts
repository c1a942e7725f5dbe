import { usernameKey, usernameSkeleton } from '../usernames.js'
import type { NotificationBase } from './notification-index.js'
import { commentOf, commentsOf, likedIn, likersOf } from './post-parts.js'
import { StagedNotifications } from './staged-notifications.js'
import type {
  PageRequest,
  PostQuery,
  PostRecord,
  RevokedTokenRecord,
  StoreReader,
  UserRecord,
  UserSearch,
} from './types.js'

/**
 * The store's own readers, plus the reads only writes need: who bookmarked a post (for its deletion),
 * whether a username with that usernameSkeleton exists (for a signup), and which revocations have
 * outlived their token (forgotten at the next logout).
 */
export interface TransactionBase extends StoreReader {
  usersBookmarking(postId: string): readonly string[]
  hasUsernameSkeleton(skeleton: string): boolean
  expiredRevocations(at: string): readonly string[]
}

/**
 * The reads of a transaction of the embedded store: records it staged, else the committed ones. Lists
 * read committed data: no service lists inside a transaction.
 */
export class TransactionReads implements StoreReader {
  readonly users = new Map<string, UserRecord>()
  readonly posts = new Map<string, PostRecord | null>()
  /** Revocations staged, or null for one to forget. */
  readonly revokedTokens = new Map<string, RevokedTokenRecord | null>()
  readonly notifications: StagedNotifications
  constructor(
    protected readonly base: TransactionBase,
    notifications: NotificationBase,
  ) {
    this.notifications = new StagedNotifications(notifications)
  }

  get empty() {
    return (
      this.users.size === 0 &&
      this.posts.size === 0 &&
      this.notifications.changes.size === 0 &&
      this.revokedTokens.size === 0
    )
  }

  async getUser(id: string) {
    return this.users.get(id) ?? this.base.getUser(id)
  }
  async getTokenHolder(id: string) {
    const user = await this.getUser(id)
    return user && { _id: user._id, username: user.username, tokenVersion: user.tokenVersion }
  }
  async getUserByUsername(username: string) {
    const key = usernameKey(username)
    for (const user of this.users.values()) if (usernameKey(user.username) === key) return user
    return this.base.getUserByUsername(username)
  }
  hasUsernameSkeleton(skeleton: string) {
    for (const user of this.users.values()) if (usernameSkeleton(user.username) === skeleton) return true
    return this.base.hasUsernameSkeleton(skeleton)
  }
  async getUsers(ids: readonly string[]) {
    const found = await Promise.all(ids.map((id) => this.getUser(id)))
    return found.filter((user): user is UserRecord => user !== undefined)
  }
  getUserSummaries(ids: readonly string[]) {
    return this.getUsers(ids)
  }
  async getPost(id: string) {
    const staged = this.posts.get(id)
    return staged === null ? undefined : (staged ?? this.base.getPost(id))
  }
  async getPosts(ids: readonly string[]) {
    const found = await Promise.all(ids.map((id) => this.getPost(id)))
    return found.filter((post): post is PostRecord => post !== undefined)
  }
  async likedAmong(userId: string, postIds: readonly string[]) {
    return likedIn(await this.getPosts(postIds), userId)
  }
  async listLikers(postId: string, page: PageRequest) {
    return likersOf(await this.getPost(postId), page)
  }
  async getComment(postId: string, commentId: string) {
    return commentOf(await this.getPost(postId), commentId)
  }
  async listComments(postId: string, page: PageRequest) {
    return commentsOf(await this.getPost(postId), page)
  }
  listUsers(page: PageRequest) {
    return this.base.listUsers(page)
  }
  suggestUsers(userId: string, limit: number) {
    return this.base.suggestUsers(userId, limit)
  }
  listPosts(query: PostQuery) {
    return this.base.listPosts(query)
  }
  listBookmarks(userId: string, page: PageRequest) {
    return this.base.listBookmarks(userId, page)
  }
  listTaggedPosts(tag: string, page: PageRequest) {
    return this.base.listTaggedPosts(tag, page)
  }
  trendingTags(since: string, limit: number) {
    return this.base.trendingTags(since, limit)
  }
  searchPosts(terms: readonly string[], page: PageRequest) {
    return this.base.searchPosts(terms, page)
  }
  searchUsers(search: UserSearch, page: PageRequest) {
    return this.base.searchUsers(search, page)
  }
  listNotifications(userId: string, page: PageRequest) {
    return this.base.listNotifications(userId, page)
  }
  async getNotification(id: string) {
    return this.notifications.get(id)
  }
  async countUnread(userId: string) {
    return this.notifications.unread(userId)
  }
  usersWithEmail(email: string) {
    return this.base.usersWithEmail(email)
  }
  async getTwoFactor(userId: string) {
    return (await this.getUser(userId))?.twoFactor
  }
  async isTokenRevoked(tokenId: string) {
    const staged = this.revokedTokens.get(tokenId)
    return staged === undefined ? this.base.isTokenRevoked(tokenId) : staged !== null
  }
}
