/**
 * Logout ends one token (docs/api-contract.md §1).
 *
 * - `revoked_tokens` holds the id (`jti`) of every token logged out before it expired, until it expires:
 *   every request's token is looked up in it by primary key. The event log's pruning deletes what has
 *   expired, by the expiry index.
 * - A stream ticket remembers the token that asked for it, so logging that token out voids its unused
 *   tickets and ends the streams they opened, and no other. Tickets issued before this column existed
 *   have none, and their streams end only with every token of the user.
 */
export const version = 5
export const name = 'token_revocation'

export const sql = `
CREATE TABLE revoked_tokens (
  token_id text PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users ON DELETE CASCADE,
  expires_at timestamptz NOT NULL
);
CREATE INDEX revoked_tokens_expiry ON revoked_tokens (expires_at);

ALTER TABLE sse_tickets ADD COLUMN token_id text NULL;
CREATE INDEX sse_tickets_token ON sse_tickets (token_id);
`
