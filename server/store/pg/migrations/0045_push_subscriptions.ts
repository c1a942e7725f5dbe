/**
 * Web Push (DECISIONS §15): each token's push subscription, with the kinds of notification it wants and
 * from whom. A subscription goes with its user.
 */
export const version = 45
export const name = 'push_subscriptions'

export const sql = `
CREATE TABLE push_subscriptions (
  token_id text PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users ON DELETE CASCADE,
  endpoint text NOT NULL,
  p256dh text NOT NULL,
  auth text NOT NULL,
  alerts text[] NOT NULL,
  policy text NOT NULL CHECK (policy IN ('all', 'followed', 'follower', 'none')),
  sealed_token text NOT NULL,
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX push_subscriptions_user ON push_subscriptions (user_id);
`
