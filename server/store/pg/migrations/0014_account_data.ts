/**
 * Deleting an account: its username is held for a while (`reserved_usernames`, by the username's key),
 * so nobody takes it over at once, and the account's old tokens are told apart from a stranger's while
 * it is. `posts_media` finds whether anyone else still shows an upload the account used, and
 * `comments_author` reads an account's comments a page at a time for its export. `posts.imported_at`
 * marks a post brought in from its author's archive.
 */
export const version = 14
export const name = 'account_data'

export const sql = `
CREATE TABLE reserved_usernames (
  username_key text PRIMARY KEY,
  user_id uuid NOT NULL,
  until timestamptz NOT NULL
);
CREATE INDEX reserved_usernames_user ON reserved_usernames (user_id);
CREATE INDEX posts_media ON posts (media_url) WHERE media_url <> '';
CREATE INDEX comments_author ON comments (author_id, seq);
ALTER TABLE posts ADD COLUMN imported_at timestamptz;
`
