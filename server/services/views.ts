import { PRESET_AVATARS } from '../schemas/media.js'
import type { Comment, Post } from '../schemas/posts.js'
import type { User, UserSummary } from '../schemas/users.js'
import type { CommentRecord, PostRecord, StoreReader, UserRecord, UserSummaryRecord } from '../store/types.js'
import { BoundedCache } from './bounded-cache.js'

/**
 * Records turned into the shapes the API answers with (docs/api-contract.md §2). Names and avatars
 * always come from the current profile.
 */
export type UserLookup = ReadonlyMap<string, UserSummaryRecord>

export function summaryOf(user: UserSummaryRecord): UserSummary {
  return {
    _id: user._id,
    username: user.username,
    firstName: user.firstName,
    lastName: user.lastName,
    avatarURL: user.avatarURL,
  }
}

/** Users are never deleted through the API, but a record edited by hand must not break every list. */
function summaryById(id: string, users: UserLookup): UserSummary {
  const user = users.get(id)
  return user
    ? summaryOf(user)
    : { _id: id, username: 'unknown', firstName: 'Unknown', lastName: 'user', avatarURL: PRESET_AVATARS[0] }
}

const summaries = (ids: readonly string[], users: UserLookup) => ids.map((id) => summaryById(id, users))

/**
 * `self` is true only when the record is the caller's own: only then do email and bookmarks show,
 * the bookmarks being the posts `bookmarks` holds (see ownBookmarks).
 */
export function toUser(user: UserRecord, users: UserLookup, self: boolean, bookmarks: readonly Post[] = []): User {
  return {
    _id: user._id,
    username: user.username,
    firstName: user.firstName,
    lastName: user.lastName,
    ...(self ? { email: user.email } : {}),
    avatarURL: user.avatarURL,
    bio: user.bio,
    website: user.website,
    portfolio: user.website,
    avatar: user.avatarURL,
    createdAt: user.createdAt,
    updatedAt: user.updatedAt,
    bookmarks: self ? [...bookmarks] : [],
    following: summaries(user.following, users),
    followers: summaries(user.followers, users),
  }
}

export function toComment(comment: CommentRecord, users: UserLookup): Comment {
  const { _id: _authorId, ...author } = summaryById(comment.authorId, users)
  return {
    _id: comment._id,
    ...author,
    text: comment.text,
    votes: { upvotedBy: summaries(comment.upvotedBy, users), downvotedBy: summaries(comment.downvotedBy, users) },
    createdAt: comment.createdAt,
    updatedAt: comment.updatedAt,
  }
}

function buildPost(post: PostRecord, users: UserLookup): Post {
  const { _id: _authorId, ...author } = summaryById(post.authorId, users)
  return {
    _id: post._id,
    id: post._id,
    ...author,
    content: post.content,
    mediaUrl: post.mediaUrl,
    type: post.type,
    ...(post.mediaAlt !== undefined ? { mediaAlt: post.mediaAlt } : {}),
    ...(post.mediaWidth !== undefined && post.mediaHeight !== undefined
      ? { mediaWidth: post.mediaWidth, mediaHeight: post.mediaHeight }
      : {}),
    createdAt: post.createdAt,
    updatedAt: post.updatedAt,
    likes: {
      likeCount: post.likedBy.length,
      likedBy: summaries(post.likedBy, users),
      dislikedBy: summaries(post.dislikedBy, users),
    },
    comments: post.comments.map((comment) => toComment(comment, users)),
  }
}

/**
 * A view kept with what it was drawn from: the post record, and the summary of each person it shows.
 * `peopleVersion` is the store's at the time those summaries were read, when the store has one.
 */
interface CachedPost {
  record: PostRecord
  /** The record as JSON, worked out only when another object with the same id has to be compared. */
  recordJson: string | undefined
  ids: readonly string[]
  users: readonly (UserSummaryRecord | undefined)[]
  peopleVersion: number | undefined
  view: Post
  /** The view's bytes in a reply, once a route has encoded them (see keptJson). */
  json: Buffer | undefined
}

/**
 * Views of posts, by post id, kept while their record and their people are unchanged. Feeds read the same
 * posts over and over, and building a view (every like and comment as a user summary) and its JSON is
 * most of what a read costs. An entry is used only for a record with the same content (the same object,
 * as the embedded store hands out, or one whose JSON is the same, as PostgreSQL's new objects are), so any
 * write to a post, a like, a comment or a vote, makes its next read draw a fresh view; and only while the
 * people it shows are unchanged (see postViews).
 */
const MAX_KEPT_VIEWS = 10_000
const postCache = new BoundedCache<string, CachedPost>(MAX_KEPT_VIEWS)

/** The kept entry for exactly this record's content, if any. */
function keptFor(post: PostRecord): CachedPost | undefined {
  const entry = postCache.get(post._id)
  if (!entry || entry.record === post) return entry
  entry.recordJson ??= JSON.stringify(entry.record)
  if (entry.recordJson !== JSON.stringify(post)) return undefined
  entry.record = post
  return entry
}

