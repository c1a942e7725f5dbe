import type { FeedSort } from '../schemas/posts.js'

/** Stored records are immutable: a change replaces the record, so reads can share them safely. */
export interface UserRecord {
  readonly _id: string
  readonly username: string
  readonly firstName: string
  readonly lastName: string
  readonly email: string
  /** `scrypt$N$r$p$salt$hash`, never sent to a client. */
  readonly passwordHash: string
  readonly avatarURL: string
  readonly bio: string
  readonly website: string
  readonly createdAt: string
  readonly updatedAt: string
  /** Post ids, oldest bookmark first. */
  readonly bookmarks: readonly string[]
  /** User ids; kept symmetric with the other users' `followers`. */
  readonly following: readonly string[]
  readonly followers: readonly string[]
  /** Raised on logout so that tokens issued before it stop working. */
  readonly tokenVersion: number
}

export interface CommentRecord {
  readonly _id: string
  readonly authorId: string
  readonly text: string
  readonly upvotedBy: readonly string[]
  readonly downvotedBy: readonly string[]
  readonly createdAt: string
  readonly updatedAt: string
}

export interface PostRecord {
  readonly _id: string
  readonly authorId: string
  readonly content: string
  readonly mediaUrl: string
  readonly type: string
  readonly createdAt: string
  readonly updatedAt: string
  /** likeCount is derived: it is always likedBy.length. */
  readonly likedBy: readonly string[]
  readonly dislikedBy: readonly string[]
  /** Oldest first. */
  readonly comments: readonly CommentRecord[]
}

export interface Database {
  version: 1
  users: UserRecord[]
  posts: PostRecord[]
}

export interface PageRequest {
  limit?: number
  cursor?: string
}

export interface Page<T> {
  items: T[]
  /** Null at the end. */
  nextCursor: string | null
}

export interface PostQuery extends PageRequest {
  /** Only posts by these authors; all posts when absent. */
  authorIds?: readonly string[]
  sort: FeedSort
}

export interface StoreReader {
  getUser(id: string): Promise<UserRecord | undefined>
  /** Case-insensitive, as usernames are unique without regard to case. */
  getUserByUsername(username: string): Promise<UserRecord | undefined>
  /** In the order asked; unknown ids are skipped. */
  getUsers(ids: readonly string[]): Promise<UserRecord[]>
  /** Oldest account first. */
  listUsers(page: PageRequest): Promise<Page<UserRecord>>
  getPost(id: string): Promise<PostRecord | undefined>
  getPosts(ids: readonly string[]): Promise<PostRecord[]>
  listPosts(query: PostQuery): Promise<Page<PostRecord>>
}

export interface StoreWriter extends StoreReader {
  putUser(user: UserRecord): Promise<void>
  putPost(post: PostRecord): Promise<void>
  deletePost(id: string): Promise<void>
}

/**
 * Persistence behind one narrow async interface. A transaction sees its own writes, applies all of
 * them or none, and resolves only once its changes are on disk.
 */
export interface Store extends StoreReader {
  transaction<T>(work: (tx: StoreWriter) => Promise<T>): Promise<T>
  close(): Promise<void>
}
