/**
 * Bounded post views (docs/api-contract.md §5): a post's view shows its 20 most recent likers and
 * comments beside the true counts, so a read of a popular post must neither count nor sort all of them.
 *
 * - `posts.comment_count` is kept like `like_count`: changed by ±1 on the post's row in the transaction
 *   that adds or deletes a comment.
 * - `post_reactions_recent` walks a post's likes (or dislikes) from the most recent, for the view's 20
 *   and for the paged list of likers; `post_reactions_user` answers which posts of a page the reader likes.
 */
export const version = 3
export const name = 'bounded_posts'

export const sql = `
ALTER TABLE posts ADD COLUMN comment_count int NOT NULL DEFAULT 0 CHECK (comment_count >= 0);
UPDATE posts p SET comment_count = c.n FROM (SELECT post_id, count(*)::int AS n FROM comments GROUP BY post_id) c
WHERE c.post_id = p.id;
CREATE INDEX post_reactions_recent ON post_reactions (post_id, liked, seq);
CREATE INDEX post_reactions_user ON post_reactions (user_id, post_id) WHERE liked;
`
