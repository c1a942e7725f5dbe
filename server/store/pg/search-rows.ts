import { searchTermsOf } from '../text-terms.js'
import type { Queryable } from './connect.js'
import { insertRows } from './table-rows.js'
import { postTagRows, userWordRows } from './term-rows.js'

/** The post's tags after its content or one of its comments changed: rows of tags it no longer carries go, the others are set. */
export async function retagPost(sql: Queryable, id: string): Promise<void> {
  const [post] = await sql<
    { content: string; created_at: Date }[]
  >`SELECT content, created_at FROM posts WHERE id = ${id}`
  if (!post) return
  const comments = await sql<
    { text: string; created_at: Date }[]
  >`SELECT text, created_at FROM comments WHERE post_id = ${id}`
  const rows = postTagRows({
    _id: id,
    content: post.content,
    createdAt: post.created_at.toISOString(),
    comments: comments.map((comment) => ({ text: comment.text, createdAt: comment.created_at.toISOString() })),
  })
  await sql`DELETE FROM post_tags WHERE post_id = ${id} AND NOT (tag = ANY(${rows.map((row) => row.tag)}::text[]))`
  if (rows.length > 0) {
    await sql`
      INSERT INTO post_tags ${sql(rows)}
      ON CONFLICT (post_id, tag) DO UPDATE SET used_at = excluded.used_at WHERE post_tags.used_at <> excluded.used_at`
  }
}

/** After a post's content changed: its search terms replaced, and its tags. */
export async function reindexPost(sql: Queryable, id: string, content: string): Promise<void> {
  await sql`UPDATE posts SET search_words = ${searchTermsOf(content)}::text[] WHERE id = ${id}`
  await retagPost(sql, id)
}

/** After a user's names changed (or they joined): the words they are found by, replaced. */
export async function reindexUser(
  sql: Queryable,
  userId: string,
  names: { username: string; firstName: string; lastName: string },
) {
  await sql`DELETE FROM user_search_words WHERE user_id = ${userId}`
  await insertRows(sql, 'user_search_words', userWordRows(userId, names))
}
