import type {
  CommentRecord,
  Database,
  MuteRecord,
  NotificationRecord,
  PostRecord,
  RepostRecord,
  UserRecord,
} from './types.js'

/**
 * One copy of every id a database read from disk mentions. JSON.parse makes a new string of every value it
 * reads, so a user's 36-character id is held again for each of their likes, follows, comments and votes
 * (about 56 bytes a copy, against 8 for a reference): those copies were about half of what the records of
 * a generated database of 100,000 posts held. Pointing each mention at the record's own `_id` leaves every
 * value as it was (strings compare by value) and makes memory grow with the records, not with how often
 * they are named.
 *
 * A time that repeats the one before it in a record (`updatedAt` of a record never changed since it was
 * written) shares that string too.
 *
 * The records are changed in place, so this is for records just parsed, which nothing else holds yet.
 */
export function shareStrings(database: Database): void {
  // Two pools, as each list names one kind: a like's user id is looked up among the users only, a small
  // table that stays in the cache, rather than among every post too.
  const user = poolOf(database.users)
  const post = poolOf(database.posts)
  const each = (list: readonly string[] | undefined, one: (text: string) => string) => {
    if (!list) return
    const writable = list as string[]
    for (let i = 0; i < writable.length; i++) writable[i] = one(writable[i] as string)
  }

  for (const record of database.users as Writable<UserRecord>[]) {
    each(record.following, user)
    each(record.followers, user)
    each(record.blocking, user)
    each(record.followRequests, user)
    each(record.bookmarks, post)
    each(record.likes, post)
    for (const mute of record.muting ?? []) (mute as Writable<MuteRecord>).userId = user(mute.userId)
    if (record.updatedAt === record.createdAt) record.updatedAt = record.createdAt
  }
  for (const record of database.posts as Writable<PostRecord>[]) {
    record.authorId = user(record.authorId)
    each(record.likedBy, user)
    each(record.dislikedBy, user)
    for (const comment of record.comments as Writable<CommentRecord>[]) {
      comment.authorId = user(comment.authorId)
      each(comment.upvotedBy, user)
      each(comment.downvotedBy, user)
      if (comment.updatedAt === comment.createdAt) comment.updatedAt = comment.createdAt
    }
    for (const repost of record.reposts ?? []) (repost as Writable<RepostRecord>).userId = user(repost.userId)
    if (record.updatedAt === record.createdAt) record.updatedAt = record.createdAt
  }
  for (const notification of (database.notifications ?? []) as Writable<NotificationRecord>[]) {
    notification.recipientId = user(notification.recipientId)
    notification.actorId = user(notification.actorId)
    if (notification.postId !== undefined) notification.postId = post(notification.postId)
  }
}

/**
 * The records' own ids, and a lookup that gives the copy a record holds of an id (or, for an id no record
 * has, the first copy met), so every later mention finds that one.
 */
function poolOf(records: readonly { _id: string }[]): (text: string) => string {
  const pool = new Map<string, string>()
  for (const { _id } of records) pool.set(_id, _id)
  return (text) => {
    const held = pool.get(text)
    if (held !== undefined) return held
    pool.set(text, text)
    return text
  }
}

type Writable<T> = { -readonly [K in keyof T]: T[K] }
