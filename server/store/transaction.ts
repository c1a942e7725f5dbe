import { lockedOf, withKnownPeople, withKnownVoters } from './post-parts.js'
import { noticedClosed, subtreesOf, withoutVote, withVote } from './poll-parts.js'
import type { ChirpEvent } from '../schemas/events.js'
import { usernameSkeleton } from '../usernames.js'
import { TransactionReads } from './transaction-reads.js'
import { isRunning, withFollowRequests } from './relations.js'
import { withPlaces } from './list-places.js'
import { queuedJob, settled } from './job-types.js'
import { conversationBetween, delivered, membershipOf, participantSet, withMembership } from './conversation-parts.js'
import { markerId, type MarkerTimeline } from './client-app-types.js'
import type { FilterRecord, ListRecord } from './filter-list-types.js'
import type { MailKind } from '../../common/notification-settings.js'
import type {
  AppRecord,
  AuthorizationCodeRecord,
  ActorKeysRecord,
  AuditEntryRecord,
  CommentRecord,
  ConversationMembership,
  LeftConversation,
  InviteRecord,
  ReportRecord,
  ReportResolution,
  ReservedNameRecord,
  Role,
  Suspension,
  MuteRecord,
  NotificationIdentity,
  NotificationMatch,
  NotificationRecord,
  LinkCardRecord,
  NewJob,
  PollRecord,
  PollVote,
  PostChanges,
  PostRecord,
  ProfileChanges,
  ReactionChange,
  RevokedTokenRecord,
  StoreTx,
  TwoFactorProof,
  UserRecord,
  PushSubscriptionRecord,
  CustomEmojiRecord,
  PostVersionRecord,
  ScheduledPostRecord,
} from './types.js'

const without = (ids: readonly string[], id: string) => ids.filter((other) => other !== id)
const peopleOfComment = (comment: CommentRecord) => [comment.authorId, ...comment.upvotedBy, ...comment.downvotedBy]
const withLast = (ids: readonly string[], id: string) => [...without(ids, id), id]

/**
 * One transaction of the embedded store: each operation computes the next immutable record from the
 * current one (staged or committed) and stages it. Transactions run one at a time behind the store's
 * mutex, so every check an operation makes holds until the commit; a failed transaction is dropped whole.
 */
export class Transaction extends TransactionReads implements StoreTx {
  readonly events: ChirpEvent[] = []

  async lockPost(id: string) {
    return lockedOf(await this.getPost(id))
  }

  /** Nothing waits here (the mutex holds every post already); the order is the contract's. */
  async lockPosts(ids: readonly string[]) {
    const posts = await Promise.all([...new Set(ids)].sort().map((id) => this.lockPost(id)))
    return posts.filter((post) => post !== undefined)
  }

  relationsBetween(pairs: readonly (readonly [string, string])[], at: string) {
    return Promise.all(pairs.map(([viewerId, otherId]) => this.relationBetween(viewerId, otherId, at)))
  }

  async createUser(user: UserRecord): Promise<'created' | 'taken' | 'lookAlike'> {
    if (await this.getUserByUsername(user.username)) return 'taken'
    if (this.hasUsernameSkeleton(usernameSkeleton(user.username))) return 'lookAlike'
    this.#putUser(user)
    return 'created'
  }

  async updateProfile(id: string, changes: ProfileChanges, at: string) {
    const user = await this.getUser(id)
    if (!user) return undefined
    const { locked, altTextReminder, quotePolicy, ...rest } = changes
    const { locked: _before, altTextReminder: _asked, quotePolicy: _quote, ...kept } = user
    const lock = (locked ?? user.locked) ? { locked: true as const } : {}
    // Asking is the default, so only its absence is kept, as PostgreSQL reads it back.
    const remind = (altTextReminder ?? user.altTextReminder) === false ? { altTextReminder: false } : {}
    // Anyone may quote unless the record says otherwise, as PostgreSQL reads it back.
    const quoting = quotePolicy ?? user.quotePolicy ?? 'anyone'
    const quote = quoting === 'anyone' ? {} : { quotePolicy: quoting }
    return this.#putUser({ ...kept, ...rest, ...lock, ...remind, ...quote, updatedAt: at })
  }

  async createApp(app: AppRecord) {
    this.apps.set(app._id, Object.freeze({ ...app }))
  }

  async addAuthorizationCode(code: AuthorizationCodeRecord, at: string) {
    if (!(await this.getApp(code.appId)) || !(await this.getUser(code.userId))) return
    for (const id of this.base.codesToForget(at)) this.authorizationCodes.set(id, null)
    this.authorizationCodes.set(code._id, Object.freeze({ ...code }))
  }

