/**
 * Quote controls (DECISIONS §15): who may quote a person's posts, old and new. Everyone's posts stay
 * open to quotes until they choose otherwise.
 */
export const version = 60
export const name = 'quote_policy'

export const sql = `
ALTER TABLE users ADD COLUMN quote_policy text NOT NULL DEFAULT 'anyone'
  CHECK (quote_policy IN ('anyone', 'followers', 'nobody'));
`
