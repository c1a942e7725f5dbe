import { travels } from './audience-scope.js'
import { JobIndex } from './job-index.js'
import { CURSOR, checkCursor, pageOf, type SortKey } from './cursor.js'
import { NameIndex } from './name-index.js'
import { ModerationIndex } from './moderation-index.js'
import { NotificationIndex } from './notification-index.js'
import { ReservedNames } from './reserved-names.js'
import { ClientAppIndex } from './client-app-index.js'
import { RevokedTokens } from './revoked-tokens.js'
import { SearchIndex } from './search-index.js'
import { imageUrlsOf, withCounts } from './post-parts.js'
import { SortedList, mergePage, scanPage, sortPage } from './sorted-list.js'
import { usernameKey, usernameSkeleton } from '../usernames.js'
import type {
  AuthoredComment,
  Database,
  FeedRepost,
  FeedRepostQuery,
  Page,
  PageRequest,
  PostQuery,
  PostRecord,
  UserRecord,
} from './types.js'

const order = (a: string | number, b: string | number) => (a < b ? -1 : a > b ? 1 : 0)
/** Oldest first, ties by id: the order of posts, and of the likes of a database that kept no like times. */
export const byCreation = (a: PostRecord | UserRecord, b: PostRecord | UserRecord) =>
  order(a.createdAt, b.createdAt) || order(a._id, b._id)

const byTime: SortKey<PostRecord> = {
  of: (post) => [post.createdAt, post._id],
  parts: CURSOR.byTime,
  compare: byCreation,
}
const byTrend: SortKey<PostRecord> = {
  of: (post) => [post.likeCount, post.createdAt, post._id],
  parts: CURSOR.byLikes,
  compare: (a, b) => order(a.likeCount, b.likeCount) || byCreation(a, b),
}
const byRepostTime: SortKey<FeedRepost> = {
  of: (entry) => [entry.at, entry.post._id],
  parts: CURSOR.byTime,
  compare: (a, b) => order(a.at, b.at) || order(a.post._id, b.post._id),
}
const byJoined: SortKey<UserRecord> = {
  of: (user) => [user.createdAt, user._id],
  parts: CURSOR.byTime,
  compare: byCreation,
}

/** The records of `ids` in that order, skipping unknown ones. */
function known<T>(records: ReadonlyMap<string, T>, ids: readonly string[]): T[] {
  const found: T[] = []
  for (const id of ids) {
    const record = records.get(id)
    if (record) found.push(record)
  }
  return found
}

/**
 * Each user's liked posts, for a database written before records kept them: what the posts' lists say,
 * posts in time order, as no time of those likes was kept. `inTime` is every post in that order.
 */
function likesIn(inTime: readonly PostRecord[]): Map<string, string[]> {
  const likes = new Map<string, string[]>()
  for (const post of inTime)
    for (const userId of post.likedBy) {
      const mine = likes.get(userId)
      if (mine) mine.push(post._id)
      else likes.set(userId, [post._id])
    }
  return likes
}

/** The posts of a set of authors, found once per `authorIds` array and kept while that array lives. */
/** A home feed's authors (the user and whom they follow), and each one's posts by time. */
interface Authors {
  ids: ReadonlySet<string>
  lists: readonly SortedList<PostRecord>[]
}

const NOBODY: readonly string[] = Object.freeze([])
const NOBODY_POSTS: readonly PostRecord[] = Object.freeze([])

/**
 * The whole database in memory, indexed for the reads the services make: every post by time and by
 * likes, and each author's posts by time, so that no read walks every post; posts by search term and
 * tag, people by name, and each person's notifications.
 */
