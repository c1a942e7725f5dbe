import type { AccountRemoval, ReservedNameRecord } from '../types.js'
import type { Queryable } from './connect.js'
import { isUuid } from './records.js'
import { removePollVotes } from './pg-polls.js'
import { retagPost } from './search-rows.js'

/**
 * The rows a user owns that feed no count kept elsewhere, as [table, column naming the user]: each is
 * deleted outright. A new table of things people make is one more line here (or, when it feeds a count on
 * someone else's row, a statement in deleteAccount that moves the count as it deletes).
 */
const OWN_ROWS: readonly (readonly [table: string, column: string])[] = [
  ['bookmarks', 'user_id'],
  ['blocks', 'blocker_id'],
  ['blocks', 'blocked_id'],
  ['mutes', 'muter_id'],
  ['mutes', 'muted_id'],
  ['follow_requests', 'follower_id'],
  ['follow_requests', 'followee_id'],
  ['two_factor', 'user_id'],
  ['revoked_tokens', 'user_id'],
  ['comment_votes', 'user_id'],
]

/**
 * Deletes the account and everything it owns, in the caller's transaction. Foreign keys would cascade
 * most rows away with the user's row, but not the counts others' rows keep of them (follower_count,
 * like_count, comment_count, repost_count, poll counts, unread_notifications): so each kind that feeds a count is deleted here by a
 * statement that moves the count with it, before the user's row goes.
 */
export async function deleteAccount(
  sql: Queryable,
  userId: string,
  reservation: ReservedNameRecord,
  at: string,
): Promise<AccountRemoval | undefined> {
  if (!isUuid(userId)) return undefined
  // A big account's deletion touches many rows that others' writes may hold a moment: it waits for them
  // (they in turn wait for it, or run again once it is done) rather than fail half-way at the pool's limits.
  await sql`SELECT set_config('lock_timeout', '30s', true), set_config('statement_timeout', '120s', true)`
  const [user] = await sql`SELECT id FROM users WHERE id = ${userId} FOR UPDATE`
  if (!user) return undefined
  // Their conversations, which go on between the others: their own places go with their row.
  const conversations = await sql<{ conversation_id: string; participant_ids: string[] }[]>`
    SELECT m.conversation_id, ARRAY(
      SELECT o.user_id FROM direct_conversation_members o
      WHERE o.conversation_id = m.conversation_id AND o.user_id <> ${userId} ORDER BY o.user_id
    ) AS participant_ids
    FROM direct_conversation_members m WHERE m.user_id = ${userId}`
  // Their comments, and every reply under them at any depth (a reply goes with the comment it answers).
  const commentsGone = sql`
    WITH RECURSIVE gone(id) AS (
      SELECT id FROM comments WHERE author_id = ${userId}
      UNION SELECT c.id FROM comments c JOIN gone g ON c.reply_to = g.id
    ) SELECT id FROM gone`
  // Notifications to and from them and about what they made, off every other recipient's unread count.
  const unread = await sql<{ recipient_id: string; unread: number }[]>`
    WITH removed AS (
      DELETE FROM notifications n
      WHERE n.recipient_id = ${userId} OR n.actor_id = ${userId}
        OR n.post_id IN (SELECT id FROM posts WHERE author_id = ${userId})
        OR n.comment_id IN (${commentsGone})
      RETURNING n.recipient_id, n.read
    ), fell AS (
      SELECT recipient_id, count(*)::int AS n FROM removed
      WHERE NOT read AND recipient_id <> ${userId} GROUP BY recipient_id
    )
    UPDATE users u SET unread_notifications = u.unread_notifications - fell.n
    FROM fell WHERE u.id = fell.recipient_id
    RETURNING u.id AS recipient_id, u.unread_notifications AS unread`
  // Follows both ways: whom they followed has one follower fewer; either side changed then, as an
  // unfollow says.
  await sql`
    UPDATE users u SET follower_count = u.follower_count - 1, updated_at = ${at}
    FROM follows f WHERE f.follower_id = ${userId} AND u.id = f.followee_id`
  await sql`UPDATE users u SET updated_at = ${at} FROM follows f WHERE f.followee_id = ${userId} AND u.id = f.follower_id`
  await sql`DELETE FROM follows WHERE follower_id = ${userId} OR followee_id = ${userId}`
  // Their likes, reposts, comments (with the replies to them) and poll votes on others' posts, off those
  // posts' counts.
  await sql`
    UPDATE posts p SET like_count = p.like_count - 1
    FROM post_reactions r WHERE r.user_id = ${userId} AND r.liked AND p.id = r.post_id AND p.author_id <> ${userId}`
  await sql`DELETE FROM post_reactions WHERE user_id = ${userId}`
  await sql`
    UPDATE posts p SET repost_count = p.repost_count - 1
    FROM reposts r WHERE r.user_id = ${userId} AND p.id = r.post_id AND p.author_id <> ${userId}`
  await sql`DELETE FROM reposts WHERE user_id = ${userId}`
  await removePollVotes(sql, userId)
  const commented = await sql<{ id: string }[]>`
    UPDATE posts p SET comment_count = p.comment_count - c.n
    FROM (SELECT post_id, count(*)::int AS n FROM comments WHERE id IN (${commentsGone}) GROUP BY post_id) c
    WHERE p.id = c.post_id AND p.author_id <> ${userId}
    RETURNING p.id`
  const comments = await sql<{ id: string }[]>`DELETE FROM comments WHERE id IN (${commentsGone}) RETURNING id`
  for (const { id } of commented) await retagPost(sql, id)
  // Quotes of their posts keep quote_of, as a quote of any deleted post does: it reads `quote: null`
  // (DECISIONS §11), "This post is unavailable", and names a post that no longer exists.
  // The jobs about their posts (cards, polls) and mail to their address: none is left to do, and no row
  // names them.
  await sql`
    DELETE FROM jobs WHERE payload->>'postId' IN (SELECT id::text FROM posts WHERE author_id = ${userId})
      OR lower(payload->>'email') = (SELECT lower(email) FROM users WHERE id = ${userId})`
  // Their posts, with what others made of them (comments, reactions, bookmarks, tags) by cascade.
  const posts = await sql<{ id: string }[]>`DELETE FROM posts WHERE author_id = ${userId} RETURNING id`
  for (const [table, column] of OWN_ROWS) await sql`DELETE FROM ${sql(table)} WHERE ${sql(column)} = ${userId}`
  // Reports they made, and those about them or what they made (what they report is gone, and the queue
  // names nobody who left): the open ones' snapshots held uploads as evidence, which may go now.
  const reports = await sql<{ snapshot: object }[]>`
    DELETE FROM reports WHERE reporter_id = ${userId} OR subject_id = ${userId}
    RETURNING CASE WHEN status = 'open' THEN snapshot END AS snapshot`
  await sql`DELETE FROM reserved_usernames WHERE until <= ${at}`
  await sql`
    INSERT INTO reserved_usernames (username_key, user_id, until)
    VALUES (${reservation._id}, ${reservation.userId}, ${reservation.until})
    ON CONFLICT (username_key) DO UPDATE SET user_id = EXCLUDED.user_id, until = EXCLUDED.until`
  // The live-update log keeps no trace of them either: every event to them, by them, carrying their
  // post, or whose payload names them, one of their posts or a comment gone with them goes, so no replay hands out what they
  // wrote. Open screens learn of it from this deletion's own events, written after this.
  const named = [userId, ...posts.map((row) => row.id), ...comments.map((row) => row.id)]
  for (const table of ['events', 'event_outbox']) {
    await sql`
      DELETE FROM ${sql(table)} e
      WHERE e.recipient = ${userId} OR e.actor = ${userId} OR e.about = ${userId}
        OR EXISTS (SELECT 1 FROM unnest(${named}::text[]) AS id WHERE strpos(e.data, id) > 0)`
  }
  await sql`DELETE FROM users WHERE id = ${userId}`
  return {
    postIds: posts.map((row) => row.id),
    unread: unread.map((row) => ({ recipientId: row.recipient_id, unread: row.unread })),
    openReportSnapshots: reports.flatMap((row) => (row.snapshot === null ? [] : [row.snapshot])),
    conversations: conversations.map((row) => ({
      conversationId: row.conversation_id,
      participantIds: row.participant_ids,
    })),
  }
}

