/**
 * Who sees what (DECISIONS §12): each post's audience and the people it addressed when written, each
 * user's default audience and whether following them takes their approval. Rows already there are
 * public posts of open accounts, as they were.
 */
export const version = 20
export const name = 'audiences'

export const sql = `
ALTER TABLE posts ADD COLUMN visibility text NOT NULL DEFAULT 'public'
  CHECK (visibility IN ('public', 'unlisted', 'followers', 'direct'));
ALTER TABLE posts ADD COLUMN addressed uuid[] NOT NULL DEFAULT '{}';
ALTER TABLE users ADD COLUMN default_visibility text NOT NULL DEFAULT 'public'
  CHECK (default_visibility IN ('public', 'unlisted', 'followers', 'direct'));
ALTER TABLE users ADD COLUMN locked boolean NOT NULL DEFAULT false;
`
