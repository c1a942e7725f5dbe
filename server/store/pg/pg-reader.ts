import type postgres from 'postgres'
import { usernameKey } from '../../usernames.js'
import { CURSOR } from '../cursor.js'
import type {
  AccountRecord,
  AudienceScope,
  FeedRepostQuery,
  Page,
  PageRequest,
  PostPage,
  PostQuery,
  PostRecord,
  ReportStatus,
  StoreReader,
  TokenHolder,
  TwoFactorRecord,
  UserRecord,
  UserSearch,
  UserSummaryRecord,
} from '../types.js'
import { plannedEachRun, type Queryable } from './connect.js'
import { inAudience } from './audience-sql.js'
import { hidden, limitOf, pageFrom, readCursor } from './keyset.js'
import * as removal from './pg-account-removal.js'
import * as moderation from './pg-moderation.js'
import * as notifications from './pg-notifications.js'
import * as parts from './pg-post-parts.js'
import * as polls from './pg-polls.js'
import * as reposts from './pg-reposts.js'
import * as relations from './pg-relations.js'
import * as requests from './pg-follow-requests.js'
import * as clientApps from './pg-client-apps.js'
import * as push from './pg-push.js'
import * as emojis from './pg-emojis.js'
import * as plans from './pg-post-plans.js'
import * as filtersLists from './pg-filters-lists.js'
import * as search from './pg-search.js'
import * as conversations from './pg-conversations.js'
import * as federation from './pg-federation.js'
import { accountOf } from '../summaries.js'
import { isUuid, postColumns, toPostRecord, toUserRecord, userColumns, type PostRow, type UserRow } from './records.js'

/**
 * The reads of PostgreSQL, on the pool or inside a transaction (whose own writes they then see). Each
 * read is one statement, however many posts, likes and comments a page holds.
 */
type SummaryRow = Pick<
  UserRow,
  'id' | 'username' | 'first_name' | 'last_name' | 'display_name' | 'avatar_url' | 'quote_policy'
>

export class PgReader implements StoreReader {
  constructor(protected readonly sql: Queryable) {}

  async getUser(id: string): Promise<UserRecord | undefined> {
    if (!isUuid(id)) return undefined
    const sql = this.sql
    const [row] = await sql<UserRow[]>`SELECT ${userColumns(sql)} FROM users u WHERE u.id = ${id}`
    return row && toUserRecord(row)
  }

  async getTokenHolder(id: string): Promise<TokenHolder | undefined> {
    if (!isUuid(id)) return undefined
    const [row] = await this.sql<{ id: string; username: string; token_version: number }[]>`
      SELECT id, username, token_version FROM users WHERE id = ${id}`
    return row && { _id: row.id, username: row.username, tokenVersion: row.token_version }
  }

  /** The users row alone: none of the follows or bookmarks getUser gathers. */
  async getAccount(id: string): Promise<AccountRecord | undefined> {
    if (!isUuid(id)) return undefined
    const [row] = await this.sql<UserRow[]>`
      SELECT u.id, u.username, u.first_name, u.last_name, u.email, u.password_hash, u.avatar_url, u.bio, u.website,
        u.display_name, u.banner_url,
        u.created_at, u.updated_at, u.token_version, u.role, u.suspension, u.pending, u.default_visibility, u.alt_text_reminder, u.quote_policy, u.mail_alerts, u.mailed_through, u.locked,
        u.remote
      FROM users u WHERE u.id = ${id}`
    return row && accountOf(toUserRecord({ ...row, following: [], followers: [], bookmarks: [] }))
  }

  async getUserByUsername(username: string): Promise<UserRecord | undefined> {
    const sql = this.sql
    const [row] = await sql<
      UserRow[]
    >`SELECT ${userColumns(sql)} FROM users u WHERE u.username_key = ${usernameKey(username)}`
    return row && toUserRecord(row)
  }

