import { byShortcode } from './client-app-index.js'
import { soonestFirst } from './post-plans.js'
import { audienceTest, shownNotifications } from './audience-scope.js'
import { newestFirst } from './notification-index.js'
import { fullPage } from './full-page.js'
import { pageByPlace } from './list-places.js'
import { relationOf, relationsIn, requestedIn, runningMutes } from './relations.js'
import { usernameKey } from '../usernames.js'
import type { MemoryIndex } from './memory-index.js'
import { commentOf, commentsOf, likedIn, likersOf, likesByIn, repostedIn, repostersOf } from './post-parts.js'
import { repliesIn, votesIn } from './poll-parts.js'
import { accountOf, summaryOfRecord } from './summaries.js'
import {
  conversationPostsPage,
  conversationRecord,
  conversationsPage,
  membershipOf,
  type ConversationSource,
} from './conversation-parts.js'
import { CURSOR, checkCursor, pageByOffset } from './cursor.js'
import type { TransactionBase } from './transaction-reads.js'
import type {
  AudienceScope,
  FeedRepostQuery,
  MuteRecord,
  Page,
  PageRequest,
  PostPage,
  PostQuery,
  PostRecord,
  ReportStatus,
  UserRecord,
  UserSearch,
} from './types.js'

/** Ids of a page turned into their records. */
function recordsOf<T>(page: Page<string>, records: ReadonlyMap<string, T>): Page<T> {
  const items: T[] = []
  for (const id of page.items) {
    const record = records.get(id)
    if (record) items.push(record)
  }
  return { items, nextCursor: page.nextCursor }
}

const authorOf = (post: PostRecord) => post.authorId
const withMedia = (post: PostRecord) => post.mediaUrl !== ''
const idOf = (user: UserRecord) => user._id