const sameSummary = (a: UserSummaryRecord | undefined, b: UserSummaryRecord | undefined) =>
  a === b ||
  (a !== undefined &&
    b !== undefined &&
    a.username === b.username &&
    a.firstName === b.firstName &&
    a.lastName === b.lastName &&
    a.avatarURL === b.avatarURL)

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value)
    for (const child of Object.values(value)) deepFreeze(child)
  }
  return value
}

/**
 * The post as clients see it, drawn with `users`, which holds everyone it shows. The result is frozen
 * and may be shared between requests. `peopleVersion` is the store's, read before `users` was.
 */
export function toPost(post: PostRecord, users: UserLookup, peopleVersion?: number): Post {
  const kept = keptFor(post)
  if (kept && kept.ids.every((id, i) => sameSummary(users.get(id), kept.users[i]))) {
    if (peopleVersion !== undefined) kept.peopleVersion = peopleVersion
    return kept.view
  }
  const ids = [...mentionedIn([post])]
  const view = deepFreeze(buildPost(post, users))
  const entry: CachedPost = {
    record: post,
    recordJson: undefined,
    ids,
    users: ids.map((id) => users.get(id)),
    peopleVersion,
    view,
    json: undefined,
  }
  postCache.set(post._id, entry)
  return view
}

/**
 * The bytes of a view in a reply: those kept with it when `view` is the very object the cache handed
 * out, so that they were made by `encode` from it; otherwise freshly encoded.
 */
export function keptJson(view: Post, encode: (view: Post) => Buffer): Buffer {
  const entry = postCache.peek(view._id)
  if (entry?.view !== view) return encode(view)
  return (entry.json ??= encode(view))
}

/** Every user id a set of posts shows: authors, likes, comments and votes. */
function mentionedIn(posts: readonly PostRecord[]): Set<string> {
  const ids = new Set<string>()
  for (const post of posts) {
    ids.add(post.authorId)
    for (const id of post.likedBy) ids.add(id)
    for (const id of post.dislikedBy) ids.add(id)
    for (const comment of post.comments) {
      ids.add(comment.authorId)
      for (const id of comment.upvotedBy) ids.add(id)
      for (const id of comment.downvotedBy) ids.add(id)
    }
  }
  return ids
}

/** Every user a set of posts mentions, fetched in one call. */
export async function usersOfPosts(store: StoreReader, posts: readonly PostRecord[]): Promise<UserLookup> {
  return lookup(store, mentionedIn(posts))
}

export async function usersOfUsers(store: StoreReader, people: readonly UserRecord[]): Promise<UserLookup> {
  const ids = new Set<string>()
  for (const user of people) {
    ids.add(user._id)
    for (const id of user.following) ids.add(id)
    for (const id of user.followers) ids.add(id)
  }
  return lookup(store, ids)
}

async function lookup(store: StoreReader, ids: Set<string>): Promise<UserLookup> {
  const found = await store.getUserSummaries([...ids])
  return new Map(found.map((user) => [user._id, user]))
}

/**
 * Views of several posts. Kept views are used when nobody they show has changed: at once when the store
 * says no summary has changed since they were drawn, otherwise after comparing them with the current
 * summaries, fetched in one call in the order the views were made with. The lookup map a fresh view
 * needs is built only when some view has to be made.
 */
export async function postViews(store: StoreReader, posts: readonly PostRecord[]): Promise<Post[]> {
  // Read before any summary: a change after it shows as a different version on the next read.
  const version = store.peopleVersion?.()
  const kept = posts.map(keptFor)
  if (kept.every((entry) => entry !== undefined)) {
    if (version !== undefined && kept.every((entry) => entry.peopleVersion === version))
      return kept.map((entry) => entry.view)
    const current = await store.getUserSummaries(kept.flatMap((entry) => entry.ids))
    let at = 0
    const valid = kept.every((entry) => entry.users.every((user) => sameSummary(current[at++], user)))
    // Fewer records than ids means someone shown is gone: the slow path below works out who.
    if (valid && at === current.length) {
      for (const entry of kept) entry.peopleVersion = version
      return kept.map((entry) => entry.view)
    }
  }
  const users = await usersOfPosts(store, posts)
  return posts.map((post) => toPost(post, users, version))
}

/** A user's own bookmarks as full current posts, newest bookmark first, at most as many as an unpaged list holds. */
export async function ownBookmarks(store: StoreReader, userId: string): Promise<Post[]> {
  const { items } = await store.listBookmarks(userId, { limit: MAX_OWN_BOOKMARKS })
  return postViews(store, items)
}

const MAX_OWN_BOOKMARKS = 1000

export async function userView(store: StoreReader, user: UserRecord, self: boolean): Promise<User> {
  const [lookup, bookmarks] = await Promise.all([
    usersOfUsers(store, [user]),
    self ? ownBookmarks(store, user._id) : [],
  ])
  return toUser(user, lookup, self, bookmarks)
}
