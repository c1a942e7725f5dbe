import { decodeCursor } from '../cursor.js'
import type { Page, PageRequest, PostRecord, TagCount, UserRecord, UserSearch } from '../types.js'
import type { Queryable } from './connect.js'
import { idOf, limitOf, pageFrom, textOf, timeOf } from './keyset.js'
import { postColumns, toPostRecord, toUserRecord, userColumns, type PostRow, type UserRow } from './records.js'

/** LIKE's own characters taken literally: `_` is common in usernames and words. */
const likePrefix = (prefix: string) => `${prefix.replace(/[\\%_]/g, '\\$&')}%`

/** Newest first, after the cursor's (created_at, id), on whichever columns hold them. */
function before(sql: Queryable, cursor: string | undefined, at: string, id: string) {
  if (cursor === undefined) return sql``
  const [time, key] = decodeCursor(cursor, 2)
  return sql`AND (${sql(at)}, ${sql(id)}) < (${timeOf(time)}, ${idOf(key)}::uuid)`
}

const postKey = (row: PostRow) => [row.created_at.toISOString(), row.id]

/** A tag's posts by the post_tags_page index, newest first. */
export async function listTaggedPosts(sql: Queryable, tag: string, page: PageRequest): Promise<Page<PostRecord>> {
  const rows = await sql<PostRow[]>`
    SELECT ${postColumns(sql)}
    FROM (SELECT t.post_id, t.created_at FROM post_tags t WHERE t.tag = ${tag} ${before(sql, page.cursor, 't.created_at', 't.post_id')}
          ORDER BY t.created_at DESC, t.post_id DESC ${limitOf(sql, page.limit)}) t
    JOIN posts p ON p.id = t.post_id
    ORDER BY t.created_at DESC, t.post_id DESC`
  return pageFrom(rows, page.limit, postKey, toPostRecord)
}

/** The window's rows only, by the post_tags_recent index; ties in byte order, as the embedded store compares. */
export async function trendingTags(sql: Queryable, since: string, limit: number): Promise<TagCount[]> {
  const rows = await sql<TagCount[]>`
    SELECT tag, count(*)::int AS posts FROM post_tags WHERE used_at >= ${since}
    GROUP BY tag ORDER BY posts DESC, tag LIMIT ${limit}`
  return rows.map(({ tag, posts }) => ({ tag, posts }))
}

/** Posts holding every term, by the GIN index on search_words, newest first. */
export async function searchPosts(
  sql: Queryable,
  terms: readonly string[],
  page: PageRequest,
): Promise<Page<PostRecord>> {
  const rows = await sql<PostRow[]>`
    SELECT ${postColumns(sql)}
    FROM (SELECT * FROM posts p WHERE p.search_words @> ${[...terms]}::text[] ${before(sql, page.cursor, 'p.created_at', 'p.id')}
          ORDER BY p.created_at DESC, p.id DESC ${limitOf(sql, page.limit)}) p
    ORDER BY p.created_at DESC, p.id DESC`
  return pageFrom(rows, page.limit, postKey, toPostRecord)
}

/**
 * People by usernameKey in byte order: a username prefix is a range of users_username_key;
 * name words are ranges of user_search_words' primary key, one for each word, all of which must hold.
 */
export async function searchUsers(sql: Queryable, search: UserSearch, page: PageRequest): Promise<Page<UserRecord>> {
  const name = sql`u.username_key`
  const after = page.cursor === undefined ? sql`` : sql`AND ${name} > ${textOf(decodeCursor(page.cursor, 1)[0])}`
  const matching =
    search.username !== undefined
      ? sql`${name} LIKE ${likePrefix(search.username)}`
      : search.prefixes.reduce(
          (all, prefix) =>
            sql`${all} AND u.id IN (SELECT w.user_id FROM user_search_words w WHERE w.word LIKE ${likePrefix(prefix)})`,
          sql`true`,
        )
  const rows = await sql<(UserRow & { name: string })[]>`
    SELECT ${userColumns(sql)}, u.name
    FROM (SELECT u.*, ${name} AS name FROM users u WHERE ${matching} ${after} ORDER BY ${name} ${limitOf(sql, page.limit)}) u
    ORDER BY u.name`
  return pageFrom(rows, page.limit, (row) => [row.name], toUserRecord)
}
