import type postgres from 'postgres'
import { STORE_CHANGED, type ChirpEvent } from '../../schemas/events.js'
import type { CustomEmojiRecord, MarkerTimeline, PushSubscriptionRecord } from '../client-app-types.js'
import type { FilterRecord, ListRecord } from '../filter-list-types.js'
import type { PostVersionRecord, ScheduledPostRecord } from '../post-plan-types.js'
import * as plans from './pg-post-plans.js'
import type { MailKind } from '../../../common/notification-settings.js'
import type {
  AppRecord,
  AuthorizationCodeRecord,
  ActorKeysRecord,
  AuditEntryRecord,
  CommentRecord,
  InviteRecord,
  LockedPost,
  ReportRecord,
  ReportResolution,
  ReservedNameRecord,
  Role,
  Suspension,
  MuteRecord,
  NotificationIdentity,
  NotificationMatch,
  NotificationRecord,
  PollVote,
  PostChanges,
  PostRecord,
  ProfileChanges,
  ReactionChange,
  RevokedTokenRecord,
  StoreTx,
  TwoFactorProof,
  UserRecord,
  LinkCardRecord,
  NewJob,
} from '../types.js'
import type { Queryable } from './connect.js'
import * as moderation from './pg-moderation.js'
import * as account from './pg-account.js'
import { deleteAccount } from './pg-account-removal.js'
import * as notifications from './pg-notifications.js'
import * as relations from './pg-relations.js'
import * as requests from './pg-follow-requests.js'
import * as clientApps from './pg-client-apps.js'
import * as push from './pg-push.js'
import * as emojis from './pg-emojis.js'
import * as filtersLists from './pg-filters-lists.js'
import * as polls from './pg-polls.js'
import * as jobs from './pg-jobs.js'
import * as reposts from './pg-reposts.js'
import * as conversations from './pg-conversations.js'
import * as federation from './pg-federation.js'
import { PgReader } from './pg-reader.js'
import { isUuid, lockedColumns, moreMediaJson, toLockedPost, type LockedRow } from './records.js'
import { reindexPost, reindexUser, retagPost } from './search-rows.js'
import { commentRows, emptyChildRows, insertRows, postChildRows, postRow, userRow } from './table-rows.js'
import { storedData } from './event-data.js'

const PROFILE_COLUMNS = {
  firstName: 'first_name',
  lastName: 'last_name',
  avatarURL: 'avatar_url',
  displayName: 'display_name',
  bannerURL: 'banner_url',
  bio: 'bio',
  website: 'website',
  defaultVisibility: 'default_visibility',
  altTextReminder: 'alt_text_reminder',
  quotePolicy: 'quote_policy',
  locked: 'locked',
} as const
const MEDIA_COLUMNS = {
  mediaAlt: 'media_alt',
  mediaWidth: 'media_width',
  mediaHeight: 'media_height',
  spoilerText: 'spoiler_text',
} as const

/**
 * One transaction's writes. Each operation checks and changes in SQL, on rows it locks or on the
 * conflict of a unique key, so two instances doing the same thing at once cannot both succeed; no
 * operation reads a row into JS, changes it and writes it back. Events wait in memory and are written
 * to the outbox just before the commit, so they exist exactly when the writes they describe do.
 */
export class PgTx extends PgReader implements StoreTx {
  readonly events: ChirpEvent[] = []
  /** The `runAt` of each job enqueued, for the store's job watchers once the transaction commits. */
  readonly queued: string[] = []

  constructor(
    sql: Queryable,
    private readonly jobsNotice: jobs.JobsNotice,
  ) {
    super(sql)
  }

  /**
   * One statement, which reads only the post's own row: under READ COMMITTED a row locked after a wait is
   * read as the writer before left it (its counts included), while anything else a statement reads would
   * come from before the wait. The statements after it read everything that committed meanwhile.
   */
  async lockPost(id: string): Promise<LockedPost | undefined> {
    if (!isUuid(id)) return undefined
    const [row] = await this.sql<
      LockedRow[]
    >`SELECT ${lockedColumns(this.sql)} FROM posts p WHERE p.id = ${id} FOR UPDATE`
    return row && toLockedPost(row)
  }

