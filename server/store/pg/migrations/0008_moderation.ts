/**
 * Moderation (DECISIONS §8): roles, suspensions and pending signups on users; reports, the audit log and
 * invites. Reports keep their target's view as JSON, so the queue can show what a removed post said.
 * Number 7 is another change's.
 */
export const version = 8
export const name = 'moderation'

export const sql = `
ALTER TABLE users
  ADD COLUMN role text NOT NULL DEFAULT 'user' CHECK (role IN ('user', 'moderator', 'admin')),
  ADD COLUMN suspension jsonb NULL,
  ADD COLUMN pending boolean NOT NULL DEFAULT false;
CREATE INDEX users_staff ON users (id) WHERE role <> 'user';
CREATE INDEX users_pending ON users (created_at, id) WHERE pending;
CREATE INDEX users_suspended ON users (id) WHERE suspension IS NOT NULL;

CREATE TABLE reports (
  id uuid PRIMARY KEY,
  reporter_id uuid NOT NULL REFERENCES users ON DELETE CASCADE,
  target_type text NOT NULL,
  target_id uuid NOT NULL,
  post_id uuid NULL,
  subject_id uuid NOT NULL,
  snapshot jsonb NOT NULL,
  category text NOT NULL,
  comment text NOT NULL,
  status text NOT NULL,
  action text NULL,
  note text NULL,
  resolved_by uuid NULL,
  created_at timestamptz NOT NULL,
  resolved_at timestamptz NULL
);
CREATE INDEX reports_by_status ON reports (status, created_at DESC, id DESC);
CREATE INDEX reports_by_reporter ON reports (reporter_id, created_at);

CREATE TABLE audit_log (
  id uuid PRIMARY KEY,
  actor_id uuid NULL,
  action text NOT NULL,
  target_type text NOT NULL,
  target_id text NOT NULL,
  reason text NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX audit_log_time ON audit_log (created_at DESC, id DESC);

CREATE TABLE invites (
  code text PRIMARY KEY,
  created_by uuid NOT NULL,
  uses int NOT NULL CHECK (uses > 0),
  used int NOT NULL DEFAULT 0,
  expires_at timestamptz NULL,
  created_at timestamptz NOT NULL,
  CHECK (used <= uses)
);
CREATE INDEX invites_time ON invites (created_at DESC, code DESC);
`
