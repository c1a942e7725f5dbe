/**
 * Edit history and scheduled posts (DECISIONS §15). A post's earlier versions, numbered in the order they
 * were kept, go with the post; a scheduled post, what it will publish as the JSON a client sent (checked
 * then), goes with its author until its job publishes it.
 */
export const version = 55
export const name = 'post_versions_scheduled'

export const sql = `
CREATE TABLE post_versions (
  post_id uuid NOT NULL REFERENCES posts ON DELETE CASCADE,
  seq integer NOT NULL,
  content text NOT NULL,
  spoiler_text text NULL,
  media jsonb NOT NULL,
  poll_options text[] NULL,
  edited_at timestamptz NOT NULL,
  PRIMARY KEY (post_id, seq)
);
CREATE TABLE scheduled_posts (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users ON DELETE CASCADE,
  scheduled_at timestamptz NOT NULL,
  post_data jsonb NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX scheduled_posts_user ON scheduled_posts (user_id, scheduled_at, created_at, id);
`
