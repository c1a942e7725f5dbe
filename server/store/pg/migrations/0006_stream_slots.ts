/**
 * The per-user cap on event streams, counted across every instance (docs/api-contract.md §7).
 *
 * One row a stream open anywhere, taken under an advisory lock on its user, so two instances cannot
 * both take the last place. Each instance keeps its own rows' `seen_at` fresh while it lives and
 * deletes them as it closes; those of an instance that died without closing lapse once stale.
 * Unlogged, like the tickets: the rows are about live connections, which a crash of the database ends.
 */
export const version = 6
export const name = 'stream_slots'

export const sql = `
CREATE UNLOGGED TABLE event_streams (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL,
  instance uuid NOT NULL,
  seen_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX event_streams_user ON event_streams (user_id);
CREATE INDEX event_streams_instance ON event_streams (instance);
`