  async takeAuthorizationCode(id: string, at: string) {
    const staged = this.authorizationCodes.get(id)
    const code = staged === null ? undefined : (staged ?? this.base.getCode(id))
    if (!code) return undefined
    this.authorizationCodes.set(id, null)
    return code.expiresAt > at ? code : undefined
  }

  async setMarker(userId: string, timeline: MarkerTimeline, lastReadId: string, at: string) {
    if (!(await this.getUser(userId))) return undefined
    const id = markerId(userId, timeline)
    const before = (await this.listMarkers(userId)).find((marker) => marker._id === id)
    const marker = Object.freeze({
      _id: id,
      userId,
      timeline,
      lastReadId,
      version: (before?.version ?? 0) + 1,
      updatedAt: at,
    })
    this.markers.set(id, marker)
    return marker
  }

  async putPushSubscription(subscription: PushSubscriptionRecord) {
    if (!(await this.getUser(subscription.userId))) return false
    this.pushSubscriptions.set(subscription._id, Object.freeze({ ...subscription }))
    return true
  }

  async addCustomEmoji(emoji: CustomEmojiRecord) {
    if (await this.getCustomEmoji(emoji._id)) return false
    this.customEmojis.set(emoji._id, Object.freeze({ ...emoji }))
    return true
  }

  async removeCustomEmoji(shortcode: string) {
    const emoji = await this.getCustomEmoji(shortcode)
    if (emoji) this.customEmojis.set(shortcode, null)
    return emoji
  }

  async removePushSubscription(id: string) {
    if (!(await this.getPushSubscription(id))) return false
    this.pushSubscriptions.set(id, null)
    return true
  }

  async setMailAlerts(id: string, kinds: readonly MailKind[]) {
    const user = await this.getUser(id)
    if (!user) return
    const { mailAlerts: _before, ...rest } = user
    this.#putUser(kinds.length > 0 ? { ...rest, mailAlerts: [...kinds] } : rest)
  }

  async setMailedThrough(id: string, at: string) {
    const user = await this.getUser(id)
    if (user) this.#putUser({ ...user, mailedThrough: at })
  }

  async revokeTokens(id: string) {
    const user = await this.getUser(id)
    if (user) this.#putUser({ ...user, tokenVersion: user.tokenVersion + 1 })
  }

  async setPassword(id: string, expected: string, passwordHash: string, at: string) {
    const user = await this.getUser(id)
    if (user?.passwordHash !== expected) return undefined
    const changed = this.#putUser({ ...user, passwordHash, tokenVersion: user.tokenVersion + 1, updatedAt: at })
    return { _id: changed._id, username: changed.username, tokenVersion: changed.tokenVersion }
  }

  async beginTwoFactor(id: string, secret: string) {
    const user = await this.getUser(id)
    if (!user || user.twoFactor?.enabled) return false
    this.#putUser({ ...user, twoFactor: { secret, enabled: false, lastStep: 0, recoveryCodes: [] } })
    return true
  }

  async enableTwoFactor(id: string, secret: string, step: number, recoveryCodes: readonly string[]) {
    const user = await this.getUser(id)
    const pending = user?.twoFactor
    if (!user || !pending || pending.enabled || pending.secret !== secret) return false
    this.#putUser({ ...user, twoFactor: { secret, enabled: true, lastStep: step, recoveryCodes: [...recoveryCodes] } })
    return true
  }

  async useTwoFactor(id: string, proof: TwoFactorProof) {
    const user = await this.getUser(id)
    const state = user?.twoFactor
    if (!user || !state?.enabled) return false
    if ('step' in proof) {
      if (proof.step <= state.lastStep) return false
      this.#putUser({ ...user, twoFactor: { ...state, lastStep: proof.step } })
      return true
    }
    if (!state.recoveryCodes.includes(proof.recoveryCode)) return false
    this.#putUser({ ...user, twoFactor: { ...state, recoveryCodes: without(state.recoveryCodes, proof.recoveryCode) } })
    return true
  }

  async disableTwoFactor(id: string) {
    const user = await this.getUser(id)
    if (!user?.twoFactor) return
    const { twoFactor: _off, ...rest } = user
    this.#putUser(rest)
  }

  putFilter(filter: FilterRecord) {
    return this.#putOwn('filters', filter)
  }

  deleteFilter(userId: string, filterId: string) {
    return this.#deleteOwn('filters', userId, filterId)
  }

  putList(list: ListRecord) {
    return this.#putOwn('lists', list)
  }