export class MemoryIndex {
  readonly users = new Map<string, UserRecord>()
  /** By usernameKey. */
  readonly usersByName = new Map<string, UserRecord>()
  /** Remote people by their actor's id. */
  readonly usersByActor = new Map<string, UserRecord>()
  /** Every username's usernameSkeleton: usernames never change, and users are never removed. */
  readonly usernameSkeletons = new Set<string>()
  readonly posts = new Map<string, PostRecord>()
  /** Remote posts by their note's id. */
  readonly postsByNote = new Map<string, PostRecord>()
  readonly search = new SearchIndex()
  readonly names = new NameIndex()
  readonly notifications = new NotificationIndex()
  readonly revokedTokens = new RevokedTokens()
  readonly moderation = new ModerationIndex()
  readonly reservedNames = new ReservedNames()
  readonly jobs = new JobIndex()
  readonly clientApps = new ClientAppIndex()
  /** Moderators and admins. */
  readonly #staff = new Set<string>()
  /** Who has a suspension, and when it ends (null: when lifted); some may have ended since. */
  readonly #suspended = new Map<string, string | null>()
  /** Signups waiting for approval: nobody yet, so no list of people holds them (DECISIONS §11). */
  readonly #pending = new Set<string>()
  /** Who blocks each user: every record's `blocking`, the other way round. */
  readonly #blockedBy = new Map<string, Set<string>>()
  readonly #usersByTime = new SortedList(byJoined)
  readonly #postsByTime = new SortedList(byTime)
  readonly #postsByTrend = new SortedList(byTrend)
  /** Never shrinks while the index lives, so that the lists held in #feedAuthors stay the live ones. */
  readonly #postsByAuthor = new Map<string, SortedList<PostRecord>>()
  /** Each home feed's authors, by the user: dropped when the user's follows change (putUser). */
  readonly #feedAuthors = new Map<string, Authors>()
  /** The likes of users whose records, written before records kept them, hold none (see likesIn). */
  #derivedLikes = new Map<string, string[]>()
  /** Each user's reposts: post id → when. */
  readonly #repostsBy = new Map<string, Map<string, string>>()
  /** Each conversation's direct posts, oldest first (conversation-parts.ts). */
  readonly #conversationPosts = new Map<string, SortedList<PostRecord>>()

  load(data: Database): void {
    this.users.clear()
    this.usersByName.clear()
    this.usernameSkeletons.clear()
    this.usersByActor.clear()
    this.#staff.clear()
    this.#suspended.clear()
    this.#pending.clear()
    this.posts.clear()
    this.postsByNote.clear()
    this.#postsByAuthor.clear()
    this.#blockedBy.clear()
    this.#repostsBy.clear()
    this.#conversationPosts.clear()
    this.#feedAuthors.clear()
    for (const user of data.users) {
      this.#indexUser(Object.freeze(user))
      this.#indexBlocks(user._id, [], user.blocking ?? [])
    }
    for (const post of data.posts) {
      const counted = Object.freeze(withCounts(post))
      this.posts.set(post._id, counted)
      if (counted.remote) this.postsByNote.set(counted.remote.noteId, counted)
      this.#indexReposts(counted, true)
    }
    // Sorted once by time, every list below is gathered from this one in its order: each author's, each
    // search term's and each tag's posts arrive already sorted, and sorting a sorted list is one pass. Shards
    // hand the posts over in the order of a hash, and sorting millions of entries from that order was most
    // of a large start.
    this.#postsByTime.reset([...this.posts.values()])
    const inTime = this.#postsByTime.items
    const byAuthor = new Map<string, PostRecord[]>()
    for (const post of inTime) {
      const mine = byAuthor.get(post.authorId)
      if (mine) mine.push(post)
      else byAuthor.set(post.authorId, [post])
    }
    for (const [author, posts] of byAuthor) this.#listOf(author).adopt(posts)
    const byConversation = new Map<string, PostRecord[]>()
    for (const post of inTime) {
      if (post.conversationId === undefined) continue
      const its = byConversation.get(post.conversationId)
      if (its) its.push(post)
      else byConversation.set(post.conversationId, [post])
    }
    for (const [id, posts] of byConversation) this.#conversationOf(id).adopt(posts)
    this.#derivedLikes = data.users.some((user) => !user.likes) ? likesIn(inTime) : new Map<string, string[]>()
    this.#usersByTime.reset([...this.users.values()])
    this.#postsByTrend.reset(inTime)
    this.search.load(inTime)
    this.names.load(data.users)
    this.notifications.load(data.notifications ?? [])
    this.revokedTokens.load(data.revokedTokens ?? [])
    this.moderation.load(data.reports ?? [], data.auditLog ?? [], data.invites ?? [])
    this.reservedNames.load(data.reservedNames ?? [])
    this.jobs.load(data.jobs ?? [])
    this.clientApps.load(data)
  }

  /** How many signups wait for approval. */
  pendingCount(): number {
    return this.#pending.size
  }

