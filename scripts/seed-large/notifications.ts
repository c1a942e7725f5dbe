import { mentionsOf } from '../../server/store/text-terms.js'
import type { NotificationRecord, NotificationType, PostRecord } from '../../server/store/types.js'
import { NAMED_ACCOUNTS, type DraftUser } from './people.js'
import { longTail, seededRandom, seededUuid, type Random } from './random.js'

const MINUTE = 60_000
/** A like comes this long after its post, on average: most within hours, a few days later. */
const LIKE_DELAY_MINUTES = 180
/** The named accounts last opened their notifications this long ago: what came before is read. */
const LAST_READ_MS = 6 * 60 * MINUTE
/** Added to the data set's seed for the times and ids drawn here, so drawing them leaves the posts as they were. */
const SEED_OFFSET = 0x6e6f7469

/**
 * The notifications the server would have made for the generated actions (server/services/notifier.ts):
 * a like of a post, a comment on it, a mention in a post or a comment and a follow each tell the
 * account acted on, never the actor, and a comment's mention never the post's author (the comment told
 * them already). Only the named accounts get theirs: they are the ones anyone signs in as, and a million
 * posts' likes would add millions of rows nobody reads to the load.
 */
export class NotificationMaker {
  readonly #random: Random
  readonly #recipients: ReadonlySet<string>
  /** Lower-case username → id, to find whom an `@name` names as the server does. */
  readonly #idOfName: ReadonlyMap<string, string>
  readonly #readBefore: string
  readonly #now: number
  /** Unread notifications by recipient, of everything made so far. */
  readonly unread = new Map<string, number>()

  constructor(seed: number, users: readonly DraftUser[], now: number) {
    this.#random = seededRandom(seed + SEED_OFFSET)
    const named = new Set(NAMED_ACCOUNTS.map((account) => account.username))
    this.#recipients = new Set(users.filter((user) => named.has(user.username)).map((user) => user._id))
    this.#idOfName = new Map(users.map((user) => [user.username.toLowerCase(), user._id]))
    this.#readBefore = new Date(now - LAST_READ_MS).toISOString()
    this.#now = now
  }

  /** Each follow of a named account, at a time after both accounts existed. */
  ofFollows(users: readonly DraftUser[]): NotificationRecord[] {
    const made: NotificationRecord[] = []
    const named = new Map(users.filter((user) => this.#recipients.has(user._id)).map((user) => [user._id, user]))
    for (const user of users) {
      for (const followeeId of user.following) {
        const followee = named.get(followeeId)
        if (!followee) continue
        const since = Date.parse(user.createdAt > followee.createdAt ? user.createdAt : followee.createdAt)
        const at = since + Math.floor(this.#random() * (this.#now - since))
        this.#make(made, 'follow', followeeId, user._id, at)
      }
    }
    return made
  }

  /** What the post's likes, its comments and the mentions in it and in them told the named accounts. */
  ofPost(post: PostRecord): NotificationRecord[] {
    const made: NotificationRecord[] = []
    const created = Date.parse(post.createdAt)
    for (const mentioned of this.#mentionedIn(post.content)) {
      this.#make(made, 'mention', mentioned, post.authorId, created, post._id)
    }
    if (this.#recipients.has(post.authorId)) {
      for (const liker of post.likedBy) {
        const at = Math.min(this.#now, created + longTail(this.#random, LIKE_DELAY_MINUTES) * MINUTE)
        this.#make(made, 'like', post.authorId, liker, at, post._id)
      }
    }
    for (const comment of post.comments) {
      const at = Date.parse(comment.createdAt)
      this.#make(made, 'comment', post.authorId, comment.authorId, at, post._id, comment._id)
      for (const mentioned of this.#mentionedIn(comment.text)) {
        if (mentioned !== post.authorId)
          this.#make(made, 'mention', mentioned, comment.authorId, at, post._id, comment._id)
      }
    }
    return made
  }

  /** The people a text mentions, by id: each `@name` is the first of its readings that names someone. */
  #mentionedIn(text: string): Set<string> {
    const ids = new Set<string>()
    for (const candidates of mentionsOf(text)) {
      const id = candidates.map((name) => this.#idOfName.get(name)).find((found) => found !== undefined)
      if (id !== undefined) ids.add(id)
    }
    return ids
  }

  #make(
    made: NotificationRecord[],
    type: NotificationType,
    recipientId: string,
    actorId: string,
    at: number,
    postId?: string,
    commentId?: string,
  ): void {
    if (actorId === recipientId || !this.#recipients.has(recipientId)) return
    const createdAt = new Date(at).toISOString()
    const read = createdAt < this.#readBefore
    if (!read) this.unread.set(recipientId, (this.unread.get(recipientId) ?? 0) + 1)
    made.push({
      _id: seededUuid(this.#random),
      type,
      recipientId,
      actorId,
      ...(postId !== undefined ? { postId } : {}),
      ...(commentId !== undefined ? { commentId } : {}),
      createdAt,
      read,
    })
  }
}
