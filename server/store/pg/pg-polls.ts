import type { CommentRecord, PollVote } from '../types.js'
import type { Queryable } from './connect.js'
import { commentJson, isUuid, toCommentRecord, type CommentJson } from './records.js'

/**
 * Replies and poll votes on PostgreSQL (migration 12). A vote is a row of poll_votes, whose primary key
 * refuses a second, and the count on the post's row moves in the same statement.
 */

export async function listReplies(sql: Queryable, postId: string, commentId: string): Promise<CommentRecord[]> {
  if (!isUuid(postId) || !isUuid(commentId)) return []
  const rows = await sql<{ comment: CommentJson }[]>`
    SELECT ${commentJson(sql)} AS comment FROM comments c
    WHERE c.reply_to = ${commentId} AND c.post_id = ${postId} ORDER BY c.seq`
  return rows.map((row) => toCommentRecord(row.comment))
}

export async function pollVotesOf(
  sql: Queryable,
  postIds: readonly string[],
  userIds: readonly string[],
): Promise<PollVote[]> {
  const posts = postIds.filter(isUuid)
  const users = userIds.filter(isUuid)
  if (posts.length === 0 || users.length === 0) return []
  const rows = await sql<{ post_id: string; user_id: string; choice: number }[]>`
    SELECT post_id, user_id, choice FROM poll_votes
    WHERE post_id = ANY(${posts}::uuid[]) AND user_id = ANY(${users}::uuid[])`
  return rows.map((row) => ({ postId: row.post_id, userId: row.user_id, choice: row.choice }))
}

/** Adds 1 (or, with -1, takes it away) to one option's count in the poll's JSON. */
const counted = (sql: Queryable, choice: number, delta: number) => sql`
  jsonb_set(p.poll, ARRAY['counts', ${String(choice)}::text], to_jsonb((p.poll->'counts'->>${choice}::int)::int + ${delta}::int))`

export async function addPollVote(sql: Queryable, vote: PollVote): Promise<boolean> {
  if (!isUuid(vote.postId) || !isUuid(vote.userId)) return false
  const rows = await sql`
    WITH added AS (
      INSERT INTO poll_votes (post_id, user_id, choice)
      SELECT p.id, u.id, ${vote.choice}::int FROM posts p, users u
      WHERE p.id = ${vote.postId} AND u.id = ${vote.userId}
        AND p.poll IS NOT NULL AND ${vote.choice}::int < jsonb_array_length(p.poll->'options')
      ON CONFLICT DO NOTHING
      RETURNING post_id)
    UPDATE posts p SET poll = ${counted(sql, vote.choice, 1)}
    WHERE p.id = ${vote.postId} AND EXISTS (SELECT 1 FROM added)
    RETURNING p.id`
  return rows.length > 0
}

export async function removePollVotes(sql: Queryable, userId: string): Promise<string[]> {
  if (!isUuid(userId)) return []
  const removed = await sql<{ post_id: string; choice: number }[]>`
    DELETE FROM poll_votes WHERE user_id = ${userId} RETURNING post_id, choice`
  for (const { post_id, choice } of removed) {
    await sql`UPDATE posts p SET poll = ${counted(sql, choice, -1)} WHERE p.id = ${post_id}`
  }
  return removed.map((row) => row.post_id)
}

/**
 * One conditional UPDATE: of several transactions at once, the first takes the row's lock and sets the
 * mark, and the others, once it commits, find it set and change nothing.
 */
export async function notePollClosed(sql: Queryable, postId: string, at: string): Promise<boolean> {
  if (!isUuid(postId)) return false
  const rows = await sql`
    UPDATE posts SET poll = poll || '{"closeNoticed": true}'::jsonb
    WHERE id = ${postId} AND poll IS NOT NULL AND NOT (poll ? 'closeNoticed') AND poll->>'closesAt' <= ${at}
    RETURNING id`
  return rows.length > 0
}
