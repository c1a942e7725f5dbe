/**
 * The first schema. `activity_seq` numbers every appended row (follows, reactions, comments, votes,
 * bookmarks) so each list reads back in the order it was made, as the embedded store keeps its arrays.
 * Only two counts are kept beside what they count, each changed by ±1 on a locked row: a post's likes
 * (the trending order's index) and a user's followers (who to follow).
 */
export const version = 1
export const name = 'initial'

export const sql = `
CREATE SEQUENCE activity_seq;

CREATE TABLE users (
  id uuid PRIMARY KEY,
  username text NOT NULL,
  first_name text NOT NULL,
  last_name text NOT NULL,
  email text NOT NULL,
  password_hash text NOT NULL,
  avatar_url text NOT NULL,
  bio text NOT NULL,
  website text NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  token_version int NOT NULL DEFAULT 0,
  follower_count int NOT NULL DEFAULT 0 CHECK (follower_count >= 0)
);
CREATE UNIQUE INDEX users_username_ci ON users (lower(username));
CREATE INDEX users_joined ON users (created_at, id);
CREATE INDEX users_suggest ON users (follower_count DESC, created_at, id);

CREATE TABLE follows (
  follower_id uuid NOT NULL REFERENCES users ON DELETE CASCADE,
  followee_id uuid NOT NULL REFERENCES users ON DELETE CASCADE,
  seq bigint NOT NULL DEFAULT nextval('activity_seq'),
  PRIMARY KEY (follower_id, followee_id),
  CHECK (follower_id <> followee_id)
);
CREATE INDEX follows_follower ON follows (follower_id, seq) INCLUDE (followee_id);
CREATE INDEX follows_followee ON follows (followee_id, seq) INCLUDE (follower_id);

CREATE TABLE posts (
  id uuid PRIMARY KEY,
  author_id uuid NOT NULL REFERENCES users ON DELETE CASCADE,
  content text NOT NULL,
  media_url text NOT NULL,
  type text NOT NULL,
  media_alt text NULL,
  media_width int NULL,
  media_height int NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  like_count int NOT NULL DEFAULT 0 CHECK (like_count >= 0)
);
CREATE INDEX posts_time ON posts (created_at, id);
CREATE INDEX posts_author_time ON posts (author_id, created_at, id);
CREATE INDEX posts_trend ON posts (like_count, created_at, id);

CREATE TABLE post_reactions (
  post_id uuid NOT NULL REFERENCES posts ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users ON DELETE CASCADE,
  liked boolean NOT NULL,
  seq bigint NOT NULL DEFAULT nextval('activity_seq'),
  PRIMARY KEY (post_id, user_id)
);

CREATE TABLE comments (
  id uuid PRIMARY KEY,
  post_id uuid NOT NULL REFERENCES posts ON DELETE CASCADE,
  author_id uuid NOT NULL REFERENCES users ON DELETE CASCADE,
  text text NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  seq bigint NOT NULL DEFAULT nextval('activity_seq')
);
CREATE INDEX comments_post ON comments (post_id, seq);

CREATE TABLE comment_votes (
  comment_id uuid NOT NULL REFERENCES comments ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users ON DELETE CASCADE,
  up boolean NOT NULL,
  seq bigint NOT NULL DEFAULT nextval('activity_seq'),
  PRIMARY KEY (comment_id, user_id)
);

CREATE TABLE bookmarks (
  user_id uuid NOT NULL REFERENCES users ON DELETE CASCADE,
  post_id uuid NOT NULL REFERENCES posts ON DELETE CASCADE,
  seq bigint NOT NULL DEFAULT nextval('activity_seq'),
  PRIMARY KEY (user_id, post_id)
);
CREATE INDEX bookmarks_user ON bookmarks (user_id, seq);
-- Deleting a post removes its bookmarks through the foreign key: this finds them without a scan.
CREATE INDEX bookmarks_post ON bookmarks (post_id);

CREATE TABLE event_outbox (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, name text NOT NULL, recipient uuid NULL, data text NOT NULL, created_at timestamptz NOT NULL DEFAULT clock_timestamp());
CREATE TABLE events (seq bigint PRIMARY KEY, name text NOT NULL, recipient uuid NULL, data text NOT NULL, created_at timestamptz NOT NULL DEFAULT clock_timestamp());
CREATE UNLOGGED TABLE sse_tickets (hash bytea PRIMARY KEY, user_id uuid NOT NULL, expires_at timestamptz NOT NULL);
CREATE INDEX sse_tickets_user ON sse_tickets (user_id);
CREATE TABLE app_settings (key text PRIMARY KEY, value text NOT NULL);
`
