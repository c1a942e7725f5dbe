import type postgres from 'postgres'
import { CURSOR } from '../cursor.js'
import { participantSet } from '../conversation-parts.js'
import type { ConversationRecord, Page, PageRequest, PostRecord } from '../types.js'
import type { Queryable } from './connect.js'
import { hidden, limitOf, pageFrom, readCursor } from './keyset.js'
import { isUuid, postColumns, toPostRecord, type PostRow } from './records.js'

/**
 * Conversations of direct posts on PostgreSQL (migration 22): a row per conversation, a row per
 * participant (their own view: activity and hiding), a row per post unread by a participant. Posts a
 * participant may read are those they wrote or that addressed them (posts.addressed).
 */

interface ConversationRow {
  id: string
  participant_ids: string[]
  active_at: Date
  hidden: boolean
  unread: number
  last_post_id: string | null
}

type Fragment = postgres.PendingQuery<postgres.Row[]>

/** The newest post of member `m`'s conversation that they may read, by nobody `hide` names. */
const lastPostOf = (sql: Queryable, hide: readonly string[] | undefined): Fragment => sql`
  SELECT p.id FROM posts p
  WHERE p.conversation_id = m.conversation_id AND (p.author_id = m.user_id OR m.user_id = ANY(p.addressed))
    ${hidden(sql, 'p.author_id', hide)}
  ORDER BY p.created_at DESC, p.id DESC LIMIT 1`

/** Everything of member `m`'s view of their conversation but its last post, which `last` holds. */
const viewColumns = (sql: Queryable, hide: readonly string[] | undefined): Fragment => sql`
  m.conversation_id AS id, m.active_at, m.hidden,
  ARRAY(SELECT o.user_id FROM direct_conversation_members o WHERE o.conversation_id = m.conversation_id ORDER BY o.user_id) AS participant_ids,
  (SELECT count(*)::int FROM direct_unread u JOIN posts up ON up.id = u.post_id
   WHERE u.user_id = m.user_id AND u.conversation_id = m.conversation_id ${hidden(sql, 'up.author_id', hide)}) AS unread`

/**
 * What follows the cursor of a list read newest first by a time and an id (CURSOR.byTime); read, and so
 * checked, before anything else is, so a forged cursor is a 400 however little there is to read.
 */
function before(sql: Queryable, page: PageRequest, time: string, id: string): Fragment {
  if (page.cursor === undefined) return sql``
  const [at, last] = readCursor(page.cursor, CURSOR.byTime)
  return sql`AND (${sql(time)}, ${sql(id)}) < (${at}, ${last}::uuid)`
}

/** Rows made records, their last posts read in one statement. */
async function recordsOf(sql: Queryable, rows: readonly ConversationRow[]): Promise<ConversationRecord[]> {
  const ids = rows.flatMap((row) => (row.last_post_id === null ? [] : [row.last_post_id]))
  const posts =
    ids.length === 0
      ? new Map<string, PostRecord>()
      : new Map(
          (await sql<PostRow[]>`SELECT ${postColumns(sql)} FROM posts p WHERE p.id = ANY(${ids}::uuid[])`).map(
            (row) => [row.id, toPostRecord(row)],
          ),
        )
  return rows.map((row) => {
    const lastPost = row.last_post_id === null ? undefined : posts.get(row.last_post_id)
    return {
      _id: row.id,
      participantIds: row.participant_ids,
      ...(lastPost ? { lastPost } : {}),
      unread: row.unread,
      activeAt: row.active_at.toISOString(),
      hidden: row.hidden,
    }
  })
}

export async function getConversation(
  sql: Queryable,
  conversationId: string,
  userId: string,
  hide?: readonly string[],
): Promise<ConversationRecord | undefined> {
  if (!isUuid(conversationId) || !isUuid(userId)) return undefined
  const rows = await sql<ConversationRow[]>`
    SELECT ${viewColumns(sql, hide)}, (${lastPostOf(sql, hide)}) AS last_post_id
    FROM direct_conversation_members m WHERE m.user_id = ${userId} AND m.conversation_id = ${conversationId}`
  const [record] = await recordsOf(sql, rows)
  return record
}

/** By the members' index of shown conversations, each row's last post found as it is read, until the page is full. */
export async function listConversations(
  sql: Queryable,
  userId: string,
  page: PageRequest,
): Promise<Page<ConversationRecord>> {
  const after = before(sql, page, 'm.active_at', 'm.conversation_id')
  if (!isUuid(userId)) return { items: [], nextCursor: null }
  const rows = await sql<ConversationRow[]>`
    SELECT ${viewColumns(sql, page.hide)}, last.id AS last_post_id
    FROM direct_conversation_members m CROSS JOIN LATERAL (${lastPostOf(sql, page.hide)}) last
    WHERE m.user_id = ${userId} AND NOT m.hidden ${after}
    ORDER BY m.active_at DESC, m.conversation_id DESC ${limitOf(sql, page.limit)}`
  const records = await recordsOf(sql, rows)
  return pageFrom(
    records,
    page.limit,
    (record) => [record.activeAt, record._id],
    (record) => record,
  )
}