  getUsers(ids: readonly string[]): UserRecord[] {
    return known(this.users, ids)
  }

  getPosts(ids: readonly string[]): PostRecord[] {
    return known(this.posts, ids)
  }

  putUser(user: UserRecord): void {
    const previous = this.users.get(user._id)
    if (previous) this.usersByName.delete(usernameKey(previous.username))
    if (previous?.remote) this.usersByActor.delete(previous.remote.actorId)
    this.#indexUser(user)
    if (previous?.blocking !== user.blocking) this.#indexBlocks(user._id, previous?.blocking ?? [], user.blocking ?? [])
    if (previous?.following !== user.following) this.#feedAuthors.delete(user._id)
    this.#usersByTime.upsert(previous, user)
    this.names.putUser(previous, user)
  }

  putPost(post: PostRecord): void {
    const previous = this.posts.get(post._id)
    if (previous?.reposts !== post.reposts) {
      if (previous) this.#indexReposts(previous, false)
      this.#indexReposts(post, true)
    }
    this.posts.set(post._id, post)
    if (post.remote) this.postsByNote.set(post.remote.noteId, post)
    this.#postsByTime.upsert(previous, post)
    this.#postsByTrend.upsert(previous, post)
    this.#listOf(post.authorId).upsert(previous, post)
    if (post.conversationId !== undefined) this.#conversationOf(post.conversationId).upsert(previous, post)
    this.search.putPost(previous, post)
  }

  deletePost(id: string): void {
    const previous = this.posts.get(id)
    if (!previous) return
    this.#indexReposts(previous, false)
    this.posts.delete(id)
    if (previous.remote) this.postsByNote.delete(previous.remote.noteId)
    this.#postsByTime.remove(previous)
    this.#postsByTrend.remove(previous)
    this.#listOf(previous.authorId).remove(previous)
    if (previous.conversationId !== undefined) this.#conversationOf(previous.conversationId).remove(previous)
    this.search.deletePost(previous)
  }

  /** The conversation's direct posts, oldest first. */
  conversationPosts(conversationId: string): readonly PostRecord[] {
    return this.#conversationPosts.get(conversationId)?.items ?? NOBODY_POSTS
  }

