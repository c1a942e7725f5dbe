import { randomUUID } from 'node:crypto'
import type { CommentRecord, Database, PostRecord, UserRecord } from '../../server/store/types.js'

/**
 * A database with uuid ids (as PostgreSQL stores them) that exercises every order a read must keep:
 * accounts and posts created at the same instant (ordered by id), like counts that tie, follows made in
 * an order that is not account order, likes, dislikes, comments with votes, bookmarks, and posts with
 * and without image details.
 */
export function uuidDatabase({ users = 8, posts = 30 } = {}): Database {
  const day = (n: number) => new Date(Date.UTC(2026, 0, 1 + n)).toISOString()
  const people: UserRecord[] = Array.from({ length: users }, (_, i) => ({
    _id: randomUUID(),
    username: `Person_${i}`,
    firstName: 'Person',
    lastName: String(i),
    email: `p${i}@example.com`,
    passwordHash: `scrypt$16384$8$1$salt${i}$hash${i}`,
    avatarURL: '/avatars/avatar-1.svg',
    bio: `bio ${i}`,
    website: '',
    // Two accounts share each day, so the id decides between them.
    createdAt: day(Math.floor(i / 2)),
    updatedAt: day(Math.floor(i / 2)),
    bookmarks: [],
    following: [],
    followers: [],
    tokenVersion: i % 3,
  }))
  const id = (i: number) => (people[i % users] as UserRecord)._id

  // Follows in the order they were made, each the last of both lists, as the store appends them.
  const following = new Map<string, string[]>(people.map((p) => [p._id, []]))
  const followers = new Map<string, string[]>(people.map((p) => [p._id, []]))
  const follows: [number, number][] = [
    [5, 0],
    [1, 0],
    [0, 5],
    [3, 0],
    [0, 1],
    [2, 1],
    [7, 0],
    [1, 2],
    [4, 1],
    [6, 5],
    [1, 5],
  ]
  for (const [a, b] of follows) {
    if (a >= users || b >= users) continue
    following.get(id(a))?.push(id(b))
    followers.get(id(b))?.push(id(a))
  }

  const records: PostRecord[] = Array.from({ length: posts }, (_, i) => {
    const createdAt = day(10 + Math.floor(i / 3)) // three posts to an instant
    const likers = Array.from({ length: i % 5 }, (_, k) => id(users - 1 - k))
    const dislikers = i % 4 === 0 && users > 5 ? [id(5)].filter((u) => !likers.includes(u)) : []
    const comments: CommentRecord[] = Array.from({ length: i % 3 }, (_, k) => ({
      _id: randomUUID(),
      authorId: id(i + k),
      text: `comment ${k} on ${i}`,
      upvotedBy: k === 0 ? [id(2), id(0)] : [],
      downvotedBy: k === 0 ? [id(3)] : [],
      createdAt: day(11 + i),
      updatedAt: day(12 + i),
    }))
    const image = i % 4 === 1
    return {
      _id: randomUUID(),
      authorId: id(i),
      content: `post ${i}`,
      mediaUrl: image ? `/media/${i}.png` : '',
      type: image ? 'image' : '',
      ...(image ? { mediaAlt: `picture ${i}` } : {}),
      ...(image && i % 8 === 1 ? { mediaWidth: 800, mediaHeight: 450 } : {}),
      createdAt,
      updatedAt: createdAt,
      likedBy: likers,
      dislikedBy: dislikers,
      comments,
      likeCount: likers.length,
      commentCount: comments.length,
    }
  })

  // Bookmarks in an order of their own, not the posts' order.
  const bookmarks = [7, 2, 11, 0, 5].filter((i) => i < posts).map((i) => (records[i] as PostRecord)._id)
  const all = people.map((person, i) => ({
    ...person,
    following: following.get(person._id) ?? [],
    followers: followers.get(person._id) ?? [],
    bookmarks: i === 0 ? bookmarks : i === 1 ? [...bookmarks].reverse().slice(0, 2) : [],
  }))
  return { version: 1, users: all, posts: records }
}