  /** Repeated ids give repeated records, as the post views' check of their people expects. */
  async getUsers(ids: readonly string[]): Promise<UserRecord[]> {
    return (await this.#inOrder<UserRow>(ids, 'users', 'u', userColumns)).map(toUserRecord)
  }

  async getUserSummaries(ids: readonly string[]): Promise<UserSummaryRecord[]> {
    const rows = await this.#inOrder<SummaryRow>(
      ids,
      'users',
      'u',
      (sql) => sql`u.id, u.username, u.first_name, u.last_name, u.display_name, u.avatar_url, u.quote_policy`,
    )
    return rows.map((row) => ({
      _id: row.id,
      username: row.username,
      firstName: row.first_name,
      lastName: row.last_name,
      ...(row.display_name ? { displayName: row.display_name } : {}),
      avatarURL: row.avatar_url,
      ...(row.quote_policy !== 'anyone' ? { quotePolicy: row.quote_policy } : {}),
    }))
  }

  async listUsers(page: PageRequest): Promise<Page<UserRecord>> {
    const sql = this.sql
    let after = sql`TRUE`
    if (page.cursor !== undefined) {
      const [at, id] = readCursor(page.cursor, CURSOR.byTime)
      after = sql`(u.created_at, u.id) > (${at}, ${id}::uuid)`
    }
    const rows = await sql<UserRow[]>`
      SELECT ${userColumns(sql)} FROM (SELECT * FROM users u WHERE ${after} AND NOT u.pending ${hidden(sql, 'u.id', page.hide)} ORDER BY u.created_at, u.id ${limitOf(sql, page.limit)}) u
      ORDER BY u.created_at, u.id`
    return pageFrom(rows, page.limit, (row) => [row.created_at.toISOString(), row.id], toUserRecord)
  }

  async suggestUsers(
    userId: string,
    limit: number,
    hide?: readonly string[],
    uncounted?: readonly string[],
  ): Promise<UserRecord[]> {
    const sql = this.sql
    const notMine = isUuid(userId)
      ? sql`WHERE u.id <> ${userId} AND NOT u.pending AND NOT EXISTS (SELECT 1 FROM follows f WHERE f.follower_id = ${userId} AND f.followee_id = u.id)
          ${hidden(sql, 'u.id', hide)}`
      : sql`WHERE NOT u.pending`
    const unheeded = (uncounted ?? []).filter(isUuid)
    if (unheeded.length > 0) {
      // Only the people the uncounted follow move down: the rest keep their place in the follower_count
      // order, read past those few, and the few come in with what is left of their count.
      const rows = await plannedEachRun(sql<UserRow[]>`
        WITH less AS (
          SELECT f.followee_id AS id, count(*)::int AS n FROM follows f
          WHERE f.follower_id = ANY(${unheeded}::uuid[]) GROUP BY f.followee_id)
        SELECT ${userColumns(sql)} FROM (
          (SELECT u.*, u.follower_count AS counted FROM users u ${notMine}
             AND NOT EXISTS (SELECT 1 FROM less WHERE less.id = u.id)
           ORDER BY u.follower_count DESC, u.created_at, u.id LIMIT ${limit})
          UNION ALL
          (SELECT u.*, u.follower_count - less.n AS counted FROM less JOIN users u ON u.id = less.id ${notMine})
        ) u
        ORDER BY u.counted DESC, u.created_at, u.id LIMIT ${limit}`)
      return rows.map(toUserRecord)
    }
    const rows = await sql<UserRow[]>`
      SELECT ${userColumns(sql)}
      FROM (SELECT * FROM users u ${notMine} ORDER BY u.follower_count DESC, u.created_at, u.id LIMIT ${limit}) u
      ORDER BY u.follower_count DESC, u.created_at, u.id`
    return rows.map(toUserRecord)
  }

  async getPost(id: string): Promise<PostRecord | undefined> {
    if (!isUuid(id)) return undefined
    const sql = this.sql
    const [row] = await sql<PostRow[]>`SELECT ${postColumns(sql)} FROM posts p WHERE p.id = ${id}`
    return row && toPostRecord(row)
  }

