/**
 * The Mastodon client API (DECISIONS §13): the apps registered with POST /api/v1/apps, the authorization
 * codes the sign-in page gives them (each used once, for minutes), and where each person stopped reading
 * their home timeline and notifications. Codes and markers go with their user; codes with their app.
 * Secrets and codes are kept as SHA-256 hashes only.
 */
export const version = 25
export const name = 'client_apps'

export const sql = `
CREATE TABLE oauth_apps (
  client_id text PRIMARY KEY,
  secret_hash text NOT NULL,
  name text NOT NULL,
  website text NULL,
  redirect_uris text[] NOT NULL,
  scopes text[] NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE TABLE oauth_codes (
  code_hash text PRIMARY KEY,
  client_id text NOT NULL REFERENCES oauth_apps ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users ON DELETE CASCADE,
  redirect_uri text NOT NULL,
  scopes text[] NOT NULL,
  code_challenge text NULL,
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX oauth_codes_expiry ON oauth_codes (expires_at);
CREATE INDEX oauth_codes_user ON oauth_codes (user_id);
CREATE TABLE markers (
  user_id uuid NOT NULL REFERENCES users ON DELETE CASCADE,
  timeline text NOT NULL CHECK (timeline IN ('home', 'notifications')),
  last_read_id text NOT NULL,
  version integer NOT NULL,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (user_id, timeline)
);
`
