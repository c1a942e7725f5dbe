/**
 * What a person keeps to shape their own reading (DECISIONS §15): keyword filters (their phrases held with
 * them, a handful each) and lists of people they follow. Both go with their owner; a list's members are
 * ids, of whom only those the owner follows count, so a member's deleted account leaves nothing behind.
 */
export const version = 40
export const name = 'filters_lists'

export const sql = `
CREATE TABLE keyword_filters (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users ON DELETE CASCADE,
  title text NOT NULL,
  contexts text[] NOT NULL,
  action text NOT NULL CHECK (action IN ('warn', 'hide')),
  expires_at timestamptz NULL,
  keywords jsonb NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX keyword_filters_user ON keyword_filters (user_id, created_at, id);
CREATE TABLE people_lists (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users ON DELETE CASCADE,
  title text NOT NULL,
  replies_policy text NOT NULL CHECK (replies_policy IN ('followed', 'list', 'none')),
  exclusive boolean NOT NULL,
  member_ids uuid[] NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX people_lists_user ON people_lists (user_id, created_at, id);
`