  async getPosts(ids: readonly string[]): Promise<PostRecord[]> {
    return (await this.#inOrder<PostRow>(ids, 'posts', 'p', postColumns)).map(toPostRecord)
  }

  countLikesBy(postIds: readonly string[], userIds: readonly string[]) {
    return parts.countLikesBy(this.sql, postIds, userIds)
  }
  likedAmong(userId: string, postIds: readonly string[]) {
    return parts.likedAmong(this.sql, userId, postIds)
  }
  listLikers(postId: string, page: PageRequest) {
    return parts.listLikers(this.sql, postId, page)
  }
  listReposters(postId: string, page: PageRequest) {
    return reposts.listReposters(this.sql, postId, page)
  }
  repostedAmong(userId: string, postIds: readonly string[]) {
    return reposts.repostedAmong(this.sql, userId, postIds)
  }
  followedAmong(userId: string, otherIds: readonly string[]) {
    return relations.followedAmong(this.sql, userId, otherIds)
  }
  async listFeedReposts(userId: string, query: FeedRepostQuery) {
    return reposts.listFeedReposts(this.sql, await this.feedAuthors(userId), query)
  }
  listPinned(userId: string, audience?: AudienceScope) {
    return reposts.listPinned(this.sql, userId, audience)
  }
  getComment(postId: string, commentId: string) {
    return parts.getComment(this.sql, postId, commentId)
  }
  getConversation(conversationId: string, userId: string, hide?: readonly string[]) {
    return conversations.getConversation(this.sql, conversationId, userId, hide)
  }
  listConversations(userId: string, page: PageRequest) {
    return conversations.listConversations(this.sql, userId, page)
  }
  listConversationPosts(conversationId: string, userId: string, page: PageRequest) {
    return conversations.listConversationPosts(this.sql, conversationId, userId, page)
  }
  countUnreadConversations(userId: string, hide?: readonly string[]) {
    return conversations.countUnreadConversations(this.sql, userId, hide)
  }
  listComments(postId: string, page: PageRequest) {
    return parts.listComments(this.sql, postId, page)
  }
  listReplies(postId: string, commentId: string) {
    return polls.listReplies(this.sql, postId, commentId)
  }
  pollVotesOf(postIds: readonly string[], userIds: readonly string[]) {
    return polls.pollVotesOf(this.sql, postIds, userIds)
  }

  /** Rows of `table` by id, in the order asked, repeats included, unknown ids skipped: one statement. */
  async #inOrder<R extends object>(
    ids: readonly string[],
    table: string,
    alias: string,
    columns: (sql: Queryable) => postgres.PendingQuery<postgres.Row[]>,
  ): Promise<R[]> {
    const wanted = ids.filter(isUuid)
    if (wanted.length === 0) return []
    const sql = this.sql
    return await sql<R[]>`
      SELECT ${columns(sql)}
      FROM unnest(${wanted}::uuid[]) WITH ORDINALITY AS asked (id, n) JOIN ${sql(table)} ${sql(alias)} ON ${sql(alias)}.id = asked.id
      ORDER BY asked.n`
  }

  /** A home feed's authors: the user, then whom they follow in the order they followed (the follows_follower index). */
  async feedAuthors(userId: string): Promise<string[]> {
    if (!isUuid(userId)) return []
    const rows = await this.sql<{ id: string; followee: string | null }[]>`
      SELECT u.id, f.followee_id AS followee FROM users u LEFT JOIN follows f ON f.follower_id = u.id WHERE u.id = ${userId} ORDER BY f.seq`
    if (rows.length === 0) return []
    return [userId, ...rows.flatMap((row) => (row.followee === null ? [] : [row.followee]))]
  }

  /** Newest first (or oldest, or most liked), by the keysets the posts_time, posts_author_time and posts_trend indexes hold. */
  async listPosts(query: PostQuery): Promise<Page<PostRecord>> {
    const trending = query.sort === 'trending'
    const unheeded = trending ? (query.uncounted ?? []).filter(isUuid) : []
    if (unheeded.length > 0) return this.#trendingWithout(query, unheeded, (await this.#postFilter(query)).where)
    return this.pageOfPosts(query, postColumns, toPostRecord)
  }

