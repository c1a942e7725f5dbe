/**
 * Replies, content warnings and polls (DECISIONS §10).
 *
 * - `comments.reply_to` names the root comment a reply answers; deleting a comment deletes its replies
 *   through the service, one by one, so counts, events and notifications follow (no cascade here).
 * - `posts.spoiler_text` is the content warning, NULL when none.
 * - `posts.poll` holds `{ options, closesAt, counts, closeNoticed? }`: counts per option move in the
 *   statement that records a vote, on the post's row, so two votes at once both count. `closeNoticed` is
 *   set by one conditional UPDATE, so exactly one instance tells the author the poll closed; the partial
 *   index finds the polls closed but not yet noticed. ISO strings in UTC compare in time order.
 * - `poll_votes` holds each user's one vote a poll (the primary key refuses a second).
 * - Notifications take the types of DECISIONS §10: the check lists every one §11 names (reposts and
 *   quotes too, so that the order in which the migrations of §10 apply does not matter), and `poll`.
 */
export const version = 12
export const name = 'conversations'

export const sql = `
ALTER TABLE comments ADD COLUMN reply_to uuid;
CREATE INDEX comments_reply_to ON comments (reply_to) WHERE reply_to IS NOT NULL;
ALTER TABLE posts ADD COLUMN spoiler_text text;
ALTER TABLE posts ADD COLUMN poll jsonb;
CREATE INDEX posts_polls_unnoticed ON posts ((poll->>'closesAt')) WHERE poll IS NOT NULL AND NOT (poll ? 'closeNoticed');
CREATE TABLE poll_votes (
  post_id uuid NOT NULL REFERENCES posts (id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  choice int NOT NULL CHECK (choice >= 0),
  PRIMARY KEY (post_id, user_id)
);
CREATE INDEX poll_votes_user ON poll_votes (user_id);
ALTER TABLE notifications DROP CONSTRAINT IF EXISTS notifications_type_check;
ALTER TABLE notifications ADD CONSTRAINT notifications_type_check
  CHECK (type IN ('like', 'comment', 'mention', 'follow', 'repost', 'quote', 'reply', 'poll'));
`
