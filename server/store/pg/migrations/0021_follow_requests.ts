/**
 * Follow requests (DECISIONS §12): asking to follow a locked account makes a row here, never one in
 * `follows`, until its owner accepts it. Rows are numbered by `activity_seq` like follows, so the owner's
 * list pages by it, the oldest request first (`follow_requests_page`); the primary key answers whether a
 * person asked. Notifications take the type `follow_request`: the check lists every type before it too.
 */
export const version = 21
export const name = 'follow_requests'

export const sql = `
CREATE TABLE follow_requests (
  follower_id uuid NOT NULL REFERENCES users ON DELETE CASCADE,
  followee_id uuid NOT NULL REFERENCES users ON DELETE CASCADE,
  seq bigint NOT NULL DEFAULT nextval('activity_seq'),
  created_at timestamptz NOT NULL,
  PRIMARY KEY (follower_id, followee_id),
  CHECK (follower_id <> followee_id)
);
CREATE INDEX follow_requests_page ON follow_requests (followee_id, seq);
ALTER TABLE notifications DROP CONSTRAINT IF EXISTS notifications_type_check;
ALTER TABLE notifications ADD CONSTRAINT notifications_type_check
  CHECK (type IN ('like', 'comment', 'mention', 'follow', 'repost', 'quote', 'reply', 'poll', 'follow_request'));
`