  /**
   * A page of posts in `query`'s order, each row read with `columns` and made an item by `toItem` (the
   * whole record, or only its id); `columns` must hold the order's keys (id, created_at, like_count).
   * Most liked first counting everyone's likes: a query with `uncounted` people goes to listPosts.
   */
  protected async pageOfPosts<T>(
    query: PostQuery,
    columns: (sql: Queryable) => postgres.PendingQuery<postgres.Row[]>,
    toItem: (row: PostRow) => T,
  ): Promise<Page<T>> {
    const sql = this.sql
    const trending = query.sort === 'trending'
    const { where } = await this.#postFilter(query)
    let after = sql``
    if (query.cursor !== undefined && trending) {
      const [likes, at, id] = readCursor(query.cursor, CURSOR.byLikes)
      after = sql`AND (p.like_count, p.created_at, p.id) < (${likes}::int, ${at}, ${id}::uuid)`
    } else if (query.cursor !== undefined) {
      const [at, id] = readCursor(query.cursor, CURSOR.byTime)
      after =
        query.sort === 'oldest'
          ? sql`AND (p.created_at, p.id) > (${at}, ${id}::uuid)`
          : sql`AND (p.created_at, p.id) < (${at}, ${id}::uuid)`
    }
    const order = trending
      ? sql`p.like_count DESC, p.created_at DESC, p.id DESC`
      : query.sort === 'oldest'
        ? sql`p.created_at, p.id`
        : sql`p.created_at DESC, p.id DESC`
    const rows = await plannedEachRun(sql<PostRow[]>`
      SELECT ${columns(sql)}
      FROM (SELECT * FROM posts p WHERE true ${where} ${after} ORDER BY ${order} ${limitOf(sql, query.limit)}) p
      ORDER BY ${order}`)
    const keyOf = trending
      ? (row: PostRow) => [row.like_count, row.created_at.toISOString(), row.id]
      : (row: PostRow) => [row.created_at.toISOString(), row.id]
    return pageFrom(rows, query.limit, keyOf, toItem)
  }