  /** One statement, as lockPost, taking the rows' locks in the order of their ids. */
  async lockPosts(ids: readonly string[]): Promise<LockedPost[]> {
    const known = [...new Set(ids.filter(isUuid))]
    if (known.length === 0) return []
    const rows = await this.sql<LockedRow[]>`
      SELECT ${lockedColumns(this.sql)} FROM posts p WHERE p.id = ANY(${known}::uuid[]) ORDER BY p.id FOR UPDATE`
    return rows.map(toLockedPost)
  }

  relationsBetween(pairs: readonly (readonly [string, string])[], at: string) {
    return relations.relationsBetween(this.sql, pairs, at)
  }

  /**
   * The unique indexes on the username's key and skeleton decide, so two signups of one name, or of two
   * look-alikes, at once cannot both win; once the insert has waited out the other one, which of the two
   * it met is read back. A new account's follows and bookmarks come from follow and addBookmark, which
   * keep the counts: the record's lists are not read.
   */
  async createUser(user: UserRecord): Promise<'created' | 'taken' | 'lookAlike'> {
    const sql = this.sql
    const row = userRow(user, 0)
    const rows = await sql`INSERT INTO users ${sql(row)} ON CONFLICT DO NOTHING RETURNING id`
    if (rows.length === 1) {
      await reindexUser(sql, user._id, user)
      return 'created'
    }
    const [taken] = await sql`SELECT 1 FROM users WHERE username_key = ${row.username_key}`
    return taken ? 'taken' : 'lookAlike'
  }

  async updateProfile(id: string, changes: ProfileChanges, at: string): Promise<UserRecord | undefined> {
    if (!isUuid(id)) return undefined
    const sql = this.sql
    const set: Record<string, string | boolean> = { updated_at: at }
    for (const [field, column] of Object.entries(PROFILE_COLUMNS)) {
      const value = changes[field as keyof ProfileChanges]
      if (value !== undefined) set[column] = value
    }
    const [row] = await sql`UPDATE users SET ${sql(set)} WHERE id = ${id} RETURNING id`
    const user = row ? await this.getUser(id) : undefined
    if (user && (changes.firstName !== undefined || changes.lastName !== undefined)) await reindexUser(sql, id, user)
    return user
  }

  createApp(app: AppRecord) {
    return clientApps.createApp(this.sql, app)
  }
  addAuthorizationCode(code: AuthorizationCodeRecord, at: string) {
    return clientApps.addAuthorizationCode(this.sql, code, at)
  }
  takeAuthorizationCode(id: string, at: string) {
    return clientApps.takeAuthorizationCode(this.sql, id, at)
  }
  setMarker(userId: string, timeline: MarkerTimeline, lastReadId: string, at: string) {
    return clientApps.setMarker(this.sql, userId, timeline, lastReadId, at)
  }
  putPushSubscription(subscription: PushSubscriptionRecord) {
    return push.putPushSubscription(this.sql, subscription)
  }
  removePushSubscription(id: string) {
    return push.removePushSubscription(this.sql, id)
  }
  addCustomEmoji(emoji: CustomEmojiRecord) {
    return emojis.addCustomEmoji(this.sql, emoji)
  }
  removeCustomEmoji(shortcode: string) {
    return emojis.removeCustomEmoji(this.sql, shortcode)
  }

  putFilter(filter: FilterRecord) {
    return filtersLists.putFilter(this.sql, filter)
  }
  deleteFilter(userId: string, filterId: string) {
    return filtersLists.deleteFilter(this.sql, userId, filterId)
  }
  putList(list: ListRecord) {
    return filtersLists.putList(this.sql, list)
  }
  deleteList(userId: string, listId: string) {
    return filtersLists.deleteList(this.sql, userId, listId)
  }
  addPostVersion(postId: string, version: PostVersionRecord) {
    return plans.addPostVersion(this.sql, postId, version)
  }
  putScheduledPost(scheduled: ScheduledPostRecord) {
    return plans.putScheduledPost(this.sql, scheduled)
  }
  takeScheduledPost(userId: string, id: string, at: string) {
    return plans.takeScheduledPost(this.sql, userId, id, at)
  }
  removeScheduledPost(userId: string, id: string) {
    return plans.removeScheduledPost(this.sql, userId, id)
  }

