/**
 * Federation (DECISIONS §14). `actor_keys`: one row a person whose actor was asked for, apart from `users`
 * so the reads of people never carry it; the private keys are sealed by the server before they are
 * written. `federation_kv`: what Fedify keeps (fetched documents and keys, replay guards), shared by every
 * instance; a row past `expires_at` counts as absent, and
 * expired rows are deleted now and then by the writes.
 */
export const version = 26
export const name = 'federation'

export const sql = `
CREATE TABLE actor_keys (
  user_id uuid PRIMARY KEY REFERENCES users ON DELETE CASCADE,
  rsa_public text NOT NULL,
  rsa_private text NOT NULL,
  ed25519_public text NOT NULL,
  ed25519_private text NOT NULL,
  created_at timestamptz NOT NULL
);

CREATE TABLE federation_kv (
  key text PRIMARY KEY,
  value text NOT NULL,
  expires_at timestamptz
);

CREATE INDEX federation_kv_expires ON federation_kv (expires_at) WHERE expires_at IS NOT NULL;
`
