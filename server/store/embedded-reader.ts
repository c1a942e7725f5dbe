import { pageByOffset } from './cursor.js'
import { usernameKey } from '../usernames.js'
import type { MemoryIndex } from './memory-index.js'
import { commentOf, commentsOf, likedIn, likersOf } from './post-parts.js'
import type { TransactionBase } from './transaction-reads.js'
import type { Page, PageRequest, PostQuery, PostRecord, UserRecord, UserSearch } from './types.js'

/** Ids of a page turned into their records. */
function recordsOf<T>(page: Page<string>, records: ReadonlyMap<string, T>): Page<T> {
  const items: T[] = []
  for (const id of page.items) {
    const record = records.get(id)
    if (record) items.push(record)
  }
  return { items, nextCursor: page.nextCursor }
}

/** The embedded store's reads, all answered from memory: the index holds the whole database. */
export class EmbeddedReader implements TransactionBase {
  constructor(protected readonly index: MemoryIndex) {}

  async getUser(id: string) {
    return this.index.users.get(id)
  }
  async getTokenHolder(id: string) {
    const user = this.index.users.get(id)
    return user && { _id: user._id, username: user.username, tokenVersion: user.tokenVersion }
  }
  async getUserByUsername(username: string) {
    return this.index.usersByName.get(usernameKey(username))
  }
  hasUsernameSkeleton(skeleton: string) {
    return this.index.usernameSkeletons.has(skeleton)
  }
  async getUsers(ids: readonly string[]) {
    return this.index.getUsers(ids)
  }
  /** In memory a whole record costs nothing more to hand out than its summary. */
  async getUserSummaries(ids: readonly string[]) {
    return this.index.getUsers(ids)
  }
  peopleVersion() {
    return this.index.peopleVersion
  }
  async listUsers(page: PageRequest) {
    return this.index.listUsers(page)
  }
  async suggestUsers(userId: string, limit: number) {
    return this.index.suggestUsers(userId, limit)
  }
  async getPost(id: string) {
    return this.index.posts.get(id)
  }
  async getPosts(ids: readonly string[]) {
    return this.index.getPosts(ids)
  }
  async likedAmong(userId: string, postIds: readonly string[]) {
    return likedIn(this.index.getPosts(postIds), userId)
  }
  async listLikers(postId: string, page: PageRequest) {
    return likersOf(this.index.posts.get(postId), page)
  }
  async getComment(postId: string, commentId: string) {
    return commentOf(this.index.posts.get(postId), commentId)
  }
  async listComments(postId: string, page: PageRequest) {
    return commentsOf(this.index.posts.get(postId), page)
  }
  async listPosts(query: PostQuery) {
    return this.index.listPosts(query)
  }
  async listBookmarks(userId: string, page: PageRequest) {
    const ids = [...(this.index.users.get(userId)?.bookmarks ?? [])].reverse()
    const { items, nextCursor } = pageByOffset(ids, page)
    return { items: this.index.getPosts(items), nextCursor }
  }
  async listTaggedPosts(tag: string, page: PageRequest): Promise<Page<PostRecord>> {
    return recordsOf(this.index.search.tagged(tag, page), this.index.posts)
  }
  async trendingTags(since: string, limit: number) {
    return this.index.search.trending(since, limit)
  }
  async searchPosts(terms: readonly string[], page: PageRequest): Promise<Page<PostRecord>> {
    return recordsOf(this.index.search.posts(terms, page), this.index.posts)
  }
  async searchUsers(search: UserSearch, page: PageRequest): Promise<Page<UserRecord>> {
    return recordsOf(this.index.names.users(search, page), this.index.users)
  }
  async getNotification(id: string) {
    return this.index.notifications.get(id)
  }
  async listNotifications(userId: string, page: PageRequest) {
    return this.index.notifications.page(userId, page)
  }
  async countUnread(userId: string) {
    return this.index.notifications.unreadCount(userId)
  }
  async isTokenRevoked(tokenId: string) {
    return this.index.revokedTokens.get(tokenId) !== undefined
  }
  /** A walk over every user: a reset is asked for rarely, and never more than its rate limit allows. */
  async usersWithEmail(email: string) {
    const wanted = email.toLowerCase()
    const found = [...this.index.users.values()].filter((user) => user.email.toLowerCase() === wanted)
    return found.sort((a, b) => a.createdAt.localeCompare(b.createdAt)).map((user) => user._id)
  }
  async getTwoFactor(userId: string) {
    return this.index.users.get(userId)?.twoFactor
  }
  usersBookmarking(postId: string) {
    return this.index.usersBookmarking(postId)
  }
  expiredRevocations(at: string) {
    return this.index.revokedTokens.expired(at)
  }
}