  deleteList(userId: string, listId: string) {
    return this.#deleteOwn('lists', userId, listId)
  }

  async addPostVersion(postId: string, version: PostVersionRecord) {
    const post = await this.getPost(postId)
    if (!post) return false
    this.#putPost({ ...post, versions: [...(post.versions ?? []), Object.freeze({ ...version })] })
    return true
  }

  putScheduledPost(scheduled: ScheduledPostRecord) {
    return this.#putOwn('scheduledPosts', scheduled)
  }

  async takeScheduledPost(userId: string, id: string, at: string) {
    const scheduled = await this.getScheduledPost(userId, id)
    if (!scheduled || scheduled.scheduledAt > at) return undefined
    await this.#deleteOwn('scheduledPosts', userId, id)
    return scheduled
  }

  removeScheduledPost(userId: string, id: string) {
    return this.#deleteOwn('scheduledPosts', userId, id)
  }

  /** Keeps a filter or list on its owner's record, in place of the one of its id or last. */
  async #putOwn<K extends 'filters' | 'lists' | 'scheduledPosts'>(kind: K, record: NonNullable<UserRecord[K]>[number]) {
    const user = await this.getUser(record.userId)
    if (!user) return false
    const records: readonly { readonly _id: string }[] = user[kind] ?? []
    const frozen = Object.freeze(record)
    const next = records.some((each) => each._id === record._id)
      ? records.map((each) => (each._id === record._id ? frozen : each))
      : [...records, frozen]
    this.#putUser({ ...user, [kind]: next })
    return true
  }

  /** Forgets a filter or list of its owner's; false when they have none of that id. */
  async #deleteOwn(kind: 'filters' | 'lists' | 'scheduledPosts', userId: string, id: string) {
    const user = await this.getUser(userId)
    const records: readonly { readonly _id: string }[] = user?.[kind] ?? []
    if (!user || !records.some((each) => each._id === id)) return false
    this.#putUser({ ...user, [kind]: records.filter((each) => each._id !== id) })
    return true
  }

  async addActorKeys(id: string, keys: ActorKeysRecord) {
    const user = await this.getUser(id)
    if (!user) return undefined
    if (user.actorKeys) return user.actorKeys
    this.#putUser({ ...user, actorKeys: keys })
    return keys
  }

  async saveRemoteUser(user: UserRecord) {
    const existing = await this.getUser(user._id)
    if (!existing) {
      this.#putUser(user)
      return
    }
    const { displayName: _d, bannerURL: _b, locked: _l, ...kept } = existing
    const { username, firstName, lastName, displayName, bio, avatarURL, bannerURL, locked, remote, updatedAt } = user
    const shown = { username, firstName, lastName, bio, avatarURL, remote, updatedAt }
    const optional = { displayName, bannerURL, locked }
    this.#putUser({ ...kept, ...shown, ...Object.fromEntries(Object.entries(optional).filter(([, v]) => v)) })
  }

  async revokeToken(token: RevokedTokenRecord, at: string) {
    for (const id of this.base.expiredRevocations(at)) this.revokedTokens.set(id, null)
    this.revokedTokens.set(token._id, Object.freeze({ ...token }))
  }

  follow(followerId: string, followeeId: string, at: string) {
    return this.#changeFollow(followerId, followeeId, at, true)
  }
  unfollow(followerId: string, followeeId: string, at: string) {
    return this.#changeFollow(followerId, followeeId, at, false)
  }

  async #changeFollow(followerId: string, followeeId: string, at: string, follow: boolean) {
    const follower = await this.getUser(followerId)
    const followee = await this.getUser(followeeId)
    if (!follower || !followee || followerId === followeeId || follower.following.includes(followeeId) === follow)
      return false
    this.#putUser({
      ...follower,
      following: follow ? withLast(follower.following, followeeId) : without(follower.following, followeeId),
      updatedAt: at,
    })
    this.#putUser({
      ...followee,
      followers: follow ? withLast(followee.followers, followerId) : without(followee.followers, followerId),
      updatedAt: at,
    })
    return true
  }

  async addFollowRequest(followerId: string, followeeId: string, _at: string) {
    const follower = await this.getUser(followerId)
    const followee = await this.getUser(followeeId)
    const waiting = followee?.followRequests ?? []
    if (!follower || !followee || followerId === followeeId) return false
    if (waiting.includes(followerId) || follower.following.includes(followeeId)) return false
    this.#putUser(withFollowRequests(followee, [...waiting, followerId]))
    return true
  }

  async removeFollowRequest(followerId: string, followeeId: string) {
    const followee = await this.getUser(followeeId)
    if (!followee?.followRequests?.includes(followerId)) return false
    this.#putUser(withFollowRequests(followee, without(followee.followRequests, followerId)))
    return true
  }

  async acceptFollowRequest(followerId: string, followeeId: string, at: string) {
    if (!(await this.removeFollowRequest(followerId, followeeId))) return false
    await this.follow(followerId, followeeId, at)
    return true
  }

  async acceptFollowRequests(followeeId: string, at: string) {
    const waiting = (await this.getUser(followeeId))?.followRequests ?? []
    for (const followerId of waiting) await this.acceptFollowRequest(followerId, followeeId, at)
    return [...waiting]
  }

  async block(blockerId: string, blockedId: string, at: string) {
    const blocker = await this.getUser(blockerId)
    const blocked = await this.getUser(blockedId)
    if (!blocker || !blocked || blockerId === blockedId || blocker.blocking?.includes(blockedId)) return undefined
    const ended: [string, string][] = []
    if (await this.unfollow(blockerId, blockedId, at)) ended.push([blockerId, blockedId])
    if (await this.unfollow(blockedId, blockerId, at)) ended.push([blockedId, blockerId])
    await this.removeFollowRequest(blockerId, blockedId)
    await this.removeFollowRequest(blockedId, blockerId)
    const current = (await this.getUser(blockerId)) ?? blocker
    this.#putUser({ ...current, blocking: [...(current.blocking ?? []), blockedId] })
    return ended
  }

  async unblock(blockerId: string, blockedId: string) {
    const blocker = await this.getUser(blockerId)
    if (!blocker?.blocking?.includes(blockedId)) return false
    this.#putUser({ ...blocker, blocking: without(blocker.blocking, blockedId) })
    return true
  }

  /** Mutes past their end go at the same time: they are in effect no longer. */
  async mute(muterId: string, mute: MuteRecord, at: string) {
    const muter = await this.getUser(muterId)
    if (!muter || !(await this.getUser(mute.userId)) || muterId === mute.userId) return false
    const kept = (muter.muting ?? []).filter((other) => other.userId !== mute.userId && isRunning(other, at))
    this.#putUser({ ...muter, muting: [...kept, Object.freeze({ ...mute })] })
    return true
  }

  async unmute(muterId: string, mutedId: string) {
    const muter = await this.getUser(muterId)
    const muting = muter?.muting ?? []
    if (!muter || !muting.some((mute) => mute.userId === mutedId)) return false
    this.#putUser({ ...muter, muting: muting.filter((mute) => mute.userId !== mutedId) })
    return true
  }

  addBookmark(userId: string, postId: string, at: string) {
    return this.#changeBookmark(userId, postId, at, true)
  }
  removeBookmark(userId: string, postId: string, at: string) {
    return this.#changeBookmark(userId, postId, at, false)
  }

  async #changeBookmark(userId: string, postId: string, at: string, add: boolean) {
    const user = await this.getUser(userId)
    if (!user || user.bookmarks.includes(postId) === add || (add && !(await this.getPost(postId)))) return false
    this.#putUser({
      ...user,
      bookmarks: add ? withLast(user.bookmarks, postId) : without(user.bookmarks, postId),
      updatedAt: at,
    })
    return true
  }

  async insertPost(post: PostRecord) {
    const people = [...post.likedBy, ...post.dislikedBy, ...post.comments.flatMap(peopleOfComment)]
    const kept = withKnownPeople(post, await this.#knownUsers(people))
    this.#putPost(kept)
    // Its likers like it now, as PostgreSQL's rows of the same likes say (listLikedPosts).
    for (const userId of kept.likedBy) {
      const user = await this.getUser(userId)
      if (user) this.#putUser({ ...user, likes: withLast(user.likes ?? this.base.likesOf(userId), kept._id) })
    }
  }

  async updatePost(id: string, changes: PostChanges, at: string) {
    const post = await this.getPost(id)
    if (!post) return
    const { mediaAlt, mediaWidth, mediaHeight, moreMedia, card, spoilerText, ...rest } = {
      ...post,
      ...changes,
      updatedAt: at,
      editedAt: at,
    }
    // Optional fields are left out when absent, so a record never holds `undefined`.
    this.#putPost({
      ...rest,
      ...(mediaAlt !== undefined ? { mediaAlt } : {}),
      ...(mediaWidth !== undefined ? { mediaWidth } : {}),
      ...(mediaHeight !== undefined ? { mediaHeight } : {}),
      ...(moreMedia !== undefined && moreMedia.length > 0 ? { moreMedia } : {}),
      ...(card !== undefined ? { card } : {}),
      ...(spoilerText !== undefined ? { spoilerText } : {}),
    })
  }

  async setPostCard(id: string, card: LinkCardRecord) {
    const post = await this.getPost(id)
    if (post) this.#putPost({ ...post, card })
  }

  async deletePost(id: string) {
    const post = await this.getPost(id)
    const likers = post?.likedBy ?? []
    this.posts.set(id, null)
    // A direct post is unread for none but those it reached: whom it addressed.
    const conversationId = post?.conversationId
    for (const userId of conversationId === undefined ? [] : (post?.addressed ?? [])) {
      const user = await this.getUser(userId)
      const membership = membershipOf(user, conversationId ?? '')
      if (user && membership?.unread.includes(id)) {
        this.#putUser(withMembership(user, { ...membership, unread: without(membership.unread, id) }))
      }
    }
    for (const userId of likers) {
      const user = await this.getUser(userId)
      const likes = user?.likes ?? this.base.likesOf(userId)
      if (user && likes.includes(id)) this.#putUser({ ...user, likes: without(likes, id) })
    }
    for (const userId of this.base.usersBookmarking(id)) {
      const user = await this.getUser(userId)
      if (user?.bookmarks.includes(id)) this.#putUser({ ...user, bookmarks: without(user.bookmarks, id) })
    }
    // Bookmarks staged earlier in this transaction are not in the base's index yet.
    for (const user of this.users.values()) {
      if (user.bookmarks.includes(id)) this.#putUser({ ...user, bookmarks: without(user.bookmarks, id) })
    }
  }

  async setReaction(postId: string, userId: string, liked: boolean, at: string) {
    const post = await this.getPost(postId)
    if (!post || post.likedBy.includes(userId) === liked) return false
    const user = await this.getUser(userId)
    if (!user) return false
    const likes = user.likes ?? this.base.likesOf(userId)
    this.#putUser({ ...user, likes: liked ? withLast(likes, postId) : without(likes, postId) })
    this.#putPost({
      ...post,
      likedBy: liked ? withLast(post.likedBy, userId) : without(post.likedBy, userId),
      likeCount: post.likeCount + (liked ? 1 : -1),
      dislikedBy: liked ? without(post.dislikedBy, userId) : withLast(post.dislikedBy, userId),
      updatedAt: at,
    })
    return true
  }

  /** One after another, each staged before the next reads. */
  async setReactions(changes: readonly ReactionChange[], at: string) {
    const changed: boolean[] = []
    for (const { postId, userId, liked } of changes) changed.push(await this.setReaction(postId, userId, liked, at))
    return changed
  }

  async setRepost(postId: string, userId: string, reposted: boolean, at: string) {
    const post = await this.getPost(postId)
    const reposts = post?.reposts ?? []
    if (!post || reposts.some((repost) => repost.userId === userId) === reposted) return false
    // A repost names someone who exists, as PostgreSQL's rows must.
    if (reposted && !(await this.getUser(userId))) return false
    const next = reposted
      ? [...reposts, Object.freeze({ userId, at })]
      : reposts.filter((repost) => repost.userId !== userId)
    const { reposts: _before, repostCount: _count, ...rest } = post
    this.#putPost({
      ...rest,
      ...(next.length > 0 ? { reposts: next, repostCount: next.length } : {}),
      updatedAt: at,
    })
    return true
  }

  async setPinned(postId: string, at: string | null) {
    const post = await this.getPost(postId)
    if (!post) return
    const { pinnedAt: _before, ...rest } = post
    this.#putPost(at === null ? rest : { ...rest, pinnedAt: at })
  }

  async addComment(postId: string, comment: CommentRecord) {
    const post = await this.getPost(postId)
    const known = await this.#knownUsers(peopleOfComment(comment))
    if (!post || !known(comment.authorId)) return
    const added = withKnownVoters(comment, known)
    this.#putPost({ ...post, comments: [...post.comments, added], commentCount: post.commentCount + 1 })
  }

  updateComment(postId: string, commentId: string, text: string, at: string) {
    return this.#changeComment(postId, commentId, (comment) => ({ ...comment, text, updatedAt: at }))
  }

  async deleteComment(postId: string, commentId: string) {
    const post = await this.getPost(postId)
    if (!post) return
    const comments = post.comments.filter((comment) => comment._id !== commentId)
    this.#putPost({ ...post, comments, commentCount: comments.length })
  }

  async setVote(postId: string, commentId: string, userId: string, up: boolean, at: string) {
    if (!(await this.getUser(userId))) return false
    let changed = false
    await this.#changeComment(postId, commentId, (comment) => {
      if ((up ? comment.upvotedBy : comment.downvotedBy).includes(userId)) return comment
      changed = true
      return {
        ...comment,
        upvotedBy: up ? withLast(comment.upvotedBy, userId) : without(comment.upvotedBy, userId),
        downvotedBy: up ? without(comment.downvotedBy, userId) : withLast(comment.downvotedBy, userId),
        updatedAt: at,
      }
    })
    return changed
  }

  async openConversation(participantIds: readonly string[], newId: string, at: string) {
    const ids = participantSet(participantIds)
    const people = await this.getUsers(ids)
    if (ids.length === 0 || people.length !== ids.length) return undefined
    const found = conversationBetween(people[0], ids)
    if (found) return found._id
    for (const user of people)
      this.#putUser(withMembership(user, { _id: newId, participantIds: ids, activeAt: at, unread: [] }))
    return newId
  }

  async deliverDirectPost(
    conversationId: string,
    postId: string,
    authorId: string,
    recipientIds: readonly string[],
    at: string,
  ) {
    const author = await this.getUser(authorId)
    const own = membershipOf(author, conversationId)
    if (!author || !own || !(await this.getPost(postId))) return false
    this.#putUser(withMembership(author, delivered(own, postId, at, false)))
    for (const userId of new Set(recipientIds)) {
      const user = userId === authorId ? undefined : await this.getUser(userId)
      const membership = membershipOf(user, conversationId)
      if (user && membership) this.#putUser(withMembership(user, delivered(membership, postId, at, true)))
    }
    return true
  }

  markConversationRead(conversationId: string, userId: string) {
    return this.#changeMembership(conversationId, userId, (membership) => ({ ...membership, unread: [] }))
  }

  hideConversation(conversationId: string, userId: string) {
    return this.#changeMembership(conversationId, userId, (membership) => ({
      ...membership,
      unread: [],
      hidden: true,
    }))
  }

  async #changeMembership(
    conversationId: string,
    userId: string,
    change: (membership: ConversationMembership) => ConversationMembership,
  ) {
    const user = await this.getUser(userId)
    const membership = membershipOf(user, conversationId)
    if (!user || !membership) return false
    this.#putUser(withMembership(user, change(membership)))
    return true
  }

  async addPollVote(vote: PollVote) {
    // A vote names someone who exists, as PostgreSQL's rows must.
    if (!(await this.getUser(vote.userId))) return false
    return this.#changePoll(vote.postId, (poll) => withVote(poll, vote))
  }

  async removePollVotes(userId: string) {
    const changed: string[] = []
    for (const postId of this.base.pollsVotedIn(userId)) {
      if (await this.#changePoll(postId, (poll) => withoutVote(poll, userId))) changed.push(postId)
    }
    return changed
  }

  notePollClosed(postId: string, at: string) {
    return this.#changePoll(postId, (poll) => noticedClosed(poll, at))
  }

  async addNotification(notification: NotificationRecord) {
    const { recipientId, actorId, postId, commentId } = notification
    const post = postId === undefined ? undefined : await this.getPost(postId)
    const known =
      (await this.getUsers([recipientId, actorId])).length === 2 &&
      (postId === undefined || post !== undefined) &&
      (commentId === undefined || post?.comments.some((comment) => comment._id === commentId) === true)
    return known ? this.notifications.add(notification) : undefined
  }

  async removeNotifications(match: NotificationMatch) {
    return this.notifications.remove(match)
  }

  /** One after another; each recipient's count is the one after the last. */
  async addNotifications(notifications: readonly NotificationRecord[]) {
    const added: (number | undefined)[] = []
    for (const notification of notifications) added.push(await this.addNotification(notification))
    return notifications.map((notification, i) =>
      added[i] === undefined ? undefined : this.notifications.unread(notification.recipientId),
    )
  }

  async removeNotificationsOf(identities: readonly NotificationIdentity[]) {
    const after = new Map<string, number>()
    for (const identity of identities) {
      for (const { recipientId, unread } of this.notifications.remove({ identity })) after.set(recipientId, unread)
    }
    return [...after].map(([recipientId, unread]) => ({ recipientId, unread }))
  }

  async markNotificationsRead(userId: string, through: NotificationRecord | undefined) {
    return this.notifications.markRead(userId, through)
  }

  async setRole(id: string, role: Role, at: string) {
    const user = await this.getUser(id)
    return user && this.#putUser({ ...user, role, updatedAt: at })
  }

  async setSuspension(id: string, suspension: Suspension | null, at: string) {
    const user = await this.getUser(id)
    if (!user) return undefined
    const { suspension: _lifted, ...rest } = user
    return this.#putUser({ ...rest, ...(suspension ? { suspension } : {}), updatedAt: at })
  }

  async approveUser(id: string, at: string) {
    const user = await this.getUser(id)
    if (!user?.pending) return false
    const { pending: _approved, ...rest } = user
    this.#putUser({ ...rest, updatedAt: at })
    return true
  }

  async deletePendingUser(id: string) {
    const user = await this.getUser(id)
    if (!user?.pending) return false
    this.users.delete(id)
    this.deletedUsers.add(id)
    return true
  }

  /**
   * One transaction like any other, so the deletion reaches the disk in one flush or not at all: the
   * manifest written last is the commit point (layout.ts). Each step below removes one kind of thing the
   * user owns.
   */
  async deleteAccount(userId: string, reservation: ReservedNameRecord, at: string) {
    const user = await this.getUser(userId)
    if (!user) return undefined
    const unread = new Map<string, number>()
    const retract = (match: NotificationMatch) => {
      for (const count of this.notifications.remove(match)) unread.set(count.recipientId, count.unread)
    }
    // Their posts, with the comments, likes and bookmarks others made of them.
    const postIds = [...this.base.postIdsBy(userId)]
    for (const postId of postIds) {
      retract({ postId })
      await this.deletePost(postId)
    }
    // Their likes, reposts, comments (with the replies to them), comment votes and poll votes on the posts
    // of others, and the counts those fed.
    for (const postId of this.base.postsTouchedBy(userId)) await this.#leavePost(postId, userId, retract)
    await this.removePollVotes(userId)
    // Their follows, both ways.
    for (const followeeId of user.following) await this.unfollow(userId, followeeId, at)
    for (const followerId of user.followers) await this.unfollow(followerId, userId, at)
    // Their requests to follow others (those to them go with their record).
    for (const followeeId of this.base.usersRequestedBy(userId)) await this.removeFollowRequest(userId, followeeId)
    // Blocks and mutes of them (theirs go with their record).
    for (const blockerId of this.base.blockersOf(userId)) {
      const blocker = await this.getUser(blockerId)
      if (blocker?.blocking) this.#putUser({ ...blocker, blocking: without(blocker.blocking, userId) })
    }
    for (const muterId of this.base.usersMuting(userId)) {
      const muter = await this.getUser(muterId)
      if (muter?.muting) this.#putUser({ ...muter, muting: muter.muting.filter((mute) => mute.userId !== userId) })
    }
    // Notifications to and from them, and the reports they made or that are about them.
    retract({ involving: userId })
    const openReportSnapshots: object[] = []
    for (const reportId of this.base.reportsNaming(userId)) {
      const report = await this.getReport(reportId)
      if (report?.status === 'open') openReportSnapshots.push(report.snapshot)
      this.reports.set(reportId, null)
    }
    // The jobs about their posts (cards, polls) and mail to their address: none is left to do, and no
    // record names them.
    for (const jobId of this.base.jobsNaming(postIds, user.email)) this.jobs.set(jobId, null)
    // Their conversations go on between the others, who each keep their own place in them.
    const conversations: LeftConversation[] = []
    for (const membership of user.directConversations ?? []) {
      const others = await this.getUsers(membership.participantIds.filter((id) => id !== userId))
      const participantIds = others.map((other) => other._id).sort()
      conversations.push({ conversationId: membership._id, participantIds })
    }
    // What the Mastodon client API kept for them: their authorization codes and markers.
    for (const codeId of this.base.codesToForget(at, userId)) this.authorizationCodes.set(codeId, null)
    for (const marker of await this.listMarkers(userId)) this.markers.set(marker._id, null)
    for (const push of await this.listPushSubscriptions(userId)) this.pushSubscriptions.set(push._id, null)
    // The record itself, with its bookmarks, two-factor state and places in conversations; the name is held.
    this.users.delete(userId)
    this.deletedUsers.add(userId)
    for (const key of this.base.expiredReservations(at)) this.reservedNames.set(key, null)
    this.reservedNames.set(reservation._id, Object.freeze({ ...reservation }))
    unread.delete(userId)
    const unreadCounts = [...unread].map(([recipientId, count]) => ({ recipientId, unread: count }))
    return { postIds, unread: unreadCounts, openReportSnapshots, conversations }
  }

  /** Takes the user's like, repost, comments (and every reply under them) and votes off someone else's post. */
  async #leavePost(postId: string, userId: string, retract: (match: NotificationMatch) => void) {
    const post = await this.getPost(postId)
    if (!post) return
    const goneIds = subtreesOf(
      post.comments,
      post.comments.filter((comment) => comment.authorId === userId),
    )
    const gone = (comment: CommentRecord) => goneIds.has(comment._id)
    for (const comment of post.comments.filter(gone)) retract({ commentId: comment._id })
    const reposts = (post.reposts ?? []).filter((repost) => repost.userId !== userId)
    const { reposts: _before, repostCount: _count, ...rest } = post
    const comments = post.comments
      .filter((comment) => !gone(comment))
      .map((comment) =>
        comment.upvotedBy.includes(userId) || comment.downvotedBy.includes(userId)
          ? {
              ...comment,
              upvotedBy: without(comment.upvotedBy, userId),
              downvotedBy: without(comment.downvotedBy, userId),
            }
          : comment,
      )
    this.#putPost({
      ...rest,
      ...(reposts.length > 0 ? { reposts, repostCount: reposts.length } : {}),
      likedBy: without(post.likedBy, userId),
      dislikedBy: without(post.dislikedBy, userId),
      likeCount: post.likeCount - (post.likedBy.includes(userId) ? 1 : 0),
      comments,
      commentCount: comments.length,
    })
  }

  /** Transactions run one at a time: every user is locked already. */
  async lockUser() {}

  async addReport(report: ReportRecord) {
    this.reports.set(report._id, Object.freeze({ ...report }))
  }

  async resolveReport(id: string, resolution: ReportResolution) {
    const report = await this.getReport(id)
    if (report?.status !== 'open') return undefined
    const resolved: ReportRecord = Object.freeze({ ...report, ...resolution, status: 'resolved' })
    this.reports.set(id, resolved)
    return resolved
  }

  async addAuditEntry(entry: AuditEntryRecord) {
    this.auditLog.set(entry._id, Object.freeze({ ...entry }))
  }

  async addInvite(invite: InviteRecord) {
    this.invites.set(invite._id, Object.freeze({ ...invite }))
  }

  async useInvite(code: string, at: string) {
    const invite = await this.getInvite(code)
    if (!invite || invite.used >= invite.uses || (invite.expiresAt !== null && invite.expiresAt <= at)) return false
    this.invites.set(code, Object.freeze({ ...invite, used: invite.used + 1 }))
    return true
  }

  emit(event: ChirpEvent) {
    this.events.push(event)
  }

  async enqueueJob(job: NewJob, at: string) {
    this.jobs.set(job._id, Object.freeze(queuedJob(job, at)))
  }

  async completeJob(id: string, claim: string, at: string) {
    const job = this.jobs.has(id) ? this.jobs.get(id) : this.base.getJob(id)
    if (job?.state !== 'running' || job.claim !== claim) return false
    this.jobs.set(id, Object.freeze(settled(job, { state: 'done' }, at)))
    return true
  }

  async #changeComment(postId: string, commentId: string, change: (comment: CommentRecord) => CommentRecord) {
    const post = await this.getPost(postId)
    if (!post) return
    let changed = false
    const comments = post.comments.map((comment) => {
      if (comment._id !== commentId) return comment
      const next = change(comment)
      changed ||= next !== comment
      return next
    })
    if (changed) this.#putPost({ ...post, comments })
  }

  /** Which of these users exist. */
  async #knownUsers(ids: readonly string[]): Promise<(id: string) => boolean> {
    const found = new Set((await this.getUsers(ids)).map((user) => user._id))
    return (id) => found.has(id)
  }

  /** Replaces the post's poll with what `change` makes of it; false when there is no poll or it made nothing. */
  async #changePoll(postId: string, change: (poll: PollRecord) => PollRecord | undefined) {
    const post = await this.getPost(postId)
    const poll = post?.poll && change(post.poll)
    if (!post || !poll) return false
    this.#putPost({ ...post, poll })
    return true
  }

  /** Stages the user's next record, with the places of its lists worked out from the one it replaces. */
  #putUser(next: UserRecord): UserRecord {
    const previous = this.deletedUsers.has(next._id)
      ? undefined
      : (this.users.get(next._id) ?? this.base.userRecord(next._id))
    const user = withPlaces(previous, next, this.base.likesOf(next._id))
    this.users.set(user._id, Object.freeze(user))
    return user
  }
  #putPost(post: PostRecord): void {
    this.posts.set(post._id, Object.freeze(post))
  }
}