export async function listConversationPosts(
  sql: Queryable,
  conversationId: string,
  userId: string,
  page: PageRequest,
): Promise<Page<PostRecord>> {
  const after = before(sql, page, 'p.created_at', 'p.id')
  if (!isUuid(conversationId) || !isUuid(userId)) return { items: [], nextCursor: null }
  const rows = await sql<PostRow[]>`
    SELECT ${postColumns(sql)} FROM (
      SELECT p.* FROM posts p
      WHERE p.conversation_id = ${conversationId}
        AND EXISTS (SELECT 1 FROM direct_conversation_members m WHERE m.conversation_id = ${conversationId} AND m.user_id = ${userId})
        AND (p.author_id = ${userId} OR ${userId} = ANY(p.addressed)) ${hidden(sql, 'p.author_id', page.hide)} ${after}
      ORDER BY p.created_at DESC, p.id DESC ${limitOf(sql, page.limit)}) p
    ORDER BY p.created_at DESC, p.id DESC`
  return pageFrom(rows, page.limit, (row) => [row.created_at.toISOString(), row.id], toPostRecord)
}

export async function countUnreadConversations(
  sql: Queryable,
  userId: string,
  hide?: readonly string[],
): Promise<number> {
  if (!isUuid(userId)) return 0
  const [row] = await sql<{ n: number }[]>`
    SELECT count(DISTINCT u.conversation_id)::int AS n FROM direct_unread u JOIN posts p ON p.id = u.post_id
    WHERE u.user_id = ${userId} ${hidden(sql, 'p.author_id', hide)}`
  return row?.n ?? 0
}

/**
 * The people are locked against deletion while the conversation is found or opened; the unique set
 * decides between two openings at once, the loser reading the winner's row once its insert has waited.
 */
export async function openConversation(
  sql: Queryable,
  participantIds: readonly string[],
  newId: string,
  at: string,
): Promise<string | undefined> {
  const ids = participantSet(participantIds)
  if (ids.length === 0 || !ids.every(isUuid)) return undefined
  const people = await sql`SELECT id FROM users WHERE id = ANY(${ids}::uuid[]) FOR KEY SHARE`
  if (people.length !== ids.length) return undefined
  await sql`
    INSERT INTO direct_conversations (id, participant_ids) VALUES (${newId}, ${ids}::uuid[])
    ON CONFLICT (participant_ids) DO NOTHING`
  const [found] = await sql<{ id: string }[]>`
    SELECT id FROM direct_conversations WHERE participant_ids = ${ids}::uuid[]`
  if (!found) return undefined
  await sql`
    INSERT INTO direct_conversation_members (conversation_id, user_id, active_at)
    SELECT ${found.id}, person, ${at} FROM unnest(${ids}::uuid[]) AS person
    ON CONFLICT DO NOTHING`
  return found.id
}

export async function deliverDirectPost(
  sql: Queryable,
  conversationId: string,
  postId: string,
  authorId: string,
  recipientIds: readonly string[],
  at: string,
): Promise<boolean> {
  if (![conversationId, postId, authorId].every(isUuid)) return false
  const [ready] = await sql`
    SELECT 1 FROM direct_conversation_members m
    WHERE m.conversation_id = ${conversationId} AND m.user_id = ${authorId}
      AND EXISTS (SELECT 1 FROM posts WHERE id = ${postId})`
  if (!ready) return false
  const recipients = [...new Set(recipientIds.filter((id) => isUuid(id) && id !== authorId))]
  await sql`
    UPDATE direct_conversation_members SET active_at = ${at}, hidden = false
    WHERE conversation_id = ${conversationId} AND user_id = ANY(${[authorId, ...recipients]}::uuid[])`
  await sql`
    INSERT INTO direct_unread (user_id, conversation_id, post_id)
    SELECT m.user_id, m.conversation_id, ${postId} FROM direct_conversation_members m
    WHERE m.conversation_id = ${conversationId} AND m.user_id = ANY(${recipients}::uuid[])
    ON CONFLICT DO NOTHING`
  return true
}

/** The member's unread rows go; with `hide`, the conversation is hidden for them as well. */
export async function readConversation(
  sql: Queryable,
  conversationId: string,
  userId: string,
  hide: boolean,
): Promise<boolean> {
  if (!isUuid(conversationId) || !isUuid(userId)) return false
  const [member] = await sql`
    UPDATE direct_conversation_members SET hidden = hidden OR ${hide}
    WHERE conversation_id = ${conversationId} AND user_id = ${userId} RETURNING 1`
  if (!member) return false
  await sql`DELETE FROM direct_unread WHERE user_id = ${userId} AND conversation_id = ${conversationId}`
  return true
}
