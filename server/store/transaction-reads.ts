import { byShortcode } from './client-app-index.js'
import { soonestFirst } from './post-plans.js'
import { usernameKey, usernameSkeleton } from '../usernames.js'
import { newestFirst, type NotificationBase } from './notification-index.js'
import { commentOf, commentsOf, likedIn, likersOf, likesByIn, repostedIn, repostersOf } from './post-parts.js'
import { repliesIn, votesIn } from './poll-parts.js'
import { accountOf, summaryOfRecord } from './summaries.js'
import { relationOf, relationsIn, requestedIn } from './relations.js'
import { StagedNotifications } from './staged-notifications.js'
import { audienceTest, shownNotifications } from './audience-scope.js'
import { byCreation } from './memory-index.js'
import { conversationRecord, membershipOf } from './conversation-parts.js'
import type {
  AppRecord,
  AuthorizationCodeRecord,
  MarkerRecord,
  PushSubscriptionRecord,
  CustomEmojiRecord,
  AudienceScope,
  AuditEntryRecord,
  ConversationMembership,
  FeedRepostQuery,
  InviteRecord,
  JobRecord,
  PageRequest,
  ReportRecord,
  ReportStatus,
  ReservedNameRecord,
  PostPage,
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
  /** The ids of the posts the user likes, oldest like first, as committed. */
  likesOf(userId: string): readonly string[]
  /** The user's record as committed, at once: a write works out the places of its lists from it. */
  userRecord(userId: string): UserRecord | undefined
  hasUsernameSkeleton(skeleton: string): boolean
  expiredRevocations(at: string): readonly string[]
  getInvite(code: string): Promise<InviteRecord | undefined>
  /** Who blocks the user, as committed. */
  blockersOf(userId: string): readonly string[]
  /** Whom the user asked to follow and waits for, as committed. */
  usersRequestedBy(userId: string): readonly string[]
  /** The posts in whose polls the user voted, as committed. */
  pollsVotedIn(userId: string): readonly string[]
  /** The next four are the committed records an account's deletion removes or changes. */
  postIdsBy(authorId: string): readonly string[]
  postsTouchedBy(userId: string): readonly string[]
  usersMuting(userId: string): readonly string[]
  /** The reports they made, and those about them or what they made. */
  reportsNaming(userId: string): readonly string[]
  /** Held usernames past their time, forgotten at the next deletion. */
  expiredReservations(at: string): readonly string[]
  /** The job as committed. */
  getJob(id: string): JobRecord | undefined
  /** The jobs, in any state, whose payload names one of these posts or this address. */
  jobsNaming(postIds: readonly string[], email: string): readonly string[]
  /** The conversation's direct posts as committed, oldest first. */
  conversationPosts(conversationId: string): readonly PostRecord[]
  /** The authorization code as committed. */
  getCode(id: string): AuthorizationCodeRecord | undefined
  /** The committed codes expired at `at`, or given to this user when `userId` is set. */
  codesToForget(at: string, userId?: string): readonly string[]
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
  /** Pending signups rejected. */
  readonly deletedUsers = new Set<string>()
  /** Reports staged, or null for one removed (its reporter's account deleted). */
  readonly reports = new Map<string, ReportRecord | null>()
  /** Held usernames staged, or null for one forgotten. */
  readonly reservedNames = new Map<string, ReservedNameRecord | null>()
  readonly auditLog = new Map<string, AuditEntryRecord>()
  readonly invites = new Map<string, InviteRecord>()
  /** Jobs staged, or null for one forgotten (an account's deletion takes the jobs about it). */
  readonly jobs = new Map<string, JobRecord | null>()
  readonly apps = new Map<string, AppRecord>()
  /** Codes staged, or null for one used or forgotten. */
  readonly authorizationCodes = new Map<string, AuthorizationCodeRecord | null>()
  /** Markers staged, or null for one forgotten (an account's deletion). */
  readonly markers = new Map<string, MarkerRecord | null>()
  /** Push subscriptions staged, or null for one removed. */
  readonly pushSubscriptions = new Map<string, PushSubscriptionRecord | null>()
  /** Custom emoji staged, or null for one removed. */
  readonly customEmojis = new Map<string, CustomEmojiRecord | null>()
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
      this.revokedTokens.size === 0 &&
      this.deletedUsers.size === 0 &&
      this.reports.size === 0 &&
      this.reservedNames.size === 0 &&
      this.auditLog.size === 0 &&
      this.invites.size === 0 &&
      this.jobs.size === 0 &&
      this.apps.size === 0 &&
      this.authorizationCodes.size === 0 &&
      this.markers.size === 0 &&
      this.pushSubscriptions.size === 0 &&
      this.customEmojis.size === 0
    )
  }

  async getUser(id: string) {
    if (this.deletedUsers.has(id)) return undefined
    return this.users.get(id) ?? this.base.getUser(id)
  }
  countCommunity() {
    return this.base.countCommunity()
  }
  async getApp(id: string) {
    return this.apps.get(id) ?? this.base.getApp(id)
  }
  /** The committed markers, with those this transaction staged or forgot. */
  async listMarkers(userId: string) {
    const found = new Map((await this.base.listMarkers(userId)).map((marker) => [marker._id, marker]))
    for (const [id, marker] of this.markers) {
      if (marker === null) found.delete(id)
      else if (marker.userId === userId) found.set(id, marker)
    }
    return [...found.values()]
  }
  /** The committed subscriptions, with those this transaction staged or removed. */
  async listPushSubscriptions(userId: string) {
    const found = new Map((await this.base.listPushSubscriptions(userId)).map((each) => [each._id, each]))
    for (const [id, subscription] of this.pushSubscriptions) {
      if (subscription === null || subscription.userId !== userId) found.delete(id)
      else found.set(id, subscription)
    }
    return [...found.values()]
  }
  /** The committed emoji, with those this transaction staged or removed. */
  async listCustomEmojis() {
    const found = new Map((await this.base.listCustomEmojis()).map((each) => [each._id, each]))
    for (const [shortcode, emoji] of this.customEmojis) {
      if (emoji === null) found.delete(shortcode)
      else found.set(shortcode, emoji)
    }
    return byShortcode([...found.values()])
  }
  async getCustomEmoji(shortcode: string) {
    const staged = this.customEmojis.get(shortcode)
    return staged === null ? undefined : (staged ?? this.base.getCustomEmoji(shortcode))
  }
  async getPushSubscription(id: string) {
    const staged = this.pushSubscriptions.get(id)
    return staged === null ? undefined : (staged ?? this.base.getPushSubscription(id))
  }
  async getTokenHolder(id: string) {
    const user = await this.getUser(id)
    return user && { _id: user._id, username: user.username, tokenVersion: user.tokenVersion }
  }
  async getAccount(id: string) {
    return accountOf(await this.getUser(id))
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
  async getUserSummaries(ids: readonly string[]) {
    return (await this.getUsers(ids)).map(summaryOfRecord)
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
  async countLikesBy(postIds: readonly string[], userIds: readonly string[]) {
    return likesByIn(await this.getPosts(postIds), userIds)
  }
  async repostedAmong(userId: string, postIds: readonly string[]) {
    return repostedIn(await this.getPosts(postIds), userId)
  }
  async followedAmong(userId: string, otherIds: readonly string[]) {
    const following = new Set((await this.getUser(userId))?.following)
    return new Set(otherIds.filter((id) => following.has(id)))
  }
  async feedAuthors(userId: string) {
    const user = await this.getUser(userId)
    return user ? [userId, ...user.following] : []
  }
  listFeedReposts(userId: string, query: FeedRepostQuery) {
    return this.base.listFeedReposts(userId, query)
  }
  /** Pins staged in this transaction count: a fourth pin is refused by what the transaction itself did. */
  async listPinned(userId: string, audience?: AudienceScope) {
    const committed = await this.base.listPinned(userId)
    const ids = new Set(committed.map((post) => post._id))
    for (const [id, post] of this.posts) if (post?.authorId === userId) ids.add(id)
    const current = await this.getPosts([...ids])
    const kept = await this.#audience(audience)
    return current
      .filter((post) => post.pinnedAt !== undefined && (!kept || kept(post)))
      .sort((a, b) => (b.pinnedAt ?? '').localeCompare(a.pinnedAt ?? '') || b._id.localeCompare(a._id))
  }
  /** The test of the posts `scope` keeps, with the follows of the reader as this transaction leaves them. */
  async #audience(scope: AudienceScope | undefined) {
    const readerId = scope?.kind === 'listed' ? undefined : scope?.readerId
    const following = readerId === undefined ? [] : ((await this.getUser(readerId))?.following ?? [])
    return audienceTest(scope, () => following)
  }
  async listLikers(postId: string, page: PageRequest) {
    return likersOf(await this.getPost(postId), page)
  }
  async listReposters(postId: string, page: PageRequest) {
    return repostersOf(await this.getPost(postId), page)
  }
  async getComment(postId: string, commentId: string) {
    return commentOf(await this.getPost(postId), commentId)
  }
  async listReplies(postId: string, commentId: string) {
    return repliesIn(await this.getPost(postId), commentId)
  }
  async pollVotesOf(postIds: readonly string[], userIds: readonly string[]) {
    return votesIn(await this.getPosts(postIds), userIds)
  }
  async listComments(postId: string, page: PageRequest) {
    return commentsOf(await this.getPost(postId), page)
  }
  listUsers(page: PageRequest) {
    return this.base.listUsers(page)
  }
  suggestUsers(userId: string, limit: number, hide?: readonly string[], uncounted?: readonly string[]) {
    return this.base.suggestUsers(userId, limit, hide, uncounted)
  }
  listPosts(query: PostQuery) {
    return this.base.listPosts(query)
  }
  listBookmarks(userId: string, page: PostPage) {
    return this.base.listBookmarks(userId, page)
  }
  listLikedPosts(userId: string, page: PostPage) {
    return this.base.listLikedPosts(userId, page)
  }
  countPosts(authorId: string, audience?: AudienceScope) {
    return this.base.countPosts(authorId, audience)
  }
  listTaggedPosts(tag: string, page: PostPage) {
    return this.base.listTaggedPosts(tag, page)
  }
  trendingTags(since: string, limit: number, hide?: readonly string[]) {
    return this.base.trendingTags(since, limit, hide)
  }
  searchPosts(terms: readonly string[], page: PostPage) {
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
  /** The unread ones listNotifications would show, as this transaction leaves them. */
  async countUnread(userId: string) {
    return (await this.#shownUnread(userId)).length
  }
  async listUnreadNotifications(userId: string) {
    return newestFirst(await this.#shownUnread(userId))
  }
  async #shownUnread(userId: string) {
    const unread = this.notifications.unreadOf(userId)
    const posts = await this.getPosts([...new Set(unread.flatMap((n) => (n.postId === undefined ? [] : [n.postId])))])
    const postOf = new Map(posts.map((post) => [post._id, post]))
    const following = posts.length === 0 ? [] : ((await this.getUser(userId))?.following ?? [])
    const shown = shownNotifications(
      userId,
      (id) => postOf.get(id),
      () => following,
    )
    return unread.filter(shown)
  }
  async getReport(id: string) {
    const staged = this.reports.get(id)
    return staged === null ? undefined : (staged ?? this.base.getReport(id))
  }
  listReports(status: ReportStatus, page: PageRequest) {
    return this.base.listReports(status, page)
  }
  async countOpenReports() {
    let open = await this.base.countOpenReports()
    for (const [id, report] of this.reports) {
      const before = await this.base.getReport(id)
      open += (report?.status === 'open' ? 1 : 0) - (before?.status === 'open' ? 1 : 0)
    }
    return open
  }
  async countReportsSince(reporterId: string, since: string) {
    let staged = 0
    for (const report of this.reports.values()) {
      if (report && report.reporterId === reporterId && report.createdAt >= since) staged++
    }
    return (await this.base.countReportsSince(reporterId, since)) + staged
  }
  listAuditLog(page: PageRequest) {
    return this.base.listAuditLog(page)
  }
  listInvites(page: PageRequest) {
    return this.base.listInvites(page)
  }
  async getInvite(code: string) {
    return this.invites.get(code) ?? this.base.getInvite(code)
  }
  listPendingUsers(page: PageRequest) {
    return this.base.listPendingUsers(page)
  }
  listStaffIds() {
    return this.base.listStaffIds()
  }
  /** The committed suspensions, with those this transaction staged or lifted. */
  async listSuspended(at: string) {
    const found = new Map((await this.base.listSuspended(at)).map((entry) => [entry.userId, entry.until]))
    for (const user of this.users.values()) {
      const until = user.suspension?.until
      if (user.suspension && (until === null || (until !== undefined && until > at))) found.set(user._id, until ?? null)
      else found.delete(user._id)
    }
    return [...found].map(([userId, until]) => ({ userId, until }))
  }
  /** The committed blockers, with the blocks this transaction staged or lifted. */
  async relationsOf(userId: string, at: string) {
    const blockers = new Set(this.base.blockersOf(userId))
    for (const user of this.users.values()) {
      if (user.blocking?.includes(userId)) blockers.add(user._id)
      else blockers.delete(user._id)
    }
    return relationsIn(await this.getUser(userId), blockers, at)
  }
  async relationBetween(viewerId: string, otherId: string, at: string) {
    return relationOf(await this.getUser(viewerId), await this.getUser(otherId), at)
  }
  listBlocks(userId: string, page: PageRequest) {
    return this.base.listBlocks(userId, page)
  }
  listMutes(userId: string, at: string, page: PageRequest) {
    return this.base.listMutes(userId, at, page)
  }
  listFollowRequests(userId: string, page: PageRequest) {
    return this.base.listFollowRequests(userId, page)
  }
  async requestedAmong(followerId: string, userIds: readonly string[]) {
    return requestedIn(await this.getUsers(userIds), followerId)
  }
  usersWithEmail(email: string) {
    return this.base.usersWithEmail(email)
  }
  async isUsernameReserved(username: string, at: string) {
    const staged = this.reservedNames.get(usernameKey(username))
    if (staged === null) return false
    return staged ? staged.until > at : this.base.isUsernameReserved(username, at)
  }
  async wasDeleted(userId: string) {
    if (this.deletedUsers.has(userId)) return true
    return this.base.wasDeleted(userId)
  }
  listCommentsBy(userId: string, page: PageRequest) {
    return this.base.listCommentsBy(userId, page)
  }
  listLikedPostIds(userId: string, page: PageRequest) {
    return this.base.listLikedPostIds(userId, page)
  }
  isMediaUsed(url: string) {
    return this.base.isMediaUsed(url)
  }
  async listFilters(userId: string) {
    return [...((await this.getUser(userId))?.filters ?? [])]
  }
  async listLists(userId: string) {
    return [...((await this.getUser(userId))?.lists ?? [])]
  }
  async listPostVersions(postId: string) {
    return [...((await this.getPost(postId))?.versions ?? [])]
  }
  async listScheduledPosts(userId: string) {
    return soonestFirst((await this.getUser(userId))?.scheduledPosts)
  }
  async getScheduledPost(userId: string, id: string) {
    return (await this.getUser(userId))?.scheduledPosts?.find((each) => each._id === id)
  }
  async getTwoFactor(userId: string) {
    return (await this.getUser(userId))?.twoFactor
  }
  async getUserByActor(actorId: string) {
    for (const user of this.users.values()) if (user.remote?.actorId === actorId) return user
    return this.base.getUserByActor(actorId)
  }
  async getPostByNote(noteId: string) {
    for (const post of this.posts.values()) if (post?.remote?.noteId === noteId) return post
    const kept = await this.base.getPostByNote(noteId)
    // Deleted or changed in this transaction: what it staged stands.
    return kept && this.getPost(kept._id)
  }
  async getActorKeys(userId: string) {
    return (await this.getUser(userId))?.actorKeys
  }
  /**
   * What a membership's record is drawn from, with what this transaction staged: the posts it wrote into
   * the conversation or deleted from it, and the people it deleted.
   */
  async #conversationSource(membership: ConversationMembership) {
    const committed = this.base.conversationPosts(membership._id)
    const posts = committed.flatMap((post) => {
      const staged = this.posts.get(post._id)
      return staged === null ? [] : [staged ?? post]
    })
    const known = new Set(committed.map((post) => post._id))
    for (const post of this.posts.values()) {
      if (post?.conversationId === membership._id && !known.has(post._id)) posts.push(post)
    }
    const unread = new Map((await this.getPosts(membership.unread)).map((post) => [post._id, post]))
    const people = new Set((await this.getUsers(membership.participantIds)).map((user) => user._id))
    return {
      posts: posts.sort(byCreation),
      postOf: (id: string) => unread.get(id),
      exists: (id: string) => people.has(id),
    }
  }
  async getConversation(conversationId: string, userId: string, hide?: readonly string[]) {
    const membership = membershipOf(await this.getUser(userId), conversationId)
    return membership && conversationRecord(userId, membership, await this.#conversationSource(membership), hide)
  }
  listConversations(userId: string, page: PageRequest) {
    return this.base.listConversations(userId, page)
  }
  listConversationPosts(conversationId: string, userId: string, page: PageRequest) {
    return this.base.listConversationPosts(conversationId, userId, page)
  }
  async countUnreadConversations(userId: string, hide?: readonly string[]) {
    let count = 0
    for (const membership of (await this.getUser(userId))?.directConversations ?? []) {
      const conversation = conversationRecord(userId, membership, await this.#conversationSource(membership), hide)
      if (conversation.unread > 0) count++
    }
    return count
  }
  async isTokenRevoked(tokenId: string) {
    const staged = this.revokedTokens.get(tokenId)
    return staged === undefined ? this.base.isTokenRevoked(tokenId) : staged !== null
  }
}
