import type { Queryable } from '../connect.js'
import { searchTermsOf } from '../../text-terms.js'
import { postTagRows, userWordRows } from '../term-rows.js'
import { insertRows } from '../table-rows.js'

/**
 * Notifications, hashtags and search (docs/api-contract.md §8).
 *
 * - Search terms and tags are worked out by server/store/text-terms.ts, the same code the embedded
 *   store indexes with, and stored: `posts.search_words` under a GIN index (every word of a query must
 *   be in the array: `@>`), `post_tags` (the tags of a post and its comments, each with its latest
 *   use) with one index for a tag's page and one for the last days' counts, and `user_search_words`
 *   in byte order ("C"), so `LIKE 'prefix%'` is an index range.
 * - `notifications` are paged by (recipient, created_at, id) as the embedded store pages them; a partial
 *   index holds the unread ones, which marking read walks. `users.unread_notifications` is the
 *   recipient's count, changed by ±n on the locked row in the transaction that changes what it counts,
 *   so every count an event carries is exact in commit order. One notification per identity: the unique
 *   index (NULLS NOT DISTINCT, PostgreSQL 15) makes a repeated one a conflict, not a second row.
 * - Usernames in byte order too, for `@name` prefixes and the order of people found.
 */
export const version = 2
export const name = 'notifications_search'

export const sql = `
ALTER TABLE users ADD COLUMN unread_notifications int NOT NULL DEFAULT 0 CHECK (unread_notifications >= 0);
CREATE INDEX users_username_bytes ON users ((lower(username) COLLATE "C"));

ALTER TABLE posts ADD COLUMN search_words text[] NOT NULL DEFAULT '{}';
CREATE INDEX posts_search ON posts USING gin (search_words);

CREATE TABLE post_tags (
  post_id uuid NOT NULL REFERENCES posts ON DELETE CASCADE,
  tag text COLLATE "C" NOT NULL,
  created_at timestamptz NOT NULL,
  used_at timestamptz NOT NULL,
  PRIMARY KEY (post_id, tag)
);
CREATE INDEX post_tags_page ON post_tags (tag, created_at, post_id);
CREATE INDEX post_tags_recent ON post_tags (used_at) INCLUDE (tag);

CREATE TABLE user_search_words (
  word text COLLATE "C" NOT NULL,
  user_id uuid NOT NULL REFERENCES users ON DELETE CASCADE,
  PRIMARY KEY (word, user_id)
);
CREATE INDEX user_search_words_user ON user_search_words (user_id);

CREATE TABLE notifications (
  id uuid PRIMARY KEY,
  recipient_id uuid NOT NULL REFERENCES users ON DELETE CASCADE,
  type text NOT NULL CHECK (type IN ('like', 'comment', 'mention', 'follow')),
  actor_id uuid NOT NULL REFERENCES users ON DELETE CASCADE,
  post_id uuid NULL REFERENCES posts ON DELETE CASCADE,
  comment_id uuid NULL REFERENCES comments ON DELETE CASCADE,
  created_at timestamptz NOT NULL,
  read boolean NOT NULL DEFAULT false
);
CREATE UNIQUE INDEX notifications_identity ON notifications (recipient_id, type, actor_id, post_id, comment_id) NULLS NOT DISTINCT;
CREATE INDEX notifications_page ON notifications (recipient_id, created_at, id);
CREATE INDEX notifications_unread ON notifications (recipient_id, created_at, id) WHERE NOT read;
CREATE INDEX notifications_post ON notifications (post_id) WHERE post_id IS NOT NULL;
CREATE INDEX notifications_comment ON notifications (comment_id) WHERE comment_id IS NOT NULL;
CREATE INDEX notifications_actor ON notifications (actor_id);
`

const BATCH = 1000
const FIRST = '00000000-0000-0000-0000-000000000000'

/**
 * Indexes what the database already holds, in batches by id: SQL cannot run the tokenizer, so this step
 * of the migration is code. It runs once, with the SQL, in the migration's transaction.
 */
export async function backfill(sql: Queryable): Promise<void> {
  for (let after = FIRST; ;) {
    const users = await sql<{ id: string; username: string; first_name: string; last_name: string }[]>`
      SELECT id, username, first_name, last_name FROM users WHERE id > ${after} ORDER BY id LIMIT ${BATCH}`
    if (users.length === 0) break
    await insertRows(
      sql,
      'user_search_words',
      users.flatMap((user) =>
        userWordRows(user.id, { username: user.username, firstName: user.first_name, lastName: user.last_name }),
      ),
    )
    after = (users.at(-1) as { id: string }).id
  }
  for (let after = FIRST; ;) {
    const posts = await sql<{ id: string; content: string; created_at: Date }[]>`
      SELECT id, content, created_at FROM posts WHERE id > ${after} ORDER BY id LIMIT ${BATCH}`
    if (posts.length === 0) break
    const ids = posts.map((post) => post.id)
    const comments = await sql<{ post_id: string; text: string; created_at: Date }[]>`
      SELECT post_id, text, created_at FROM comments WHERE post_id = ANY(${ids}::uuid[])`
    const tagged = posts.map((post) => ({
      _id: post.id,
      content: post.content,
      createdAt: post.created_at.toISOString(),
      comments: comments
        .filter((comment) => comment.post_id === post.id)
        .map((comment) => ({ text: comment.text, createdAt: comment.created_at.toISOString() })),
    }))
    const words = posts.map((post) => ({ id: post.id, words: searchTermsOf(post.content) }))
    await sql`
      UPDATE posts p SET search_words = t.words
      FROM json_to_recordset(${sql.json(words)}::json) AS t (id uuid, words text[])
      WHERE p.id = t.id`
    await insertRows(sql, 'post_tags', tagged.flatMap(postTagRows))
    after = (posts.at(-1) as { id: string }).id
  }
}