  /**
   * The authors, media, audience and hidden people a post list is limited to, as SQL conditions (wrapped:
   * a bare fragment would run when awaited).
   */
  async #postFilter(query: PostQuery): Promise<{ where: postgres.PendingQuery<postgres.Row[]> }> {
    const sql = this.sql
    // The followed ids go in as a parameter: only an array of known length gets a good plan, where a
    // subquery of follows (as a join or an array) was 20 to 100 times slower for some users at 1M posts.
    const authorIds = query.feedOf !== undefined ? await this.feedAuthors(query.feedOf) : query.authorIds
    const authors = authorIds ? sql`AND p.author_id = ANY(${authorIds.filter(isUuid)}::uuid[])` : sql``
    const shown = hidden(sql, 'p.author_id', query.hide)
    const media = query.media ? sql`AND p.media_url <> ''` : sql``
    const audience = inAudience(sql, query.audience, 'p', query.feedOf)
    return { where: sql`${authors} ${media} ${audience} ${shown}` }
  }

  /**
   * Most liked first, counting no like of the `uncounted` people (suspended ones, DECISIONS §11). Only
   * the posts they like move: the rest are read in posts_trend order past those few, and the few come in
   * with what is left of their likes; a page costs those people's likes, never a walk of every post.
   */
  async #trendingWithout(query: PostQuery, uncounted: readonly string[], where: postgres.PendingQuery<postgres.Row[]>) {
    const sql = this.sql
    let after = sql``
    let moved = sql``
    if (query.cursor !== undefined) {
      const [likes, at, id] = readCursor(query.cursor, CURSOR.byLikes)
      after = sql`AND (p.like_count, p.created_at, p.id) < (${likes}::int, ${at}, ${id}::uuid)`
      moved = sql`AND (p.like_count - less.n, p.created_at, p.id) < (${likes}::int, ${at}, ${id}::uuid)`
    }
    const order = sql`p.counted DESC, p.created_at DESC, p.id DESC`
    const rows = await plannedEachRun(sql<(PostRow & { counted: number })[]>`
      WITH less AS (
        SELECT r.post_id AS id, count(*)::int AS n FROM post_reactions r
        WHERE r.user_id = ANY(${uncounted}::uuid[]) AND r.liked GROUP BY r.post_id)
      SELECT p.counted, ${postColumns(sql)} FROM (
        (SELECT p.*, p.like_count AS counted FROM posts p
         WHERE NOT EXISTS (SELECT 1 FROM less WHERE less.id = p.id) ${where} ${after}
         ORDER BY p.like_count DESC, p.created_at DESC, p.id DESC ${limitOf(sql, query.limit)})
        UNION ALL
        (SELECT p.*, p.like_count - less.n AS counted FROM less JOIN posts p ON p.id = less.id
         WHERE true ${where} ${moved})
      ) p
      ORDER BY ${order} ${limitOf(sql, query.limit)}`)
    return pageFrom(rows, query.limit, (row) => [row.counted, row.created_at.toISOString(), row.id], toPostRecord)
  }

  /** Newest bookmark first; the cursor is the last bookmark's place in the order they were made. */
  listBookmarks(userId: string, page: PostPage): Promise<Page<PostRecord>> {
    return this.#postsPickedBy(userId, page, 'bookmarks')
  }

  listLikedPosts(userId: string, page: PostPage): Promise<Page<PostRecord>> {
    return this.#postsPickedBy(userId, page, 'likes')
  }

  /** The posts a user bookmarked or likes, the most recent first, paged by the row's `seq`. */
  async #postsPickedBy(userId: string, page: PostPage, by: 'bookmarks' | 'likes'): Promise<Page<PostRecord>> {
    if (!isUuid(userId)) return { items: [], nextCursor: null }
    const sql = this.sql
    const rows = by === 'bookmarks' ? sql`bookmarks b` : sql`post_reactions b`
    const kept = by === 'bookmarks' ? sql`` : sql`AND b.liked`
    const before = page.cursor === undefined ? sql`` : sql`AND b.seq < ${readCursor(page.cursor, CURSOR.byPosition)[0]}`
    const found = await sql<(PostRow & { seq: string })[]>`
      SELECT b.seq, ${postColumns(sql)}
      FROM (SELECT b.post_id, b.seq FROM ${rows} JOIN posts p ON p.id = b.post_id
            WHERE b.user_id = ${userId} ${kept} ${before} ${hidden(sql, 'p.author_id', page.hide)}
              ${inAudience(sql, page.audience)}
            ORDER BY b.seq DESC ${limitOf(sql, page.limit)}) b
      JOIN posts p ON p.id = b.post_id
      ORDER BY b.seq DESC`
    return pageFrom(found, page.limit, (row) => [Number(row.seq)], toPostRecord)
  }

  async countPosts(authorId: string, audience?: AudienceScope): Promise<number> {
    if (!isUuid(authorId)) return 0
    const sql = this.sql
    const [row] = await sql<{ n: number }[]>`
      SELECT count(*)::int AS n FROM posts p WHERE p.author_id = ${authorId} ${inAudience(sql, audience)}`
    return row?.n ?? 0
  }

  listTaggedPosts(tag: string, page: PostPage) {
    return search.listTaggedPosts(this.sql, tag, page)
  }
  trendingTags(since: string, limit: number, hide?: readonly string[]) {
    return search.trendingTags(this.sql, since, limit, hide)
  }
  searchPosts(terms: readonly string[], page: PostPage) {
    return search.searchPosts(this.sql, terms, page)
  }
  searchUsers(query: UserSearch, page: PageRequest) {
    return search.searchUsers(this.sql, query, page)
  }
  getNotification(id: string) {
    return notifications.getNotification(this.sql, id)
  }
  listNotifications(userId: string, page: PageRequest) {
    return notifications.listNotifications(this.sql, userId, page)
  }
  countUnread(userId: string) {
    return notifications.countUnread(this.sql, userId)
  }
  listUnreadNotifications(userId: string) {
    return notifications.listUnreadNotifications(this.sql, userId)
  }
  getReport(id: string) {
    return moderation.getReport(this.sql, id)
  }
  listReports(status: ReportStatus, page: PageRequest) {
    return moderation.listReports(this.sql, status, page)
  }
  countOpenReports() {
    return moderation.countOpenReports(this.sql)
  }
  countReportsSince(reporterId: string, since: string) {
    return moderation.countReportsSince(this.sql, reporterId, since)
  }
  listAuditLog(page: PageRequest) {
    return moderation.listAuditLog(this.sql, page)
  }
  listInvites(page: PageRequest) {
    return moderation.listInvites(this.sql, page)
  }
  listPendingUsers(page: PageRequest) {
    return moderation.listPendingUsers(this.sql, page)
  }
  listStaffIds() {
    return moderation.listStaffIds(this.sql)
  }
  listSuspended(at: string) {
    return moderation.listSuspended(this.sql, at)
  }
  relationsOf(userId: string, at: string) {
    return relations.relationsOf(this.sql, userId, at)
  }
  relationBetween(viewerId: string, otherId: string, at: string) {
    return relations.relationBetween(this.sql, viewerId, otherId, at)
  }
  listBlocks(userId: string, page: PageRequest) {
    return relations.listBlocks(this.sql, userId, page)
  }
  listMutes(userId: string, at: string, page: PageRequest) {
    return relations.listMutes(this.sql, userId, at, page)
  }
  listFollowRequests(userId: string, page: PageRequest) {
    return requests.listFollowRequests(this.sql, userId, page)
  }
  requestedAmong(followerId: string, userIds: readonly string[]) {
    return requests.requestedAmong(this.sql, followerId, userIds)
  }
  async usersWithEmail(email: string): Promise<string[]> {
    const rows = await this.sql<{ id: string }[]>`
      SELECT id FROM users WHERE lower(email) = lower(${email}) ORDER BY created_at, id`
    return rows.map((row) => row.id)
  }
  isUsernameReserved(username: string, at: string): Promise<boolean> {
    return removal.isUsernameReserved(this.sql, usernameKey(username), at)
  }
  wasDeleted(userId: string): Promise<boolean> {
    return removal.wasDeleted(this.sql, userId)
  }
  listCommentsBy(userId: string, page: PageRequest) {
    return parts.listCommentsBy(this.sql, userId, page)
  }
  listLikedPostIds(userId: string, page: PageRequest) {
    return parts.listLikedPostIds(this.sql, userId, page)
  }
  isMediaUsed(url: string): Promise<boolean> {
    return removal.isMediaUsed(this.sql, url)
  }
  async getUserByActor(actorId: string): Promise<UserRecord | undefined> {
    const sql = this.sql
    const [row] = await sql<UserRow[]>`
      SELECT ${userColumns(sql)} FROM users u WHERE u.remote IS NOT NULL AND u.remote->>'actorId' = ${actorId}`
    return row && toUserRecord(row)
  }
  async getPostByNote(noteId: string): Promise<PostRecord | undefined> {
    const sql = this.sql
    const [row] = await sql<PostRow[]>`
      SELECT ${postColumns(sql)} FROM posts p WHERE p.remote IS NOT NULL AND p.remote->>'noteId' = ${noteId}`
    return row && toPostRecord(row)
  }
  getActorKeys(userId: string) {
    return federation.getActorKeys(this.sql, userId)
  }
  async getTwoFactor(userId: string): Promise<TwoFactorRecord | undefined> {
    if (!isUuid(userId)) return undefined
    const [row] = await this.sql<{ secret: string; enabled: boolean; last_step: string; recovery_codes: string[] }[]>`
      SELECT secret, enabled, last_step, recovery_codes FROM two_factor WHERE user_id = ${userId}`
    return (
      row && {
        secret: row.secret,
        enabled: row.enabled,
        lastStep: Number(row.last_step),
        recoveryCodes: row.recovery_codes,
      }
    )
  }
  async isTokenRevoked(tokenId: string): Promise<boolean> {
    const [row] = await this.sql`SELECT 1 FROM revoked_tokens WHERE token_id = ${tokenId}`
    return row !== undefined
  }

  getApp(id: string) {
    return clientApps.getApp(this.sql, id)
  }
  countCommunity() {
    return clientApps.countCommunity(this.sql)
  }
  listFilters(userId: string) {
    return filtersLists.listFilters(this.sql, userId)
  }
  listLists(userId: string) {
    return filtersLists.listLists(this.sql, userId)
  }
  listMarkers(userId: string) {
    return clientApps.listMarkers(this.sql, userId)
  }
  listPushSubscriptions(userId: string) {
    return push.listPushSubscriptions(this.sql, userId)
  }
  getPushSubscription(id: string) {
    return push.getPushSubscription(this.sql, id)
  }
  listCustomEmojis() {
    return emojis.listCustomEmojis(this.sql)
  }
  getCustomEmoji(shortcode: string) {
    return emojis.getCustomEmoji(this.sql, shortcode)
  }
  listPostVersions(postId: string) {
    return plans.listPostVersions(this.sql, postId)
  }
  listScheduledPosts(userId: string) {
    return plans.listScheduledPosts(this.sql, userId)
  }
  getScheduledPost(userId: string, id: string) {
    return plans.getScheduledPost(this.sql, userId, id)
  }
}
