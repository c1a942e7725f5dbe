import { byCreation } from '../memory-index.js'
import { filterListRows } from './pg-filters-lists.js'
import { postPlanRows } from './pg-post-plans.js'
import { laterLookAlikes } from '../../usernames.js'
import { identityKey } from '../notification-index.js'
import type { Database, NotificationRecord, UserRecord } from '../types.js'
import type { Queryable } from './connect.js'
import { followOrder } from './follow-order.js'
import { pollCloseJobs } from '../job-index.js'
import { enqueueJobs } from './pg-jobs.js'
import { pushRowOf } from './pg-push.js'
import { emojiRowOf } from './pg-emojis.js'
import { notificationRow } from './pg-notifications.js'
import { userWordRows } from './term-rows.js'
import {
  emptyChildRows,
  insertRows,
  postChildRows,
  postRow,
  conversationRows,
  relationRows,
  userRow,
  type ChildRows,
  type RelationRows,
} from './table-rows.js'

export interface WriteSummary {
  users: number
  posts: number
  notifications: number
  blocks: number
  mutes: number
  /** References to users, posts or comments that do not exist (or repeats), which the tables cannot hold. */
  skipped: number
}

/** The order accounts joined in, as 0003_username_keys reads it: by time, then id. */
const byJoining = (a: UserRecord, b: UserRecord) =>
  Date.parse(a.createdAt) - Date.parse(b.createdAt) || (a._id < b._id ? -1 : a._id > b._id ? 1 : 0)

/** The notifications whose people, post and comment are all kept, each identity once. */
function keptNotifications(
  notifications: readonly NotificationRecord[],
  knownUser: (id: string) => boolean,
  knownPost: (id: string) => boolean,
  children: ChildRows,
) {
  const postOfComment = new Map(children.comments.map((comment) => [comment.id, comment.post_id]))
  const seen = new Set<string>()
  return notifications.filter((n) => {
    const keep =
      knownUser(n.recipientId) &&
      knownUser(n.actorId) &&
      (n.postId === undefined || knownPost(n.postId)) &&
      (n.commentId === undefined || postOfComment.get(n.commentId) === n.postId) &&
      !seen.has(identityKey(n))
    seen.add(identityKey(n))
    if (!keep) children.skipped++
    return keep
  })
}

/**
 * Writes a whole embedded database into empty tables, keeping every id, date and password hash, and
 * the order of every list: rows of each appended table get sequence numbers in list order. For the
 * seed and the import, inside their transaction; the database must be empty, as the numbers are
 * taken as one block.
 */
