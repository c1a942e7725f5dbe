/**
 * Password reset by mail looks accounts up by their address, without regard to case.
 *
 * Two-factor sign-in (docs/api-contract.md §4): one row a user who set it up, apart from `users` so the
 * reads of people, which are many, never carry it. The secret is sealed by the server before it is
 * written; recovery codes are kept as their SHA-256 only. Each spend of a code is one conditional
 * UPDATE of this row, so two instances can never both accept the same code.
 */
export const version = 9
export const name = 'account_security'

export const sql = `
CREATE TABLE two_factor (
  user_id uuid PRIMARY KEY REFERENCES users ON DELETE CASCADE,
  secret text NOT NULL,
  enabled boolean NOT NULL,
  last_step bigint NOT NULL DEFAULT 0,
  recovery_codes text[] NOT NULL DEFAULT '{}'
);

CREATE INDEX users_email ON users (lower(email));
`
