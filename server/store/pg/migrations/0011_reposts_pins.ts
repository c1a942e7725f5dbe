/**
 * Reposts, quote posts and pinned posts (DECISIONS §10). A repost is a row of its own, kept with the
 * count on the post as likes are; the reposts index by reposter and time is what a home feed reads. A
 * quote keeps the quoted post's id without a reference, so the quoting post outlives it (its `quote`
 * then reads null). The notification types take every kind §11 names.
 */
export const version = 11
export const name = 'reposts_pins'

export const sql = `
ALTER TABLE posts
  ADD COLUMN repost_count integer NOT NULL DEFAULT 0,
  ADD COLUMN quote_of uuid NULL,
  ADD COLUMN pinned_at timestamptz NULL;
CREATE INDEX posts_pinned ON posts (author_id, pinned_at DESC) WHERE pinned_at IS NOT NULL;

CREATE TABLE reposts (
  post_id uuid NOT NULL REFERENCES posts ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users ON DELETE CASCADE,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (post_id, user_id)
);
CREATE INDEX reposts_user_time ON reposts (user_id, created_at);

ALTER TABLE notifications DROP CONSTRAINT notifications_type_check;
ALTER TABLE notifications ADD CONSTRAINT notifications_type_check
  CHECK (type IN ('like', 'comment', 'mention', 'follow', 'repost', 'quote', 'reply', 'poll'));
`