export async function writeDatabase(sql: Queryable, database: Database): Promise<WriteSummary> {
  const userIds = new Set(database.users.map((user) => user._id))
  const knownUser = (id: string) => userIds.has(id)
  const follows = followOrder(database.users)
  const followers = new Map<string, number>()
  for (const { followee } of follows) followers.set(followee, (followers.get(followee) ?? 0) + 1)

  const posts = database.posts.filter((post) => knownUser(post.authorId))
  const postIds = new Set(posts.map((post) => post._id))
  const children = emptyChildRows()
  children.skipped = database.posts.length - posts.length
  const reposts = posts.flatMap((post) =>
    (post.reposts ?? [])
      .filter((repost) => knownUser(repost.userId))
      .map((repost) => ({ post_id: post._id, user_id: repost.userId, created_at: repost.at })),
  )
  const repostCounts = new Map<string, number>()
  for (const row of reposts) repostCounts.set(row.post_id, (repostCounts.get(row.post_id) ?? 0) + 1)
  // Oldest post first, so that each person's likes are numbered in the order the embedded store reads
  // them where no time of a like was kept (memory-index.ts, likesIn), each post's own in its list's order.
  const postRows = [...posts].sort(byCreation).map((post) => ({
    ...postRow(post, postChildRows(post, knownUser, children)),
    repost_count: repostCounts.get(post._id) ?? 0,
  }))

  const bookmarks: { user_id: string; post_id: string }[] = []
  for (const user of database.users) {
    const kept = [...new Set(user.bookmarks)].filter((postId) => postIds.has(postId))
    for (const post_id of kept) bookmarks.push({ user_id: user._id, post_id })
    children.skipped += user.bookmarks.length - kept.length
  }

  // Blocks, mutes and follow requests keep their order (and so the order of each person's lists); their
  // date is the copy's.
  const relations: RelationRows = { blocks: [], mutes: [], followRequests: [] }
  const copiedAt = new Date().toISOString()
  for (const user of database.users) relationRows(user, knownUser, copiedAt, relations, children)

  const notifications = keptNotifications(database.notifications ?? [], knownUser, (id) => postIds.has(id), children)
  const unread = new Map<string, number>()
  for (const n of notifications) if (!n.read) unread.set(n.recipientId, (unread.get(n.recipientId) ?? 0) + 1)

  const [first] = await sql<{ seq: string }[]>`SELECT nextval('activity_seq') AS seq`
  let seq = Number(first?.seq)
  const numbered = <R extends object>(rows: R[]) => rows.map((row) => ({ ...row, seq: seq++ }))

  const lookAlikes = laterLookAlikes([...database.users].sort(byJoining))
  await insertRows(
    sql,
    'users',
    database.users.map((user) =>
      userRow(user, followers.get(user._id) ?? 0, unread.get(user._id), lookAlikes.has(user._id)),
    ),
  )
  await insertRows(
    sql,
    'user_search_words',
    database.users.flatMap((user) => userWordRows(user._id, user)),
  )
  // Conversations before the posts filed into them are counted unread.
  const direct = conversationRows(database.users, postIds)
  await insertRows(sql, 'direct_conversations', direct.conversations)
  await insertRows(sql, 'direct_conversation_members', direct.members)
  await insertRows(sql, 'posts', postRows)
  await insertRows(sql, 'direct_unread', direct.unread)
  await insertRows(sql, 'post_tags', children.tags)
  await insertRows(sql, 'reposts', reposts)
  await insertRows(
    sql,
    'follows',
    numbered(follows.map(({ follower, followee }) => ({ follower_id: follower, followee_id: followee }))),
  )
  await insertRows(sql, 'post_reactions', numbered(children.reactions))
  await insertRows(sql, 'comments', numbered(children.comments))
  await insertRows(sql, 'comment_votes', numbered(children.votes))
  await insertRows(sql, 'poll_votes', children.pollVotes)
  await insertRows(sql, 'bookmarks', numbered(bookmarks))
  await insertRows(sql, 'blocks', numbered(relations.blocks))
  await insertRows(sql, 'mutes', numbered(relations.mutes))
  await insertRows(sql, 'follow_requests', numbered(relations.followRequests))
  await insertRows(sql, 'notifications', notifications.map(notificationRow))
  // A token logged out before the move stays logged out after it.
  await insertRows(
    sql,
    'revoked_tokens',
    (database.revokedTokens ?? [])
      .filter((token) => knownUser(token.userId))
      .map((token) => ({ token_id: token._id, user_id: token.userId, expires_at: token.expiresAt })),
  )
  // A deleted account's username stays held after the move, and its old tokens stay a 401.
  await insertRows(
    sql,
    'reserved_usernames',
    (database.reservedNames ?? []).map((held) => ({ username_key: held._id, user_id: held.userId, until: held.until })),
  )
  // Apps registered through the Mastodon client API, and where people stopped reading, move too; codes,
  // which live for minutes, do not.
  await insertRows(
    sql,
    'oauth_apps',
    (database.apps ?? []).map((app) => ({
      client_id: app._id,
      secret_hash: app.secretHash,
      name: app.name,
      website: app.website,
      redirect_uris: [...app.redirectUris],
      scopes: [...app.scopes],
      created_at: app.createdAt,
    })),
  )
  await insertRows(
    sql,
    'markers',
    (database.markers ?? [])
      .filter((marker) => knownUser(marker.userId))
      .map((marker) => ({
        user_id: marker.userId,
        timeline: marker.timeline,
        last_read_id: marker.lastReadId,
        version: marker.version,
        updated_at: marker.updatedAt,
      })),
  )
  await insertRows(
    sql,
    'push_subscriptions',
    (database.pushSubscriptions ?? []).filter((each) => knownUser(each.userId)).map(pushRowOf),
  )
  await insertRows(sql, 'custom_emojis', (database.customEmojis ?? []).map(emojiRowOf))
  // Keyword filters and lists move with their owners.
  const kept = filterListRows(database.users.filter((user) => knownUser(user._id)))
  await insertRows(sql, 'keyword_filters', kept.filters)
  await insertRows(sql, 'people_lists', kept.lists)
  // Scheduled posts move with their authors, earlier versions with their posts.
  const plans = postPlanRows(
    database.users.filter((user) => knownUser(user._id)),
    posts,
  )
  await insertRows(sql, 'scheduled_posts', plans.scheduled)
  await insertRows(sql, 'post_versions', plans.versions)
  // Jobs still to run move with the rest; a database from before the queue gets its polls' jobs.
  const jobs = (database.jobs ?? pollCloseJobs(posts, new Date().toISOString())).filter(
    (job) => job.state === 'queued' || job.state === 'running',
  )
  await enqueueJobs(sql, jobs, new Date().toISOString())
  // Two-factor sign-in set up before the move still asks for its codes after it.
  for (const user of database.users) {
    const state = user.twoFactor
    if (!state) continue
    await sql`
      INSERT INTO two_factor (user_id, secret, enabled, last_step, recovery_codes)
      VALUES (${user._id}, ${state.secret}, ${state.enabled}, ${state.lastStep}, ${[...state.recoveryCodes]}::text[])`
  }
  // Federation's key pairs move with their people, so their actors keep the keys other servers know.
  for (const user of database.users) {
    const keys = user.actorKeys
    if (!keys) continue
    await sql`
      INSERT INTO actor_keys (user_id, rsa_public, rsa_private, ed25519_public, ed25519_private, created_at)
      VALUES (${user._id}, ${keys.rsaPublic}, ${keys.rsaPrivate}, ${keys.ed25519Public}, ${keys.ed25519Private},
        ${keys.createdAt})`
  }
  // The next live append goes after everything written here.
  await sql`SELECT setval('activity_seq', ${seq})`
  return {
    users: database.users.length,
    posts: posts.length,
    notifications: notifications.length,
    blocks: relations.blocks.length,
    mutes: relations.mutes.length,
    skipped: children.skipped,
  }
}