  async setMailAlerts(id: string, kinds: readonly MailKind[]): Promise<void> {
    if (!isUuid(id)) return
    await this.sql`UPDATE users SET mail_alerts = ${[...kinds]}::text[] WHERE id = ${id}`
  }

  async setMailedThrough(id: string, at: string): Promise<void> {
    if (!isUuid(id)) return
    await this.sql`UPDATE users SET mailed_through = ${at} WHERE id = ${id}`
  }

  async revokeTokens(id: string): Promise<void> {
    if (!isUuid(id)) return
    await this.sql`UPDATE users SET token_version = token_version + 1 WHERE id = ${id}`
  }

  async setRole(id: string, role: Role, at: string): Promise<UserRecord | undefined> {
    if (!isUuid(id)) return undefined
    const [row] = await this.sql`UPDATE users SET role = ${role}, updated_at = ${at} WHERE id = ${id} RETURNING id`
    return row ? this.getUser(id) : undefined
  }

  async setSuspension(id: string, suspension: Suspension | null, at: string): Promise<UserRecord | undefined> {
    if (!isUuid(id)) return undefined
    // postgres.js serialises a value bound to a jsonb column itself.
    const value = suspension ? this.sql.json({ ...suspension }) : null
    const [row] = await this.sql`
      UPDATE users SET suspension = ${value}, updated_at = ${at} WHERE id = ${id} RETURNING id`
    return row ? this.getUser(id) : undefined
  }

  async approveUser(id: string, at: string): Promise<boolean> {
    if (!isUuid(id)) return false
    const rows = await this
      .sql`UPDATE users SET pending = false, updated_at = ${at} WHERE id = ${id} AND pending RETURNING id`
    return rows.length === 1
  }

  /** A pending signup has made nothing: its row is all there is (its search rows go with it, by cascade). */
  async deletePendingUser(id: string): Promise<boolean> {
    if (!isUuid(id)) return false
    const rows = await this.sql`DELETE FROM users WHERE id = ${id} AND pending RETURNING id`
    return rows.length === 1
  }

  openConversation(participantIds: readonly string[], newId: string, at: string) {
    return conversations.openConversation(this.sql, participantIds, newId, at)
  }
  deliverDirectPost(
    conversationId: string,
    postId: string,
    authorId: string,
    recipientIds: readonly string[],
    at: string,
  ) {
    return conversations.deliverDirectPost(this.sql, conversationId, postId, authorId, recipientIds, at)
  }
  markConversationRead(conversationId: string, userId: string) {
    return conversations.readConversation(this.sql, conversationId, userId, false)
  }
  hideConversation(conversationId: string, userId: string) {
    return conversations.readConversation(this.sql, conversationId, userId, true)
  }

  deleteAccount(userId: string, reservation: ReservedNameRecord, at: string) {
    return deleteAccount(this.sql, userId, reservation, at)
  }

  async lockUser(id: string): Promise<void> {
    if (isUuid(id)) await this.sql`SELECT 1 FROM users WHERE id = ${id} FOR UPDATE`
  }

  addReport(report: ReportRecord) {
    return moderation.addReport(this.sql, report)
  }
  resolveReport(id: string, resolution: ReportResolution) {
    return moderation.resolveReport(this.sql, id, resolution)
  }
  addAuditEntry(entry: AuditEntryRecord) {
    return moderation.addAuditEntry(this.sql, entry)
  }
  addInvite(invite: InviteRecord) {
    return moderation.addInvite(this.sql, invite)
  }
  useInvite(code: string, at: string) {
    return moderation.useInvite(this.sql, code, at)
  }
  setPassword(id: string, expected: string, passwordHash: string, at: string) {
    return account.setPassword(this.sql, id, expected, passwordHash, at)
  }
  beginTwoFactor(id: string, secret: string) {
    return account.beginTwoFactor(this.sql, id, secret)
  }
  enableTwoFactor(id: string, secret: string, step: number, recoveryCodes: readonly string[]) {
    return account.enableTwoFactor(this.sql, id, secret, step, recoveryCodes)
  }
  useTwoFactor(id: string, proof: TwoFactorProof) {
    return account.useTwoFactor(this.sql, id, proof)
  }
  disableTwoFactor(id: string) {
    return account.disableTwoFactor(this.sql, id)
  }
  addActorKeys(id: string, keys: ActorKeysRecord) {
    return federation.addActorKeys(this.sql, id, keys)
  }