  #conversationOf(conversationId: string): SortedList<PostRecord> {
    let list = this.#conversationPosts.get(conversationId)
    if (!list) this.#conversationPosts.set(conversationId, (list = new SortedList(byTime)))
    return list
  }

  /** The ids of the posts the user likes, oldest like first. */
  likesOf(userId: string): readonly string[] {
    const user = this.users.get(userId)
    return user?.likes ?? this.#derivedLikes.get(userId) ?? NOBODY
  }

  /** How many posts the author has: the length of their own list, never a walk. */
  postCountOf(authorId: string): number {
    return this.#postsByAuthor.get(authorId)?.items.length ?? 0
  }

  /** The author's posts, oldest first. */
  postsBy(authorId: string): readonly PostRecord[] {
    return this.#postsByAuthor.get(authorId)?.items ?? []
  }

  /** The ids of everyone who blocks the user. */
  blockersOf(userId: string): readonly string[] {
    return [...(this.#blockedBy.get(userId) ?? [])]
  }

  /**
   * Who to follow: everyone but the user, those they follow and those `hide` holds; the most followed
   * first, then the oldest account; the follows of the `uncounted` people count for nobody.
   */
  suggestUsers(
    userId: string,
    limit: number,
    hide: readonly string[] = [],
    uncounted: readonly string[] = [],
  ): UserRecord[] {
    const me = this.users.get(userId)
    const left = new Set([...(me?.following ?? []), ...this.withPending(hide)])
    const less = new Map<string, number>()
    for (const id of uncounted)
      for (const followed of this.users.get(id)?.following ?? NOBODY) less.set(followed, (less.get(followed) ?? 0) + 1)
    const followers = (user: UserRecord) => user.followers.length - (less.get(user._id) ?? 0)
    return this.#usersByTime.items
      .filter((user) => user._id !== userId && !left.has(user._id))
      .sort((a, b) => followers(b) - followers(a))
      .slice(0, limit)
  }

  /** The ids of everyone who bookmarked the post. */
  usersBookmarking(postId: string): string[] {
    const ids: string[] = []
    for (const user of this.users.values()) if (user.bookmarks.includes(postId)) ids.push(user._id)
    return ids
  }

  listUsers(request: PageRequest): Page<UserRecord> {
    return pageOf(this.#usersByTime.items, byJoined, 1, request)
  }

  listPosts(query: PostQuery): Page<PostRecord> {
    const direction = query.sort === 'oldest' ? 1 : -1
    const key = query.sort === 'trending' ? byTrend : byTime
    const all = query.sort === 'trending' ? this.#postsByTrend.items : this.#postsByTime.items
    const authors = query.feedOf === undefined ? this.#authorsOf(query.authorIds) : this.#feedOf(query.feedOf)
    if (query.sort === 'trending' && (query.uncounted?.length ?? 0) > 0) return this.#trendingWithout(query, authors)
    if (!authors) return pageOf(all, key, direction, query)
    return this.#authorsPage(authors, all, key, direction, query)
  }

  /**
   * Most liked first, counting no like of the `uncounted` people (suspended ones, DECISIONS §11). Only the
   * posts they like move: the rest keep their place in the list by likes, read past those few, and the
   * few are sorted by what is left of their likes and merged in. A page costs the likes of those people,
   * never a walk of every post.
   */
  #trendingWithout(query: PostQuery, authors: Authors | undefined): Page<PostRecord> {
    const less = new Map<string, number>()
    for (const userId of query.uncounted ?? NOBODY)
      for (const postId of this.likesOf(userId)) less.set(postId, (less.get(postId) ?? 0) + 1)
    const kept = (post: PostRecord) => authors === undefined || authors.ids.has(post.authorId)
    const moved = this.getPosts([...less.keys()]).filter(kept)
    const counted = (post: PostRecord) => post.likeCount - (less.get(post._id) ?? 0)
    const key: SortKey<PostRecord> = {
      of: (post) => [counted(post), post.createdAt, post._id],
      parts: CURSOR.byLikes,
      compare: (a, b) => order(counted(a), counted(b)) || byCreation(a, b),
    }
    // One more than a page from each part, so that the merge knows whether anything follows.
    const part = { ...query, ...(query.limit === undefined ? {} : { limit: query.limit + 1 }) }
    const stay = authors
      ? this.#authorsPage(authors, this.#postsByTrend.items, byTrend, -1, part, less)
      : scanPage(this.#postsByTrend.items, byTrend, -1, part, (post) => !less.has(post._id))
    const move = sortPage(moved, key, -1, part)
    const ascending = (page: Page<PostRecord>) => page.items.slice().reverse()
    return mergePage([ascending(stay), ascending(move)], key, -1, { limit: query.limit })
  }

  #authorsPage(
    authors: Authors,
    all: readonly PostRecord[],
    key: SortKey<PostRecord>,
    direction: 1 | -1,
    query: PostQuery,
    skip: ReadonlyMap<string, unknown> = new Map(),
  ): Page<PostRecord> {
    let matching = 0
    for (const list of authors.lists) matching += list.items.length
    if (matching === 0) {
      checkCursor(query, key.parts)
      return { items: [], nextCursor: null }
    }
    // Reading every post and keeping the authors' costs about (page size × all posts ÷ theirs) steps;
    // going through the authors' own lists costs about one step per author (by time) or per post of
    // theirs (by likes, which each author's list is not ordered by). The cheaper one is taken.
    const wanted = query.limit === undefined ? matching : query.limit + 1
    const scanCost = (wanted * all.length) / matching
    const ownCost =
      query.sort === 'trending' ? matching * Math.log2(matching + 1) : authors.lists.length * 4 + wanted * 2
    if (scanCost <= ownCost)
      return scanPage(all, key, direction, query, (post) => authors.ids.has(post.authorId) && !skip.has(post._id))
    const lists = authors.lists.map((list) => list.items)
    return query.sort === 'trending'
      ? sortPage(
          lists.flat().filter((post) => !skip.has(post._id)),
          key,
          direction,
          query,
        )
      : mergePage(lists, key, direction, query)
  }

  /** A user's pinned posts, the most recently pinned first. */
  listPinned(userId: string): PostRecord[] {
    const pinned = (this.#postsByAuthor.get(userId)?.items ?? []).filter((post) => post.pinnedAt !== undefined)
    return pinned.sort((a, b) => order(b.pinnedAt ?? '', a.pinnedAt ?? '') || order(b._id, a._id))
  }

  /** See StoreReader.listFeedReposts. */
  listFeedReposts(userId: string, query: FeedRepostQuery): Page<FeedRepost> {
    const entries = this.#feedReposts(this.#feedOf(userId), query.hide ?? NOBODY)
    const page = pageOf(entries, byRepostTime, query.sort === 'oldest' ? 1 : -1, query)
    // Kept entries hold the records of when they were worked out: a like since then is in the current one.
    const items = page.items.map((entry) => ({ ...entry, post: this.posts.get(entry.post._id) ?? entry.post }))
    return { items, nextCursor: page.nextCursor }
  }

  /**
   * Every repost a feed shows, in ascending order. Each post's first repost by one of the authors counts,
   * unless one of them wrote it or it is of an audience that does not travel.
   */
  #feedReposts(authors: Authors, hide: readonly string[]): readonly FeedRepost[] {
    const hidden = new Set(hide)
    const first = new Map<string, FeedRepost>()
    for (const by of authors.ids) {
      if (hidden.has(by)) continue
      for (const [postId, at] of this.#repostsBy.get(by) ?? []) {
        const post = this.posts.get(postId)
        if (!post || authors.ids.has(post.authorId) || hidden.has(post.authorId) || !travels(post)) continue
        const seen = first.get(postId)
        if (!seen || at < seen.at || (at === seen.at && by < seen.by)) first.set(postId, { post, by, at })
      }
    }
    return [...first.values()].sort(byRepostTime.compare)
  }

  #indexReposts(post: PostRecord, add: boolean): void {
    if (!post.reposts?.length) return
    for (const { userId, at } of post.reposts) {
      let mine = this.#repostsBy.get(userId)
      if (add) {
        if (!mine) this.#repostsBy.set(userId, (mine = new Map<string, string>()))
        mine.set(post._id, at)
      } else {
        mine?.delete(post._id)
        if (mine?.size === 0) this.#repostsBy.delete(userId)
      }
    }
  }

  #listOf(authorId: string): SortedList<PostRecord> {
    let list = this.#postsByAuthor.get(authorId)
    if (!list) this.#postsByAuthor.set(authorId, (list = new SortedList(byTime)))
    return list
  }

  /** A home feed's authors: the user and whom they follow, kept until their follows change. */
  #feedOf(userId: string): Authors {
    let authors = this.#feedAuthors.get(userId)
    if (!authors) {
      authors = this.#authorsOf([userId, ...(this.users.get(userId)?.following ?? NOBODY)])
      this.#feedAuthors.set(userId, authors)
    }
    return authors
  }

  /**
   * The user and whom they follow, as the set held for their home feed: what an audience test asks of a
   * `followers` post (the user's own are theirs to read in any case).
   */
  feedAuthorSet(userId: string): ReadonlySet<string> {
    return this.#feedOf(userId).ids
  }

  #authorsOf(authorIds: readonly string[]): Authors
  #authorsOf(authorIds: readonly string[] | undefined): Authors | undefined
  #authorsOf(authorIds: readonly string[] | undefined): Authors | undefined {
    if (authorIds === undefined) return undefined
    const ids = new Set(authorIds)
    return { ids, lists: [...ids].map((id) => this.#listOf(id)) }
  }

  /** Only a pending signup is ever deleted: it follows, is followed by and made nothing. */
  deleteUser(id: string): void {
    const user = this.users.get(id)
    if (!user) return
    this.users.delete(id)
    this.#feedAuthors.delete(id)
    this.usersByName.delete(usernameKey(user.username))
    if (user.remote) this.usersByActor.delete(user.remote.actorId)
    this.usernameSkeletons.delete(usernameSkeleton(user.username))
    this.#staff.delete(id)
    this.#pending.delete(id)
    this.#suspended.delete(id)
    this.#indexBlocks(id, user.blocking ?? [], [])
    this.#blockedBy.delete(id)
    this.#postsByAuthor.delete(id)
    this.#usersByTime.remove(user)
    this.names.deleteUser(user)
  }

  /** The ids of the user's posts, newest first. */
  postIdsBy(authorId: string): string[] {
    return [...(this.#postsByAuthor.get(authorId)?.items ?? [])].reverse().map((post) => post._id)
  }

  /**
   * The posts of others the user likes, took a like back from, commented on, voted on a comment of or
   * reposted: a walk over every post, which only an account's deletion makes.
   */
  postsTouchedBy(userId: string): string[] {
    const ids: string[] = []
    for (const post of this.posts.values()) {
      if (post.authorId === userId) continue
      const touched =
        post.likedBy.includes(userId) ||
        post.dislikedBy.includes(userId) ||
        post.comments.some(
          (c) => c.authorId === userId || c.upvotedBy.includes(userId) || c.downvotedBy.includes(userId),
        ) ||
        post.reposts?.some((repost) => repost.userId === userId) === true
      if (touched) ids.push(post._id)
    }
    return ids
  }

  /** The user's comments, oldest first: a walk over every post, which only an export makes. */
  commentsBy(userId: string): AuthoredComment[] {
    const found: AuthoredComment[] = []
    for (const post of this.posts.values()) {
      for (const comment of post.comments) if (comment.authorId === userId) found.push({ postId: post._id, comment })
    }
    return found.sort((a, b) => order(a.comment.createdAt, b.comment.createdAt) || order(a.comment._id, b.comment._id))
  }

  /** Who mutes the user, timed-out mutes included: a walk over every user, for an account's deletion. */
  usersMuting(userId: string): string[] {
    const ids: string[] = []
    for (const user of this.users.values()) if (user.muting?.some((mute) => mute.userId === userId)) ids.push(user._id)
    return ids
  }

  /** Whom the user asked to follow and waits for: a walk over every user, for an account's deletion. */
  usersRequestedBy(userId: string): string[] {
    const ids: string[] = []
    for (const user of this.users.values()) if (user.followRequests?.includes(userId)) ids.push(user._id)
    return ids
  }

  /** Whether a post or a profile shows the media URL. */
  usesMedia(url: string): boolean {
    for (const post of this.posts.values()) {
      if (imageUrlsOf(post).includes(url) || post.card?.image === url) return true
    }
    for (const user of this.users.values()) if (user.avatarURL === url || user.bannerURL === url) return true
    for (const emoji of this.clientApps.customEmojis.values()) if (emoji.url === url) return true
    return this.moderation.openReportShows(url)
  }

  /** Signups waiting for approval, oldest first. */
  listPendingUsers(request: PageRequest): Page<UserRecord> {
    return pageOf(
      this.#usersByTime.items.filter((user) => user.pending),
      byJoined,
      1,
      request,
    )
  }

  /** Everyone whose suspension is in force at `at`. */
  suspended(at: string): { userId: string; until: string | null }[] {
    const found: { userId: string; until: string | null }[] = []
    for (const [userId, until] of this.#suspended) if (until === null || until > at) found.push({ userId, until })
    return found
  }

  /** Whom a list of people leaves out besides `hide`: the signups waiting for approval. */
  withPending(hide: readonly string[] = []): readonly string[] {
    return this.#pending.size === 0 ? hide : [...hide, ...this.#pending]
  }

  staffIds(): string[] {
    return [...this.#staff]
  }

  #indexBlocks(blockerId: string, before: readonly string[], after: readonly string[]): void {
    for (const id of before) {
      const blockers = this.#blockedBy.get(id)
      blockers?.delete(blockerId)
      if (blockers?.size === 0) this.#blockedBy.delete(id)
    }
    for (const id of after) {
      const blockers = this.#blockedBy.get(id)
      if (blockers) blockers.add(blockerId)
      else this.#blockedBy.set(id, new Set([blockerId]))
    }
  }

  #indexUser(user: UserRecord): void {
    if (user.role === 'moderator' || user.role === 'admin') this.#staff.add(user._id)
    else this.#staff.delete(user._id)
    if (user.suspension) this.#suspended.set(user._id, user.suspension.until)
    else this.#suspended.delete(user._id)
    if (user.pending) this.#pending.add(user._id)
    else this.#pending.delete(user._id)
    this.users.set(user._id, user)
    this.usersByName.set(usernameKey(user.username), user)
    if (user.remote) this.usersByActor.set(user.remote.actorId, user)
    this.usernameSkeletons.add(usernameSkeleton(user.username))
  }
}
