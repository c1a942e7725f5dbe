/**
 * Remote posts (DECISIONS §14): a post of a person of another server is a row of `posts` like any, whose
 * `remote` holds where its note is (its id and page) and its content as sent, sanitized. A note is found
 * by its id through the index, and kept once.
 */
export const version = 30
export const name = 'remote_posts'

export const sql = `
ALTER TABLE posts ADD COLUMN remote jsonb;

CREATE UNIQUE INDEX posts_remote_note ON posts ((remote->>'noteId')) WHERE remote IS NOT NULL;
`
