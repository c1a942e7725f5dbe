import { nameWordsOf, searchTermsOf, tagsOf } from '../text-terms.js'
import type { Queryable } from './connect.js'
import { insertRows } from './table-rows.js'

/** What a post is found by, as rows: its search terms (a column of the post) and its tags. */
export function postTermRows(id: string, content: string, createdAt: Date) {
  const created_at = createdAt.toISOString()
  return { id, words: searchTermsOf(content), tags: tagsOf(content).map((tag) => ({ post_id: id, tag, created_at })) }
}

export const userWordRows = (userId: string, names: { username: string; firstName: string; lastName: string }) =>
  nameWordsOf(names).map((word) => ({ word, user_id: userId }))

/** After a post's content changed: its terms replaced, and its tags, keeping the rows of tags it still has. */
export async function reindexPost(sql: Queryable, id: string, content: string): Promise<void> {
  const [post] = await sql<{ created_at: Date }[]>`
    UPDATE posts SET search_words = ${searchTermsOf(content)}::text[] WHERE id = ${id} RETURNING created_at`
  if (!post) return
  const tags = tagsOf(content)
  await sql`DELETE FROM post_tags WHERE post_id = ${id} AND NOT (tag = ANY(${tags}::text[]))`
  if (tags.length > 0) {
    await sql`
      INSERT INTO post_tags (post_id, tag, created_at)
      SELECT ${id}, tag, ${post.created_at} FROM unnest(${tags}::text[]) AS tag
      ON CONFLICT DO NOTHING`
  }
}

/** After a user's names changed (or they joined): the words they are found by, replaced. */
export async function reindexUser(sql: Queryable, userId: string, names: { username: string; firstName: string; lastName: string }) {
  await sql`DELETE FROM user_search_words WHERE user_id = ${userId}`
  await insertRows(sql, 'user_search_words', userWordRows(userId, names))
}
