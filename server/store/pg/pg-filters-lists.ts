import type {
  FilterAction,
  FilterContext,
  FilterKeywordRecord,
  FilterRecord,
  ListRecord,
  RepliesPolicy,
} from '../filter-list-types.js'
import type { Queryable } from './connect.js'
import { isUuid } from './records.js'

/** Keyword filters and lists on PostgreSQL (migration 40). */

interface FilterRow {
  id: string
  user_id: string
  title: string
  contexts: FilterContext[]
  action: FilterAction
  expires_at: Date | null
  keywords: FilterKeywordRecord[]
  created_at: Date
}

interface ListRow {
  id: string
  user_id: string
  title: string
  replies_policy: RepliesPolicy
  exclusive: boolean
  member_ids: string[]
  created_at: Date
}

const filterOf = (row: FilterRow): FilterRecord => ({
  _id: row.id,
  userId: row.user_id,
  title: row.title,
  contexts: row.contexts,
  action: row.action,
  expiresAt: row.expires_at?.toISOString() ?? null,
  keywords: row.keywords,
  createdAt: row.created_at.toISOString(),
})

const listOf = (row: ListRow): ListRecord => ({
  _id: row.id,
  userId: row.user_id,
  title: row.title,
  repliesPolicy: row.replies_policy,
  exclusive: row.exclusive,
  memberIds: row.member_ids,
  createdAt: row.created_at.toISOString(),
})

export async function listFilters(sql: Queryable, userId: string): Promise<FilterRecord[]> {
  if (!isUuid(userId)) return []
  const rows = await sql<FilterRow[]>`
    SELECT * FROM keyword_filters WHERE user_id = ${userId} ORDER BY created_at, id`
  return rows.map(filterOf)
}

export async function listLists(sql: Queryable, userId: string): Promise<ListRecord[]> {
  if (!isUuid(userId)) return []
  const rows = await sql<ListRow[]>`SELECT * FROM people_lists WHERE user_id = ${userId} ORDER BY created_at, id`
  return rows.map(listOf)
}

export async function putFilter(sql: Queryable, filter: FilterRecord): Promise<boolean> {
  if (!isUuid(filter.userId)) return false
  const keywords = filter.keywords.map(({ _id, keyword, wholeWord }) => ({ _id, keyword, wholeWord }))
  const rows = await sql`
    INSERT INTO keyword_filters (id, user_id, title, contexts, action, expires_at, keywords, created_at)
    SELECT ${filter._id}, id, ${filter.title}, ${[...filter.contexts]}::text[], ${filter.action},
      ${filter.expiresAt}, ${sql.json(keywords)}, ${filter.createdAt}
    FROM users WHERE id = ${filter.userId}
    ON CONFLICT (id) DO UPDATE SET title = EXCLUDED.title, contexts = EXCLUDED.contexts,
      action = EXCLUDED.action, expires_at = EXCLUDED.expires_at, keywords = EXCLUDED.keywords
      WHERE keyword_filters.user_id = EXCLUDED.user_id
    RETURNING id`
  return rows.length > 0
}

export async function deleteFilter(sql: Queryable, userId: string, filterId: string): Promise<boolean> {
  if (!isUuid(userId) || !isUuid(filterId)) return false
  const rows = await sql`DELETE FROM keyword_filters WHERE id = ${filterId} AND user_id = ${userId} RETURNING id`
  return rows.length > 0
}

export async function putList(sql: Queryable, list: ListRecord): Promise<boolean> {
  if (!isUuid(list.userId) || !list.memberIds.every(isUuid)) return false
  const rows = await sql`
    INSERT INTO people_lists (id, user_id, title, replies_policy, exclusive, member_ids, created_at)
    SELECT ${list._id}, id, ${list.title}, ${list.repliesPolicy}, ${list.exclusive},
      ${[...list.memberIds]}::uuid[], ${list.createdAt}
    FROM users WHERE id = ${list.userId}
    ON CONFLICT (id) DO UPDATE SET title = EXCLUDED.title, replies_policy = EXCLUDED.replies_policy,
      exclusive = EXCLUDED.exclusive, member_ids = EXCLUDED.member_ids
      WHERE people_lists.user_id = EXCLUDED.user_id
    RETURNING id`
  return rows.length > 0
}

export async function deleteList(sql: Queryable, userId: string, listId: string): Promise<boolean> {
  if (!isUuid(userId) || !isUuid(listId)) return false
  const rows = await sql`DELETE FROM people_lists WHERE id = ${listId} AND user_id = ${userId} RETURNING id`
  return rows.length > 0
}

/** The filters and lists the embedded store keeps on its users' records, as rows of their tables. */
export function filterListRows(
  users: readonly { _id: string; filters?: readonly FilterRecord[]; lists?: readonly ListRecord[] }[],
) {
  const filters = users.flatMap((user) =>
    (user.filters ?? []).map((filter) => ({
      id: filter._id,
      user_id: user._id,
      title: filter.title,
      contexts: [...filter.contexts],
      action: filter.action,
      expires_at: filter.expiresAt,
      keywords: JSON.stringify(filter.keywords),
      created_at: filter.createdAt,
    })),
  )
  const lists = users.flatMap((user) =>
    (user.lists ?? []).map((list) => ({
      id: list._id,
      user_id: user._id,
      title: list.title,
      replies_policy: list.repliesPolicy,
      exclusive: list.exclusive,
      member_ids: [...list.memberIds],
      created_at: list.createdAt,
    })),
  )
  return { filters, lists }
}
