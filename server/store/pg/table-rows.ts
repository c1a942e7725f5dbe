import type { CommentRecord, PollRecord, PostRecord, UserRecord } from '../types.js'
import type { Queryable } from './connect.js'
import { searchTermsOf } from '../text-terms.js'
import { usernameKey, usernameSkeleton } from '../../usernames.js'
import { postTagRows } from './term-rows.js'
import { DEFAULT_VISIBILITY } from '../../../common/audience.js'
import { moreMediaJson, type MoreMediaJson } from './records.js'

/**
 * Records turned into table rows, column names as keys. Rows of the appended tables carry no `seq`
 * here: inserted as they come, each takes the next one by default, in row order; an import sets it.
 */
/** A jsonb column (a suspension) takes an object, which postgres.js serialises. */
type Row = Record<
  string,
  | string
  | number
  | boolean
  | null
  | readonly string[]
  | { readonly [key: string]: string | null }
  | PollJson
  | { readonly [key: string]: string | readonly string[] }
  | MoreMediaJson
>

/** A poll as the posts row keeps it: its votes are rows of poll_votes. */
type PollJson = Omit<PollRecord, 'voters'>

const pollJson = ({ voters: _voters, ...poll }: PollRecord): PollJson => poll

/** `lookAlike`: an account older than the refusal of look-alikes whose skeleton an earlier one holds (0003_username_keys). */
export const userRow = (user: UserRecord, followerCount: number, unreadNotifications = 0, lookAlike = false) => ({
  id: user._id,
  username: user.username,
  username_key: usernameKey(user.username),
  // A remote person's name is unique by its host: look-alike rules are for the names people pick here.
  username_skeleton: lookAlike || user.remote ? null : usernameSkeleton(user.username),
  first_name: user.firstName,
  last_name: user.lastName,
  email: user.email,
  password_hash: user.passwordHash,
  avatar_url: user.avatarURL,
  display_name: user.displayName || null,
  banner_url: user.bannerURL || null,
  default_visibility: user.defaultVisibility ?? DEFAULT_VISIBILITY,
  alt_text_reminder: user.altTextReminder !== false,
  quote_policy: user.quotePolicy ?? 'anyone',
  mail_alerts: [...(user.mailAlerts ?? [])],
  mailed_through: user.mailedThrough ?? null,
  locked: user.locked === true,
  bio: user.bio,
  website: user.website,
  created_at: user.createdAt,
  updated_at: user.updatedAt,
  token_version: user.tokenVersion,
  role: user.role ?? 'user',
  suspension: user.suspension ? { ...user.suspension } : null,
  pending: user.pending === true,
  follower_count: followerCount,
  unread_notifications: unreadNotifications,
  remote: user.remote ? { ...user.remote } : null,
})

/** `likeCount` is the number of likes the post keeps, which may be fewer than its record names (see postChildRows). */
export const postRow = (post: PostRecord, { likeCount, commentCount }: PostCounts) => ({
  id: post._id,
  author_id: post.authorId,
  content: post.content,
  media_url: post.mediaUrl,
  type: post.type,
  media_alt: post.mediaAlt ?? null,
  media_width: post.mediaWidth ?? null,
  media_height: post.mediaHeight ?? null,
  more_media: moreMediaJson(post.moreMedia),
  created_at: post.createdAt,
  updated_at: post.updatedAt,
  edited_at: post.editedAt ?? null,
  card: post.card ? { ...post.card } : null,
  imported_at: post.importedAt ?? null,
  like_count: likeCount,
  comment_count: commentCount,
  spoiler_text: post.spoilerText ?? null,
  poll: post.poll ? pollJson(post.poll) : null,
  quote_of: post.quoteOf ?? null,
  pinned_at: post.pinnedAt ?? null,
  visibility: post.visibility ?? DEFAULT_VISIBILITY,
  addressed: [...(post.addressed ?? [])],
  conversation_id: post.conversationId ?? null,
  in_reply_to: post.inReplyTo ?? null,
  remote: post.remote ? { ...post.remote } : null,
  search_words: searchTermsOf(post.content),
})

export interface ChildRows {
  tags: ReturnType<typeof postTagRows>
  reactions: { post_id: string; user_id: string; liked: boolean }[]
  comments: {
    id: string
    post_id: string
    author_id: string
    text: string
    created_at: string
    updated_at: string
    reply_to: string | null
  }[]
  votes: { comment_id: string; user_id: string; up: boolean }[]
  pollVotes: { post_id: string; user_id: string; choice: number }[]
  /** References to users that do not exist, and repeats, which the tables cannot hold: left out. */
  skipped: number
}

/** Ids in order, without repeats or ids `known` does not hold, counting what was left out. */
function keep(
  ids: readonly string[],
  known: (id: string) => boolean,
  taken: Set<string>,
  counter: { skipped: number },
): string[] {
  const kept: string[] = []
  for (const id of ids) {
    if (known(id) && !taken.has(id)) {
      taken.add(id)
      kept.push(id)
    } else {
      counter.skipped++
    }
  }
  return kept
}

/**
 * Blocks and mutes, one row each, as the blocks and mutes tables hold them (migration 7), and the follow
 * requests waiting (migration 21).
 */
export interface RelationRows {
  blocks: { blocker_id: string; blocked_id: string; created_at: string }[]
  mutes: { muter_id: string; muted_id: string; created_at: string; until: string | null }[]
  followRequests: { follower_id: string; followee_id: string; created_at: string }[]
}

