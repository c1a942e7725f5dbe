import type { Database, PostRecord, UserRecord } from '../../server/store/types.js'

/** Small stored records for store and service tests, which need no password hashing or seeded images. */
const at = '2026-01-01T00:00:00.000Z'

export const userRecord = (i: number): UserRecord => ({
  _id: `u${i}`,
  username: `user_${i}`,
  firstName: 'U',
  lastName: String(i),
  email: `u${i}@example.com`,
  passwordHash: 'scrypt$16384$8$1$x$y',
  avatarURL: '/avatars/avatar-1.svg',
  bio: '',
  website: '',
  createdAt: at,
  updatedAt: at,
  bookmarks: [],
  following: [],
  followers: [],
  tokenVersion: 0,
})

export const postRecord = (i: number, authorId: string): PostRecord => ({
  _id: `p${i}`,
  authorId,
  content: `post ${i}`,
  mediaUrl: '',
  type: '',
  createdAt: at,
  updatedAt: at,
  likedBy: [],
  dislikedBy: [],
  comments: [],
  likeCount: 0,
  commentCount: 0,
})

/** A database of `users` users (u0, u1...) and `posts` posts spread over them. */
export const smallDatabase = (users: number, posts: number): Database => ({
  version: 1,
  users: Array.from({ length: users }, (_, i) => userRecord(i)),
  posts: Array.from({ length: posts }, (_, i) => postRecord(i, `u${i % users}`)),
})