  async saveRemoteUser(user: UserRecord): Promise<void> {
    const sql = this.sql
    const row = userRow(user, 0)
    const profile = {
      username: row.username,
      username_key: row.username_key,
      first_name: row.first_name,
      last_name: row.last_name,
      display_name: row.display_name,
      bio: row.bio,
      avatar_url: row.avatar_url,
      banner_url: row.banner_url,
      locked: row.locked,
      remote: row.remote,
      updated_at: row.updated_at,
    }
    const updated = await sql`UPDATE users SET ${sql(profile)} WHERE id = ${user._id} RETURNING id`
    if (updated.length === 0) await sql`INSERT INTO users ${sql(row)}`
    await reindexUser(sql, user._id, user)
  }

  async revokeToken(token: RevokedTokenRecord): Promise<void> {
    if (!isUuid(token.userId)) return
    await this.sql`
      INSERT INTO revoked_tokens (token_id, user_id, expires_at)
      VALUES (${token._id}, ${token.userId}, ${token.expiresAt}) ON CONFLICT (token_id) DO NOTHING`
  }

  follow(followerId: string, followeeId: string, at: string): Promise<boolean> {
    const sql = this.sql
    return this.#changeFollow(
      followerId,
      followeeId,
      at,
      1,
      () => sql`
      INSERT INTO follows (follower_id, followee_id)
      SELECT a.id, b.id FROM users a, users b WHERE a.id = ${followerId} AND b.id = ${followeeId} AND a.id <> b.id
      ON CONFLICT DO NOTHING RETURNING 1`,
    )
  }

  unfollow(followerId: string, followeeId: string, at: string): Promise<boolean> {
    const sql = this.sql
    return this.#changeFollow(
      followerId,
      followeeId,
      at,
      -1,
      () => sql`
      DELETE FROM follows WHERE follower_id = ${followerId} AND followee_id = ${followeeId} RETURNING 1`,
    )
  }

  /** The follow and the followee's count change together, or neither does (a follow that exists already, or not). */
  async #changeFollow(
    followerId: string,
    followeeId: string,
    at: string,
    delta: 1 | -1,
    change: () => postgres.PendingQuery<postgres.Row[]>,
  ) {
    if (!isUuid(followerId) || !isUuid(followeeId)) return false
    const rows = await this.sql`
      WITH changed AS (${change()})
      UPDATE users SET follower_count = follower_count + ${delta} * (id = ${followeeId})::int, updated_at = ${at}
      WHERE id IN (${followerId}, ${followeeId}) AND EXISTS (SELECT 1 FROM changed)
      RETURNING id`
    return rows.length > 0
  }

  addFollowRequest(followerId: string, followeeId: string, at: string) {
    return requests.addFollowRequest(this.sql, followerId, followeeId, at)
  }
  removeFollowRequest(followerId: string, followeeId: string) {
    return requests.removeFollowRequest(this.sql, followerId, followeeId)
  }
  async acceptFollowRequest(followerId: string, followeeId: string, at: string) {
    return (await requests.acceptFollowRequests(this.sql, followeeId, followerId, at)).length > 0
  }
  acceptFollowRequests(followeeId: string, at: string) {
    return requests.acceptFollowRequests(this.sql, followeeId, undefined, at)
  }

  block(blockerId: string, blockedId: string, at: string) {
    return relations.block(this.sql, blockerId, blockedId, at)
  }
  unblock(blockerId: string, blockedId: string) {
    return relations.unblock(this.sql, blockerId, blockedId)
  }
  mute(muterId: string, mute: MuteRecord, at: string) {
    return relations.mute(this.sql, muterId, mute, at)
  }
  unmute(muterId: string, mutedId: string) {
    return relations.unmute(this.sql, muterId, mutedId)
  }

  addBookmark(userId: string, postId: string, at: string): Promise<boolean> {
    const sql = this.sql
    return this.#changeBookmark(
      userId,
      postId,
      at,
      () => sql`
      INSERT INTO bookmarks (user_id, post_id)
      SELECT u.id, p.id FROM users u, posts p WHERE u.id = ${userId} AND p.id = ${postId}
      ON CONFLICT DO NOTHING RETURNING 1`,
    )
  }

  removeBookmark(userId: string, postId: string, at: string): Promise<boolean> {
    const sql = this.sql
    return this.#changeBookmark(
      userId,
      postId,
      at,
      () => sql`
      DELETE FROM bookmarks WHERE user_id = ${userId} AND post_id = ${postId} RETURNING 1`,
    )
  }

  async #changeBookmark(
    userId: string,
    postId: string,
    at: string,
    change: () => postgres.PendingQuery<postgres.Row[]>,
  ) {
    if (!isUuid(userId) || !isUuid(postId)) return false
    const rows = await this.sql`
      WITH changed AS (${change()})
      UPDATE users SET updated_at = ${at} WHERE id = ${userId} AND EXISTS (SELECT 1 FROM changed) RETURNING id`
    return rows.length > 0
  }

  /** With whatever likes and comments the record already holds, each list in its order. */
  async insertPost(post: PostRecord): Promise<void> {
    const children = emptyChildRows()
    const people = await this.#knownUsers([...post.likedBy, ...post.dislikedBy, ...commentPeople(post.comments)])
    const likes = postChildRows(post, people, children)
    await insertRows(this.sql, 'posts', [postRow(post, likes)])
    await insertRows(this.sql, 'post_tags', children.tags)
    await insertRows(this.sql, 'post_reactions', children.reactions)
    await insertRows(this.sql, 'comments', children.comments)
    await insertRows(this.sql, 'comment_votes', children.votes)
    await insertRows(this.sql, 'poll_votes', children.pollVotes)
  }

  /** Fields `changes` leaves out keep their value, as the embedded store merges them; one set to undefined is cleared. */
  async updatePost(id: string, changes: PostChanges, at: string): Promise<void> {
    if (!isUuid(id)) return
    const sql = this.sql
    const set: Record<string, string | number | null | postgres.Parameter> = {
      content: changes.content,
      media_url: changes.mediaUrl,
      type: changes.type,
      updated_at: at,
      edited_at: at,
    }
    for (const [field, column] of Object.entries(MEDIA_COLUMNS)) {
      if (field in changes) set[column] = changes[field as keyof typeof MEDIA_COLUMNS] ?? null
    }
    if ('moreMedia' in changes) {
      const more = moreMediaJson(changes.moreMedia)
      set.more_media = more && sql.json(more)
    }
    // A card is only ever cleared here; setPostCard sets one.
    if ('card' in changes && changes.card === undefined) set.card = null
    await sql`UPDATE posts SET ${sql(set)} WHERE id = ${id}`
    // A remote post's note as its server now sends it; never cleared.
    if (changes.remote) await sql`UPDATE posts SET remote = ${sql.json({ ...changes.remote })} WHERE id = ${id}`
    await reindexPost(sql, id, changes.content)
  }

  async setPostCard(id: string, card: LinkCardRecord): Promise<void> {
    if (!isUuid(id)) return
    await this.sql`UPDATE posts SET card = ${this.sql.json({ ...card })} WHERE id = ${id}`
  }

  /** Comments, votes, reactions and bookmarks go with it, through their foreign keys. */
  async deletePost(id: string): Promise<void> {
    if (!isUuid(id)) return
    await this.sql`DELETE FROM posts WHERE id = ${id}`
  }

  /** One change of setReactions, whose statement it shares. */
  async setReaction(postId: string, userId: string, liked: boolean, at: string): Promise<boolean> {
    const [changed] = await this.setReactions([{ postId, userId, liked }], at)
    return changed ?? false
  }

  /**
   * setReaction for every change in one statement. A like inserts or turns a dislike into one; an unlike
   * turns a like into a dislike; each changes only what is not already so and moves the user to the end
   * of the list they join, and each post's count moves by what changed on it.
   */
  async setReactions(changes: readonly ReactionChange[], at: string): Promise<boolean[]> {
    const asked = changes.flatMap((change, n) =>
      isUuid(change.postId) && isUuid(change.userId) ? [{ ...change, n }] : [],
    )
    const changed = changes.map(() => false)
    if (asked.length === 0) return changed
    const sql = this.sql
    const rows = await sql<{ n: number }[]>`
      WITH asked AS (
        SELECT * FROM unnest(${asked.map((c) => c.n)}::int[], ${asked.map((c) => c.postId)}::uuid[],
          ${asked.map((c) => c.userId)}::uuid[], ${asked.map((c) => (c.liked ? 1 : 0))}::int[]) AS a(n, post_id, user_id, wants_like)
      ), liked AS (
        INSERT INTO post_reactions (post_id, user_id, liked)
        SELECT p.id, u.id, true FROM asked a JOIN posts p ON p.id = a.post_id JOIN users u ON u.id = a.user_id
        WHERE a.wants_like = 1 ORDER BY a.n
        ON CONFLICT (post_id, user_id) DO UPDATE SET liked = true, seq = nextval('activity_seq')
        WHERE NOT post_reactions.liked
        RETURNING post_id, user_id, 1 AS delta
      ), unliked AS (
        UPDATE post_reactions r SET liked = false, seq = nextval('activity_seq')
        FROM asked a WHERE a.wants_like = 0 AND r.post_id = a.post_id AND r.user_id = a.user_id AND r.liked
        RETURNING r.post_id, r.user_id, -1 AS delta
      ), moved AS (
        SELECT post_id, user_id, delta FROM liked UNION ALL SELECT post_id, user_id, delta FROM unliked
      ), counted AS (
        UPDATE posts p SET like_count = p.like_count + m.delta, updated_at = ${at}
        FROM (SELECT post_id, sum(delta)::int AS delta FROM moved GROUP BY post_id) m WHERE p.id = m.post_id
      )
      SELECT a.n FROM asked a JOIN moved m ON m.post_id = a.post_id AND m.user_id = a.user_id`
    for (const { n } of rows) changed[n] = true
    return changed
  }

  setRepost(postId: string, userId: string, reposted: boolean, at: string): Promise<boolean> {
    return reposts.setRepost(this.sql, postId, userId, reposted, at)
  }

  setPinned(postId: string, at: string | null): Promise<void> {
    return reposts.setPinned(this.sql, postId, at)
  }

  /** Nothing when the post or its author is gone, as the embedded store adds to no post. */
  async addComment(postId: string, comment: CommentRecord): Promise<void> {
    if (!isUuid(postId) || !isUuid(comment.authorId)) return
    // The author is checked by the insert itself; voters (a new comment has none) are looked up.
    const voters = await this.#knownUsers([...comment.upvotedBy, ...comment.downvotedBy])
    const children = emptyChildRows()
    commentRows(postId, comment, (id) => id === comment.authorId || voters(id), children)
    const sql = this.sql
    const made = await sql`
      INSERT INTO comments (id, post_id, author_id, text, created_at, updated_at, reply_to)
      SELECT ${comment._id}::uuid, p.id, u.id, ${comment.text}::text, ${comment.createdAt}::timestamptz, ${comment.updatedAt}::timestamptz, ${comment.replyTo ?? null}::uuid
      FROM posts p, users u WHERE p.id = ${postId} AND u.id = ${comment.authorId}
      RETURNING id`
    if (made.length === 0) return
    await sql`UPDATE posts SET comment_count = comment_count + 1 WHERE id = ${postId}`
    await insertRows(sql, 'comment_votes', children.votes)
    await retagPost(sql, postId)
  }

  async updateComment(postId: string, commentId: string, text: string, at: string): Promise<void> {
    if (!isUuid(postId) || !isUuid(commentId)) return
    await this
      .sql`UPDATE comments SET text = ${text}, updated_at = ${at} WHERE id = ${commentId} AND post_id = ${postId}`
    await retagPost(this.sql, postId)
  }

  async deleteComment(postId: string, commentId: string): Promise<void> {
    if (!isUuid(postId) || !isUuid(commentId)) return
    await this.sql`
      WITH gone AS (DELETE FROM comments WHERE id = ${commentId} AND post_id = ${postId} RETURNING 1)
      UPDATE posts SET comment_count = comment_count - 1 WHERE id = ${postId} AND EXISTS (SELECT 1 FROM gone)`
    await retagPost(this.sql, postId)
  }

  addPollVote(vote: PollVote): Promise<boolean> {
    return polls.addPollVote(this.sql, vote)
  }

  removePollVotes(userId: string): Promise<string[]> {
    return polls.removePollVotes(this.sql, userId)
  }

  notePollClosed(postId: string, at: string): Promise<boolean> {
    return polls.notePollClosed(this.sql, postId, at)
  }

  /** Inserts the vote or flips it, moving the user to the end of the list they join; false when it was already that. */
  async setVote(postId: string, commentId: string, userId: string, up: boolean, at: string): Promise<boolean> {
    if (!isUuid(postId) || !isUuid(commentId) || !isUuid(userId)) return false
    const rows = await this.sql`
      WITH changed AS (
        INSERT INTO comment_votes (comment_id, user_id, up)
        SELECT c.id, u.id, ${up} FROM comments c, users u WHERE c.id = ${commentId} AND c.post_id = ${postId} AND u.id = ${userId}
        ON CONFLICT (comment_id, user_id) DO UPDATE SET up = excluded.up, seq = nextval('activity_seq')
        WHERE comment_votes.up <> excluded.up
        RETURNING 1)
      UPDATE comments SET updated_at = ${at} WHERE id = ${commentId} AND EXISTS (SELECT 1 FROM changed) RETURNING id`
    return rows.length > 0
  }

  /** Which of these users exist, asked only when there are any (a new post or comment names nobody else). */
  async #knownUsers(ids: readonly string[]): Promise<(id: string) => boolean> {
    const found = new Set((await this.getUsers(ids)).map((user) => user._id))
    return (id) => found.has(id)
  }

  addNotification(notification: NotificationRecord) {
    return notifications.addNotification(this.sql, notification)
  }
  removeNotifications(match: NotificationMatch) {
    return notifications.removeNotifications(this.sql, match)
  }
  addNotifications(records: readonly NotificationRecord[]) {
    return notifications.addNotifications(this.sql, records)
  }
  removeNotificationsOf(identities: readonly NotificationIdentity[]) {
    return notifications.removeNotificationsOf(this.sql, identities)
  }
  markNotificationsRead(userId: string, through: NotificationRecord | undefined) {
    return notifications.markNotificationsRead(this.sql, userId, through)
  }

  emit(event: ChirpEvent): void {
    this.events.push(event)
  }

  async enqueueJob(job: NewJob, at: string): Promise<void> {
    await jobs.enqueueJobs(this.sql, [job], at, this.jobsNotice)
    this.queued.push(job.runAt)
  }
  completeJob(id: string, claim: string, at: string): Promise<boolean> {
    return jobs.completeJob(this.sql, id, claim, at)
  }

  /**
   * The events, in the order emitted, as outbox rows of this transaction: the newest row's id. A
   * transaction that emitted none logs `store.changed`, so every instance hears of its write.
   */
  async writeEvents(): Promise<number> {
    const rows =
      this.events.length === 0
        ? [{ name: STORE_CHANGED, recipient: null, actor: null, about: null, data: '{}' }]
        : this.events.map((event) => ({
            name: event.name,
            recipient: event.to ?? null,
            actor: event.by ?? null,
            about: event.about ?? null,
            data: storedData(event.data, event.audience),
          }))
    const sql = this.sql
    const [written] = await sql<{ newest: string }[]>`
      WITH written AS (INSERT INTO event_outbox ${sql(rows)} RETURNING id) SELECT max(id)::text AS newest FROM written`
    return Number(written?.newest ?? 0)
  }
}

const commentPeople = (comments: readonly CommentRecord[]) =>
  comments.flatMap((comment) => [comment.authorId, ...comment.upvotedBy, ...comment.downvotedBy])
