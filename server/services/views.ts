import { PRESET_AVATARS } from '../schemas/media.js'
import { DEFAULT_VISIBILITY } from '../../common/audience.js'
import type { Comment, Post } from '../schemas/posts.js'
import type { User, UserSummary } from '../schemas/users.js'
import type { CommentRecord, StoreReader, UserRecord, UserSummaryRecord } from '../store/types.js'

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
    ...(user.displayName ? { displayName: user.displayName } : {}),
    avatarURL: user.avatarURL,
  }
}

/** Users are never deleted through the API, but a record edited by hand must not break every list. */
export function summaryById(id: string, users: UserLookup): UserSummary {
  const user = users.get(id)
  return user
    ? summaryOf(user)
    : { _id: id, username: 'unknown', firstName: 'Unknown', lastName: 'user', avatarURL: PRESET_AVATARS[0] }
}

export const summaries = (ids: readonly string[], users: UserLookup) => ids.map((id) => summaryById(id, users))

/** Only the follows `users` holds: whom it leaves out (a suspended person) does not count (DECISIONS §11). */
const followsIn = (ids: readonly string[], users: UserLookup) =>
  ids.flatMap((id) => {
    const user = users.get(id)
    return user ? [summaryOf(user)] : []
  })

/**
 * `self` is true only when the record is the caller's own: only then do email and bookmarks show,
 * the bookmarks being the posts `bookmarks` holds (see ownBookmarks). `requested`: the caller waits on
 * their request to follow this user.
 */
export function toUser(
  user: UserRecord,
  users: UserLookup,
  self: boolean,
  bookmarks: readonly Post[] = [],
  requested = false,
): User {
  return {
    _id: user._id,
    username: user.username,
    firstName: user.firstName,
    lastName: user.lastName,
    ...(self
      ? {
          email: user.email,
          role: user.role ?? 'user',
          defaultVisibility: user.defaultVisibility ?? DEFAULT_VISIBILITY,
          altTextReminder: user.altTextReminder !== false,
        }
      : {}),
    displayName: user.displayName ?? '',
    avatarURL: user.avatarURL,
    bannerURL: user.bannerURL ?? '',
    bio: user.bio,
    website: user.website,
    locked: user.locked === true,
    quotePolicy: user.quotePolicy ?? 'anyone',
    ...(requested ? { requested: true as const } : {}),
    ...(user.remote ? { remote: true as const, url: user.remote.url } : {}),
    portfolio: user.website,
    avatar: user.avatarURL,
    createdAt: user.createdAt,
    updatedAt: user.updatedAt,
    bookmarks: self ? [...bookmarks] : [],
    following: followsIn(user.following, users),
    followers: followsIn(user.followers, users),
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
    replyTo: comment.replyTo ?? null,
  }
}

/** One person's summary: all a write needs of its author, without their follows and bookmarks. */
export async function summaryRecordOf(store: StoreReader, id: string): Promise<UserSummaryRecord | undefined> {
  const [user] = await store.getUserSummaries([id])
  return user
}

/** The current summaries of `ids`, by id, fetched in one call. */
export async function lookup(store: StoreReader, ids: Iterable<string>): Promise<UserLookup> {
  const found = await store.getUserSummaries([...ids])
  return new Map(found.map((user) => [user._id, user]))
}
