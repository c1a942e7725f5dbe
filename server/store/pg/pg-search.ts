import { CURSOR } from '../cursor.js'
import type { Page, PageRequest, PostPage, PostRecord, TagCount, UserRecord, UserSearch } from '../types.js'
import { inAudience } from './audience-sql.js'
import { plannedEachRun, type Queryable } from './connect.js'
import { hidden, limitOf, pageFrom, readCursor } from './keyset.js'
import { postColumns, toPostRecord, toUserRecord, userColumns, type PostRow, type UserRow } from './records.js'

/** LIKE's own characters taken literally: `_` is common in usernames and words. */
const likePrefix = (prefix: string) => `${prefix.replace(/[\\%_]/g, '\\$&')}%`

/** Newest first, after the cursor's (created_at, id), on whichever columns hold them. */
function before(sql: Queryable, cursor: string | undefined, at: string, id: string) {
  if (cursor === undefined) return sql``
  const [time, key] = readCursor(cursor, CURSOR.byTime)
  return sql`AND (${sql(at)}, ${sql(id)}) < (${time}, ${key}::uuid)`
}

/**
 * The posts table as `a`, joined only when someone is hidden or an audience is kept: what the author and
 * the audience of a tag's post are found by.
 */
const byAuthor = (sql: Queryable, postId: string, hide: readonly string[] | undefined, audience = false) =>
  audience || (hide && hide.length > 0) ? sql`JOIN posts a ON a.id = ${sql(postId)}` : sql``

const postKey = (row: PostRow) => [row.created_at.toISOString(), row.id]

/** A tag's posts by the post_tags_page index, newest first. */
export async function listTaggedPosts(sql: Queryable, tag: string, page: PostPage): Promise<Page<PostRecord>> {
  const rows = await sql<PostRow[]>`
    SELECT ${postColumns(sql)}
    FROM (SELECT t.post_id, t.created_at FROM post_tags t ${byAuthor(sql, 't.post_id', page.hide, page.audience !== undefined)}
          WHERE t.tag = ${tag} ${before(sql, page.cursor, 't.created_at', 't.post_id')} ${hidden(sql, 'a.author_id', page.hide)}
            ${inAudience(sql, page.audience, 'a')}
          ORDER BY t.created_at DESC, t.post_id DESC ${limitOf(sql, page.limit)}) t
    JOIN posts p ON p.id = t.post_id
    ORDER BY t.created_at DESC, t.post_id DESC`
  return pageFrom(rows, page.limit, postKey, toPostRecord)
}

/**
 * The window's rows only, by the post_tags_recent index, of public posts alone; ties in byte order, as
 * the embedded store compares.
 */
export async function trendingTags(
  sql: Queryable,
  since: string,
  limit: number,
  hide?: readonly string[],
): Promise<TagCount[]> {
  // Planned for the window asked: a generic plan cannot tell how few rows it holds.
  const rows = await plannedEachRun(sql<TagCount[]>`
    SELECT t.tag, count(*)::int AS posts FROM post_tags t ${byAuthor(sql, 't.post_id', hide, true)}
    WHERE t.used_at >= ${since} ${hidden(sql, 'a.author_id', hide)} ${inAudience(sql, { kind: 'listed' }, 'a')}
    GROUP BY t.tag ORDER BY posts DESC, t.tag LIMIT ${limit}`)
  return rows.map(({ tag, posts }) => ({ tag, posts }))
}

/** Posts holding every term, by the GIN index on search_words, newest first. */
export async function searchPosts(sql: Queryable, terms: readonly string[], page: PostPage): Promise<Page<PostRecord>> {
  // Planned for the terms asked: a rare word is found by the index, a common one by walking the newest posts.
  const rows = await plannedEachRun(sql<PostRow[]>`
    SELECT ${postColumns(sql)}
    FROM (SELECT * FROM posts p WHERE p.search_words @> ${[...terms]}::text[] ${before(sql, page.cursor, 'p.created_at', 'p.id')}
          ${hidden(sql, 'p.author_id', page.hide)} ${inAudience(sql, page.audience)}
          ORDER BY p.created_at DESC, p.id DESC ${limitOf(sql, page.limit)}) p
    ORDER BY p.created_at DESC, p.id DESC`)
  return pageFrom(rows, page.limit, postKey, toPostRecord)
}

/**
 * Users with a word beginning with each prefix, in one shape however many there are: the first
 * (longest) prefix is a range of user_search_words' primary key, and each user in it is checked for
 * the others, one small lookup by user_id each, stopping at the first that fails. A condition per
 * prefix instead cost the planner more than the search, with 44 one-letter words in a query.
 */
function withNameWords(sql: Queryable, prefixes: readonly string[]) {
  const [first, ...rest] = prefixes
  if (first === undefined) return sql`false`
  const byFirst = sql`u.id IN (SELECT w.user_id FROM user_search_words w WHERE w.word LIKE ${likePrefix(first)})`
  if (rest.length === 0) return byFirst
  return sql`${byFirst} AND NOT EXISTS (
    SELECT 1 FROM unnest(${rest}::text[]) AS p(prefix)
    WHERE NOT EXISTS (SELECT 1 FROM user_search_words w WHERE w.user_id = u.id AND starts_with(w.word, p.prefix)))`
}

/** People by usernameKey in byte order: a username prefix is a range of users_username_key. */
export async function searchUsers(sql: Queryable, search: UserSearch, page: PageRequest): Promise<Page<UserRecord>> {
  const name = sql`u.username_key`
  const after = page.cursor === undefined ? sql`` : sql`AND ${name} > ${readCursor(page.cursor, CURSOR.byName)[0]}`
  const matching =
    search.username !== undefined
      ? sql`${name} LIKE ${likePrefix(search.username)}`
      : withNameWords(sql, search.prefixes)
  // Planned for the prefix asked: only a known prefix makes LIKE a range of the index.
  const rows = await plannedEachRun(sql<(UserRow & { name: string })[]>`
    SELECT ${userColumns(sql)}, u.name
    FROM (SELECT u.*, ${name} AS name FROM users u WHERE ${matching} ${after} AND NOT u.pending ${hidden(sql, 'u.id', page.hide)} ORDER BY ${name} ${limitOf(sql, page.limit)}) u
    ORDER BY u.name`)
  return pageFrom(rows, page.limit, (row) => [row.name], toUserRecord)
}