/**
 * Whom `user` blocks and mutes, and who asks to follow them, oldest first as the record keeps them,
 * without themselves, repeats or people `known` does not hold. The embedded record keeps no date for any
 * of them, so `at` stands for it.
 */
export function relationRows(
  user: UserRecord,
  known: (id: string) => boolean,
  at: string,
  rows: RelationRows,
  counter: { skipped: number },
): void {
  for (const blocked_id of keep(user.blocking ?? [], known, new Set([user._id]), counter))
    rows.blocks.push({ blocker_id: user._id, blocked_id, created_at: at })
  const muting = user.muting ?? []
  const kept = new Set(
    keep(
      muting.map((mute) => mute.userId),
      known,
      new Set([user._id]),
      counter,
    ),
  )
  for (const mute of muting) {
    if (!kept.delete(mute.userId)) continue
    rows.mutes.push({ muter_id: user._id, muted_id: mute.userId, created_at: at, until: mute.until ?? null })
  }
  // A request beside a follow of the same two would be accepted already: the follow stands for it.
  const waiting = (id: string) => known(id) && !user.followers.includes(id)
  for (const follower_id of keep(user.followRequests ?? [], waiting, new Set([user._id]), counter))
    rows.followRequests.push({ follower_id, followee_id: user._id, created_at: at })
}

export interface PostCounts {
  likeCount: number
  commentCount: number
}

/**
 * A post's likes, dislikes, comments and votes, each list in its order; a like wins over a dislike by the
 * same user. Answers how many likes and comments were kept.
 */
export function postChildRows(post: PostRecord, knownUser: (id: string) => boolean, rows: ChildRows): PostCounts {
  rows.tags.push(...postTagRows(post))
  const reacted = new Set<string>()
  const liked = keep(post.likedBy, knownUser, reacted, rows)
  for (const user_id of liked) rows.reactions.push({ post_id: post._id, user_id, liked: true })
  for (const user_id of keep(post.dislikedBy, knownUser, reacted, rows))
    rows.reactions.push({ post_id: post._id, user_id, liked: false })
  const voters = post.poll?.voters ?? []
  const kept = new Set(
    keep(
      voters.map((vote) => vote.userId),
      knownUser,
      new Set(),
      rows,
    ),
  )
  for (const vote of voters) {
    if (kept.delete(vote.userId)) rows.pollVotes.push({ post_id: post._id, user_id: vote.userId, choice: vote.choice })
  }
  const before = rows.comments.length
  for (const comment of post.comments) commentRows(post._id, comment, knownUser, rows)
  return { likeCount: liked.length, commentCount: rows.comments.length - before }
}

/** A comment and its votes, each list in its order; nothing when its author is unknown. */
export function commentRows(
  postId: string,
  comment: CommentRecord,
  knownUser: (id: string) => boolean,
  rows: ChildRows,
): void {
  if (!knownUser(comment.authorId)) {
    rows.skipped++
    return
  }
  rows.comments.push({
    id: comment._id,
    post_id: postId,
    author_id: comment.authorId,
    text: comment.text,
    created_at: comment.createdAt,
    updated_at: comment.updatedAt,
    reply_to: comment.replyTo ?? null,
  })
  const voted = new Set<string>()
  for (const user_id of keep(comment.upvotedBy, knownUser, voted, rows))
    rows.votes.push({ comment_id: comment._id, user_id, up: true })
  for (const user_id of keep(comment.downvotedBy, knownUser, voted, rows))
    rows.votes.push({ comment_id: comment._id, user_id, up: false })
}

export const emptyChildRows = (): ChildRows => ({
  tags: [],
  reactions: [],
  comments: [],
  votes: [],
  pollVotes: [],
  skipped: 0,
})

/** The protocol's limit on one statement's parameters is 65,535. */
const MAX_PARAMETERS = 65_000

/** Inserts rows in their order, as few statements as the parameter limit allows. */
export async function insertRows(sql: Queryable, table: string, rows: readonly Row[]): Promise<void> {
  const first = rows[0]
  if (!first) return
  const columns = Object.keys(first)
  const size = Math.floor(MAX_PARAMETERS / columns.length)
  for (let start = 0; start < rows.length; start += size) {
    await sql`INSERT INTO ${sql(table)} ${sql(rows.slice(start, start + size), columns)}`
  }
}

/**
 * The conversations of direct posts the embedded store keeps on its users' records, as rows: each
 * conversation once, each membership, and each unread post that is kept (`postIds`).
 */
export function conversationRows(users: readonly UserRecord[], postIds: ReadonlySet<string>) {
  const conversations = new Map<string, { id: string; participant_ids: readonly string[] }>()
  const members: { conversation_id: string; user_id: string; active_at: string; hidden: boolean }[] = []
  const unread: { user_id: string; conversation_id: string; post_id: string }[] = []
  for (const user of users) {
    for (const membership of user.directConversations ?? []) {
      const { _id: id } = membership
      conversations.set(id, { id, participant_ids: membership.participantIds })
      members.push({
        conversation_id: id,
        user_id: user._id,
        active_at: membership.activeAt,
        hidden: membership.hidden === true,
      })
      for (const postId of new Set(membership.unread)) {
        if (postIds.has(postId)) unread.push({ user_id: user._id, conversation_id: id, post_id: postId })
      }
    }
  }
  return { conversations: [...conversations.values()], members, unread }
}
