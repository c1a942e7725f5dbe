import { randomUUID } from 'node:crypto'
import type { MediaStorage } from '../media/media-storage.js'
import { PRESET_AVATARS } from '../schemas/media.js'
import { DEFAULT_PASSWORD_HASH_COST, hashPassword } from '../services/passwords.js'
import type { CommentRecord, Database, PostRecord, UserRecord } from '../store/types.js'
import { SEED_POSTS, SEED_USERS } from './content.js'
import { gradientPng } from './png.js'

const IMAGES = [
  { from: [240, 170, 90], to: [150, 70, 40] },
  { from: [40, 70, 140], to: [230, 120, 90] },
  { from: [90, 160, 140], to: [30, 60, 80] },
] as const

const IMAGE_WIDTH = 800
const IMAGE_HEIGHT = 450

/** Builds the first database, storing the seeded posts' images where uploads go (served at /media/ from there). */
export async function buildSeed(
  media: MediaStorage,
  { now = Date.now(), passwordHashCost = DEFAULT_PASSWORD_HASH_COST } = {},
): Promise<Database> {
  const imageUrls = await Promise.all(
    IMAGES.map(async (image, i) => {
      const name = `${randomUUID()}.png`
      await media.put(name, gradientPng(IMAGE_WIDTH, IMAGE_HEIGHT, image.from, image.to, i + 3))
      return `/media/${name}`
    }),
  )

  const ids = new Map(SEED_USERS.map((user) => [user.username, randomUUID()]))
  const idOf = (username: string) => ids.get(username) as string
  const iso = (ms: number) => new Date(ms).toISOString()

  const users: UserRecord[] = await Promise.all(
    SEED_USERS.map(async (seed) => {
      const createdAt = iso(now - seed.daysAgo * 86_400_000)
      return {
        _id: idOf(seed.username),
        username: seed.username,
        firstName: seed.firstName,
        lastName: seed.lastName,
        email: seed.email,
        passwordHash: await hashPassword(seed.password, passwordHashCost),
        avatarURL: PRESET_AVATARS[seed.avatar],
        bio: seed.bio,
        website: seed.website,
        createdAt,
        updatedAt: createdAt,
        bookmarks: [],
        following: seed.follows.map(idOf),
        followers: SEED_USERS.filter((other) => other.follows.includes(seed.username)).map((other) =>
          idOf(other.username),
        ),
        tokenVersion: 0,
      }
    }),
  )

  const posts: PostRecord[] = SEED_POSTS.map((seed) => {
    const created = now - seed.hoursAgo * 3_600_000
    const comments: CommentRecord[] = seed.comments.map((comment) => ({
      _id: randomUUID(),
      authorId: idOf(comment.by),
      text: comment.text,
      upvotedBy: [],
      downvotedBy: [],
      createdAt: iso(created + comment.minutesAfter * 60_000),
      updatedAt: iso(created + comment.minutesAfter * 60_000),
    }))
    const mediaUrl = seed.image === undefined ? '' : (imageUrls[seed.image] as string)
    return {
      _id: randomUUID(),
      authorId: idOf(seed.by),
      content: seed.content,
      mediaUrl,
      type: mediaUrl ? 'image' : '',
      // Known sizes let a client keep the image's place before it loads, as uploads do.
      ...(mediaUrl ? { mediaWidth: IMAGE_WIDTH, mediaHeight: IMAGE_HEIGHT } : {}),
      createdAt: iso(created),
      updatedAt: iso(created),
      likedBy: seed.likedBy.map(idOf),
      dislikedBy: [],
      comments,
      likeCount: seed.likedBy.length,
      commentCount: comments.length,
    }
  })

  return { version: 1, users, posts }
}