export async function isUsernameReserved(sql: Queryable, key: string, at: string): Promise<boolean> {
  const rows = await sql`SELECT 1 FROM reserved_usernames WHERE username_key = ${key} AND until > ${at}`
  return rows.length > 0
}

export async function wasDeleted(sql: Queryable, userId: string): Promise<boolean> {
  if (!isUuid(userId)) return false
  const rows = await sql`SELECT 1 FROM reserved_usernames WHERE user_id = ${userId}`
  return rows.length > 0
}

/**
 * Each place that may show an upload, by an index of its own (migrations 14 and 24); the open reports are
 * few, and their snapshots are searched for the URL as a whole JSON string.
 */
export async function isMediaUsed(sql: Queryable, url: string): Promise<boolean> {
  if (url === '') return false
  const rows = await sql`
    SELECT 1 FROM posts WHERE media_url = ${url} AND media_url <> ''
    UNION ALL SELECT 1 FROM posts WHERE more_media @> ${sql.json({ images: [{ url }] })}
    UNION ALL SELECT 1 FROM posts WHERE card->>'image' = ${url} AND card->>'image' <> ''
    UNION ALL SELECT 1 FROM users WHERE avatar_url = ${url}
    UNION ALL SELECT 1 FROM users WHERE banner_url = ${url}
    UNION ALL SELECT 1 FROM custom_emojis WHERE url = ${url}
    UNION ALL SELECT 1 FROM reports WHERE status = 'open' AND strpos(snapshot::text, ${JSON.stringify(url)}) > 0
    LIMIT 1`
  return rows.length > 0
}
