import { PRESET_AVATARS } from '../schemas/media.js'
import type { Comment, Post } from '../schemas/posts.js'
import type { User, UserSummary } from '../schemas/users.js'
import type { CommentRecord, PostRecord, StoreReader, UserRecord, UserSummaryRecord } from '../store/types.js'

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

/** A view kept with the user records it was drawn from: valid while each still shows the same summary. */
interface CachedPost {
  view: Post
  ids: readonly string[]
  users: readonly (UserSummaryRecord | undefined)[]
}

/**
 * Views of unchanged posts are reused: records are immutable, so a post record always gives the same view
 * until one of the people it shows changes their name or avatar. Feeds read the same posts over and over,
 * and building a view (every like and comment as a user summary) is most of what a read costs.
 */
const postCache = new WeakMap<PostRecord, CachedPost>()

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

/** The post as clients see it. The result is frozen and may be shared between requests. */
export function toPost(post: PostRecord, users: UserLookup): Post {
  const cached = postCache.get(post)
  if (cached && cached.ids.every((id, i) => sameSummary(users.get(id), cached.users[i]))) return cached.view
  const ids = [...mentionedIn([post])]
  const view = deepFreeze(buildPost(post, users))
  postCache.set(post, { view, ids, users: ids.map((id) => users.get(id)) })
  return view
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
 * Views of several posts. When every post has a kept view, checking that its people are unchanged needs
 * only their current records, fetched in one call in the order the views were made with; the lookup
 * map a fresh view needs is built only when some view has to be made.
 */
export async function postViews(store: StoreReader, posts: readonly PostRecord[]): Promise<Post[]> {
  const kept = posts.map((post) => postCache.get(post))
  if (kept.every((entry) => entry !== undefined)) {
    const current = await store.getUserSummaries(kept.flatMap((entry) => entry.ids))
    let at = 0
    const valid = kept.every((entry) => entry.users.every((user) => sameSummary(current[at++], user)))
    // Fewer records than ids means someone shown is gone: the slow path below works out who.
    if (valid && at === current.length) return kept.map((entry) => entry.view)
  }
  const users = await usersOfPosts(store, posts)
  return posts.map((post) => toPost(post, users))
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