/** Both tests, where either may be absent. */
function bothOf<T>(a: ((item: T) => boolean) | undefined, b: ((item: T) => boolean) | undefined) {
  return a && b ? (item: T) => a(item) && b(item) : (a ?? b)
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
  async getAccount(id: string) {
    return accountOf(this.index.users.get(id))
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
    return this.index.getUsers(ids).map(summaryOfRecord)
  }
  async listUsers(page: PageRequest) {
    const hide = this.index.withPending(page.hide)
    return fullPage({ ...page, hide }, (part) => this.index.listUsers(part), idOf)
  }
  async suggestUsers(userId: string, limit: number, hide?: readonly string[], uncounted?: readonly string[]) {
    return this.index.suggestUsers(userId, limit, hide, uncounted)
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
  async countLikesBy(postIds: readonly string[], userIds: readonly string[]) {
    return likesByIn(this.index.getPosts(postIds), userIds)
  }
  async repostedAmong(userId: string, postIds: readonly string[]) {
    return repostedIn(this.index.getPosts(postIds), userId)
  }
  async followedAmong(userId: string, otherIds: readonly string[]) {
    const following = new Set(this.index.users.get(userId)?.following)
    return new Set(otherIds.filter((id) => following.has(id)))
  }
  async feedAuthors(userId: string) {
    const user = this.index.users.get(userId)
    return user ? [userId, ...user.following] : []
  }
  async listFeedReposts(userId: string, query: FeedRepostQuery) {
    return this.index.listFeedReposts(userId, query)
  }
  async listPinned(userId: string, audience?: AudienceScope) {
    const pinned = this.index.listPinned(userId)
    const kept = this.#audience(audience)
    return kept ? pinned.filter(kept) : pinned
  }
  /**
   * The test of the posts `scope` keeps (`feedOf`: for that reader's home feed); whom the reader follows is
   * the set the index keeps with their feed, read when first needed.
   */
  #audience(scope: AudienceScope | undefined, feedOf?: string) {
    return audienceTest(scope, (readerId) => this.index.feedAuthorSet(readerId), feedOf)
  }
  async listLikers(postId: string, page: PageRequest) {
    const post = this.index.posts.get(postId)
    return fullPage(
      page,
      (part) => likersOf(post, part),
      (id) => id,
    )
  }
  async listReposters(postId: string, page: PageRequest) {
    return repostersOf(this.index.posts.get(postId), page)
  }
  async getComment(postId: string, commentId: string) {
    return commentOf(this.index.posts.get(postId), commentId)
  }
  async listReplies(postId: string, commentId: string) {
    return repliesIn(this.index.posts.get(postId), commentId)
  }
  async pollVotesOf(postIds: readonly string[], userIds: readonly string[]) {
    return votesIn(this.index.getPosts(postIds), userIds)
  }
  /** Walks every post: only an account's deletion asks. */
  pollsVotedIn(userId: string) {
    const ids: string[] = []
    for (const post of this.index.posts.values()) {
      if (post.poll?.voters?.some((vote) => vote.userId === userId)) ids.push(post._id)
    }
    return ids
  }
  async listComments(postId: string, page: PageRequest) {
    const post = this.index.posts.get(postId)
    return fullPage(
      page,
      (part) => commentsOf(post, part),
      (comment) => comment.authorId,
    )
  }
  async listPosts({ hide, media, audience, ...query }: PostQuery) {
    const read = (part: PageRequest) => this.index.listPosts({ ...query, ...part })
    const kept = this.#audience(audience, query.feedOf)
    return fullPage({ ...query, hide }, read, authorOf, bothOf(media ? withMedia : undefined, kept))
  }
  async countPosts(authorId: string, audience?: AudienceScope) {
    const kept = this.#audience(audience)
    return kept ? this.index.postsBy(authorId).filter(kept).length : this.index.postCountOf(authorId)
  }
  async listLikedPosts(userId: string, page: PostPage) {
    return this.#postsByPlace(userId, 'likes', page)
  }
  async listBookmarks(userId: string, page: PostPage) {
    return this.#postsByPlace(userId, 'bookmarks', page)
  }
  /** A page of one of the user's lists, by the places its entries hold in it (list-places.ts). */
  #byPlace(
    userId: string,
    list: Parameters<typeof pageByPlace>[1],
    direction: 1 | -1,
    page: PageRequest,
    shown?: (id: string) => boolean,
  ) {
    return pageByPlace(this.index.users.get(userId), list, this.index.likesOf(userId), direction, page, shown)
  }
  /** The posts of one of the user's lists, newest first. */
  #postsByPlace(userId: string, list: 'likes' | 'bookmarks', { audience, ...page }: PostPage) {
    return fullPage(
      page,
      (part) => {
        const { items, nextCursor } = this.#byPlace(userId, list, -1, part)
        return { items: this.index.getPosts(items), nextCursor }
      },
      authorOf,
      this.#audience(audience),
    )
  }
  async listTaggedPosts(tag: string, { audience, ...page }: PostPage): Promise<Page<PostRecord>> {
    const read = (part: PageRequest) => recordsOf(this.index.search.tagged(tag, part), this.index.posts)
    return fullPage(page, read, authorOf, this.#audience(audience))
  }
  async trendingTags(since: string, limit: number, hide: readonly string[] = []) {
    if (hide.length === 0) return this.index.search.trending(since, limit)
    const hidden = new Set(hide)
    const { posts } = this.index
    return this.index.search.trendingAmong(since, limit, (id) => !hidden.has(posts.get(id)?.authorId ?? ''))
  }
  async searchPosts(terms: readonly string[], { audience, ...page }: PostPage): Promise<Page<PostRecord>> {
    const read = (part: PageRequest) => recordsOf(this.index.search.posts(terms, part), this.index.posts)
    return fullPage(page, read, authorOf, this.#audience(audience))
  }
  async searchUsers(search: UserSearch, page: PageRequest): Promise<Page<UserRecord>> {
    const hide = this.index.withPending(page.hide)
    return fullPage(
      { ...page, hide },
      (part) => recordsOf(this.index.names.users(search, part), this.index.users),
      idOf,
    )
  }
  async getNotification(id: string) {
    return this.index.notifications.get(id)
  }
  async listNotifications(userId: string, page: PageRequest) {
    return fullPage(
      page,
      (part) => this.index.notifications.page(userId, part),
      (n) => n.actorId,
      this.#shownNotifications(userId),
    )
  }
  async countUnread(userId: string) {
    return this.index.notifications.unreadOf(userId).filter(this.#shownNotifications(userId)).length
  }
  async listUnreadNotifications(userId: string) {
    return newestFirst(this.index.notifications.unreadOf(userId).filter(this.#shownNotifications(userId)))
  }
  #shownNotifications(userId: string) {
    return shownNotifications(
      userId,
      (id) => this.index.posts.get(id),
      (readerId) => this.index.users.get(readerId)?.following ?? [],
    )
  }
  async isTokenRevoked(tokenId: string) {
    return this.index.revokedTokens.get(tokenId) !== undefined
  }
  async getReport(id: string) {
    return this.index.moderation.reports.get(id)
  }
  async listReports(status: ReportStatus, page: PageRequest) {
    return this.index.moderation.listReports(status, page)
  }
  async countOpenReports() {
    return this.index.moderation.openCount
  }
  async countReportsSince(reporterId: string, since: string) {
    return this.index.moderation.countReportsSince(reporterId, since)
  }
  async listAuditLog(page: PageRequest) {
    return this.index.moderation.audit.newestFirst(page)
  }
  async listInvites(page: PageRequest) {
    return this.index.moderation.invites.newestFirst(page)
  }
  async getInvite(code: string) {
    return this.index.moderation.invites.get(code)
  }
  async listPendingUsers(page: PageRequest) {
    return this.index.listPendingUsers(page)
  }
  async isUsernameReserved(username: string, at: string) {
    return this.index.reservedNames.isReserved(username, at)
  }
  async wasDeleted(userId: string) {
    return this.index.reservedNames.wasDeleted(userId)
  }
  async listCommentsBy(userId: string, page: PageRequest) {
    return pageByOffset(this.index.commentsBy(userId), page)
  }
  async listLikedPostIds(userId: string, page: PageRequest) {
    return this.#byPlace(userId, 'likes', 1, page)
  }
  async isMediaUsed(url: string) {
    return this.index.usesMedia(url)
  }
  conversationPosts(conversationId: string) {
    return this.index.conversationPosts(conversationId)
  }
  #conversationSource(conversationId: string): ConversationSource {
    const { index } = this
    return {
      posts: index.conversationPosts(conversationId),
      postOf: (id) => index.posts.get(id),
      exists: (id) => index.users.has(id),
    }
  }
  async getConversation(conversationId: string, userId: string, hide?: readonly string[]) {
    const membership = membershipOf(this.index.users.get(userId), conversationId)
    return membership && conversationRecord(userId, membership, this.#conversationSource(conversationId), hide)
  }
  /** Every conversation of the user is drawn to be ordered: a person's conversations are few beside the posts. */
  #conversationsOf(userId: string, hide: readonly string[] | undefined) {
    const memberships = this.index.users.get(userId)?.directConversations ?? []
    return memberships.map((m) => conversationRecord(userId, m, this.#conversationSource(m._id), hide))
  }
  async listConversations(userId: string, page: PageRequest) {
    return conversationsPage(this.#conversationsOf(userId, page.hide), page)
  }
  async listConversationPosts(conversationId: string, userId: string, page: PageRequest) {
    if (membershipOf(this.index.users.get(userId), conversationId)) {
      return conversationPostsPage(this.index.conversationPosts(conversationId), userId, page)
    }
    checkCursor(page, CURSOR.byTime)
    return { items: [], nextCursor: null }
  }
  async countUnreadConversations(userId: string, hide?: readonly string[]) {
    return this.#conversationsOf(userId, hide).filter((conversation) => conversation.unread > 0).length
  }
  postIdsBy(authorId: string) {
    return this.index.postIdsBy(authorId)
  }
  postsTouchedBy(userId: string) {
    return this.index.postsTouchedBy(userId)
  }
  usersMuting(userId: string) {
    return this.index.usersMuting(userId)
  }
  reportsNaming(userId: string) {
    return this.index.moderation.reports
      .all()
      .filter((report) => report.reporterId === userId || report.subjectId === userId)
      .map((report) => report._id)
  }
  expiredReservations(at: string) {
    return this.index.reservedNames.expired(at)
  }
  getJob(id: string) {
    return this.index.jobs.get(id)
  }
  async getApp(id: string) {
    return this.index.clientApps.apps.get(id)
  }
  async countCommunity() {
    let comments = 0
    for (const post of this.index.posts.values()) comments += post.commentCount
    return {
      users: this.index.users.size - this.index.pendingCount() - this.index.usersByActor.size,
      posts: this.index.posts.size,
      comments,
    }
  }
  async listMarkers(userId: string) {
    return this.index.clientApps.markersOf(userId)
  }
  async listPushSubscriptions(userId: string) {
    return this.index.clientApps.pushSubscriptions.ofUser(userId)
  }
  async getPushSubscription(id: string) {
    return this.index.clientApps.pushSubscriptions.get(id)
  }
  async listCustomEmojis() {
    return byShortcode([...this.index.clientApps.customEmojis.values()])
  }
  async getCustomEmoji(shortcode: string) {
    return this.index.clientApps.customEmojis.get(shortcode)
  }
  getCode(id: string) {
    return this.index.clientApps.codes.get(id)
  }
  codesToForget(at: string, userId?: string) {
    return this.index.clientApps.codesToForget(at, userId)
  }
  jobsNaming(postIds: readonly string[], email: string) {
    return this.index.jobs.naming(postIds, email)
  }
  async listStaffIds() {
    return this.index.staffIds()
  }
  async listSuspended(at: string) {
    return this.index.suspended(at)
  }
  async relationsOf(userId: string, at: string) {
    return relationsIn(this.index.users.get(userId), this.index.blockersOf(userId), at)
  }
  async relationBetween(viewerId: string, otherId: string, at: string) {
    return relationOf(this.index.users.get(viewerId), this.index.users.get(otherId), at)
  }
  async listBlocks(userId: string, page: PageRequest) {
    return this.#byPlace(userId, 'blocking', -1, page)
  }
  async listMutes(userId: string, at: string, page: PageRequest): Promise<Page<MuteRecord>> {
    const byId = new Map(runningMutes(this.index.users.get(userId), at).map((mute) => [mute.userId, mute]))
    const { items, nextCursor } = this.#byPlace(userId, 'muting', -1, page, (id) => byId.has(id))
    return { items: items.flatMap((id) => byId.get(id) ?? []), nextCursor }
  }
  /** The requests, oldest first, without those of the people `page.hide` names. */
  async listFollowRequests(userId: string, page: PageRequest) {
    const hide = new Set(page.hide)
    return this.#byPlace(userId, 'followRequests', 1, page, (id) => !hide.has(id))
  }
  async requestedAmong(followerId: string, userIds: readonly string[]) {
    return requestedIn(this.index.getUsers(userIds), followerId)
  }
  blockersOf(userId: string) {
    return this.index.blockersOf(userId)
  }
  usersRequestedBy(userId: string) {
    return this.index.usersRequestedBy(userId)
  }
  /** A walk over every user: a reset is asked for rarely, and never more than its rate limit allows. */
  async usersWithEmail(email: string) {
    const wanted = email.toLowerCase()
    const found = [...this.index.users.values()].filter((user) => user.email.toLowerCase() === wanted)
    return found.sort((a, b) => a.createdAt.localeCompare(b.createdAt)).map((user) => user._id)
  }
  async listFilters(userId: string) {
    return [...(this.index.users.get(userId)?.filters ?? [])]
  }
  async listLists(userId: string) {
    return [...(this.index.users.get(userId)?.lists ?? [])]
  }
  async listPostVersions(postId: string) {
    return [...(this.index.posts.get(postId)?.versions ?? [])]
  }
  async listScheduledPosts(userId: string) {
    return soonestFirst(this.index.users.get(userId)?.scheduledPosts)
  }
  async getScheduledPost(userId: string, id: string) {
    return this.index.users.get(userId)?.scheduledPosts?.find((each) => each._id === id)
  }
  async getTwoFactor(userId: string) {
    return this.index.users.get(userId)?.twoFactor
  }
  async getUserByActor(actorId: string) {
    return this.index.usersByActor.get(actorId)
  }
  async getPostByNote(noteId: string) {
    return this.index.postsByNote.get(noteId)
  }
  async getActorKeys(userId: string) {
    return this.index.users.get(userId)?.actorKeys
  }
  usersBookmarking(postId: string) {
    return this.index.usersBookmarking(postId)
  }
  likesOf(userId: string) {
    return this.index.likesOf(userId)
  }
  userRecord(userId: string) {
    return this.index.users.get(userId)
  }
  expiredRevocations(at: string) {
    return this.index.revokedTokens.expired(at)
  }
}
