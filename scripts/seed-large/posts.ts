import type { CommentRecord, PostRecord } from '../../server/store/types.js'
import type { DraftUser, People } from './people.js'
import type { ProgressBar } from './progress.js'
import { longTail, pick, randomInt, seededUuid, type Random } from './random.js'
import { postText, sentence } from './words.js'

const DAY = 86_400_000
/**
 * With audiences, the share of posts that are unlisted and the share for followers only: a third of the
 * posts not public in all. Direct messages are left out: they live in conversations and never in a feed.
 */
const UNLISTED = 1 / 6
const FOLLOWERS_ONLY = 1 / 6
const MINUTE = 60_000
/** The share of posts, and of comments, that mention someone their writer follows. */
const MENTIONS = 0.1

/** Now and then `@someone` the writer follows, before the text, as a reply or a shout-out is written. */
function mentioning(random: Random, writer: DraftUser, byId: Map<string, DraftUser>, text: string): string {
  if (writer.following.length === 0 || random() >= MENTIONS) return text
  const someone = byId.get(pick(random, writer.following)) as DraftUser
  return `@${someone.username} ${text}`
}

/** Someone who reacts to a post: mostly the author's followers, sometimes anyone. */
function reactor(
  random: Random,
  author: DraftUser,
  users: readonly DraftUser[],
  byId: Map<string, DraftUser>,
): DraftUser {
  if (author.followers.length > 0 && random() < 0.75) return byId.get(pick(random, author.followers)) as DraftUser
  return pick(random, users)
}

function distinctReactors(
  random: Random,
  count: number,
  author: DraftUser,
  users: readonly DraftUser[],
  byId: Map<string, DraftUser>,
): string[] {
  const ids = new Set<string>()
  for (let tries = 0; ids.size < count && tries < count * 4; tries++) ids.add(reactor(random, author, users, byId)._id)
  return [...ids]
}

function commentsOf(
  random: Random,
  author: DraftUser,
  created: number,
  now: number,
  users: readonly DraftUser[],
  byId: Map<string, DraftUser>,
): CommentRecord[] {
  const count = Math.min(20, longTail(random, 1.2))
  let at = created
  return Array.from({ length: count }, () => {
    at = Math.min(now, at + (1 + randomInt(random, 600)) * MINUTE)
    const votes = distinctReactors(random, Math.min(10, longTail(random, 0.6)), author, users, byId)
    const up = votes.filter(() => random() < 0.85)
    const iso = new Date(at).toISOString()
    const writer = reactor(random, author, users, byId)
    return {
      _id: seededUuid(random),
      authorId: writer._id,
      text: mentioning(random, writer, byId, sentence(random, 2, 12)),
      upvotedBy: up,
      downvotedBy: votes.filter((id) => !up.includes(id)),
      createdAt: iso,
      updatedAt: iso,
    }
  })
}

/**
 * `count` posts over the last 90 days, oldest first, one at a time, so a loader can write them as they come
 * instead of holding a million. Authors follow a power law of their own (a few post a lot), popular
 * authors get more likes, and most reactions come from the author's followers.
 */
export function* postStream(
  random: Random,
  people: People,
  count: number,
  now: number,
  audiences?: Random,
): Generator<PostRecord> {
  const { users, activity } = people
  const byId = new Map(users.map((user) => [user._id, user]))
  const byUsername = new Map(users.map((user) => [user.username, user._id]))
  const times = Array.from({ length: count }, () => now - MINUTE - Math.floor(random() * 90 * DAY)).sort(
    (a, b) => a - b,
  )

  for (const created of times) {
    const author = users[activity.sample(random)] as DraftUser
    const reach = 1 + Math.log2(1 + author.followers.length) / 2
    const likedBy = distinctReactors(random, Math.min(users.length, longTail(random, 2.5 * reach)), author, users, byId)
    const disliker = random() < 0.03 ? reactor(random, author, users, byId)._id : undefined
    const comments = commentsOf(random, author, created, now, users, byId)
    const edited = random() < 0.05 ? Math.min(now, created + randomInt(random, 120) * MINUTE) : created
    const _id = seededUuid(random)
    const content = mentioning(random, author, byId, postText(random)).slice(0, 500)
    yield {
      _id,
      authorId: author._id,
      content,
      ...(audiences ? audienceOf(audiences(), content, byUsername) : {}),
      mediaUrl: '',
      type: '',
      createdAt: new Date(created).toISOString(),
      updatedAt: new Date(edited).toISOString(),
      likedBy,
      dislikedBy: disliker !== undefined && !likedBy.includes(disliker) ? [disliker] : [],
      comments,
      likeCount: likedBy.length,
      commentCount: comments.length,
    }
  }
}

/**
 * A post's audience from a draw in [0, 1), drawn apart from everything else so the same seed gives the same
 * posts with audiences or without. A followers-only post keeps the person it mentions, as a written one does.
 */
function audienceOf(draw: number, content: string, byUsername: Map<string, string>): Partial<PostRecord> {
  if (draw < UNLISTED) return { visibility: 'unlisted' }
  if (draw >= UNLISTED + FOLLOWERS_ONLY) return {}
  const mentioned = /^@(\S+) /.exec(content)?.[1]
  const id = mentioned === undefined ? undefined : byUsername.get(mentioned)
  return { visibility: 'followers', ...(id ? { addressed: [id] } : {}) }
}

/** A few bookmarks for everyone, drawn once every post exists, into each user's `bookmarks`. */
export function addBookmarks(random: Random, users: readonly DraftUser[], postIds: readonly string[]): void {
  for (const user of users) {
    const wanted = Math.min(postIds.length, longTail(random, 2))
    const marked = new Set<string>()
    for (let tries = 0; marked.size < wanted && tries < wanted * 3; tries++) marked.add(pick(random, postIds))
    user.bookmarks.push(...marked)
  }
}

/** The whole data set's posts in memory, for the embedded store's files, with everyone's bookmarks added. */
export function generatePosts(
  random: Random,
  people: People,
  count: number,
  now: number,
  progress: ProgressBar,
  audiences?: Random,
): PostRecord[] {
  progress.start('posts', count)
  const posts: PostRecord[] = []
  for (const post of postStream(random, people, count, now, audiences)) {
    posts.push(post)
    progress.tick()
  }
  progress.finish()
  addBookmarks(
    random,
    people.users,
    posts.map((post) => post._id),
  )
  return posts
}
