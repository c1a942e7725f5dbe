/**
 * Blocks and mutes (docs/api-contract.md §11), and the person each event is about.
 *
 * A block or a mute is one row, numbered by `activity_seq` like follows, so each person's list pages
 * by it, the most recent first; `blocks_blocked` answers who blocks a reader. A mute's `until` is NULL
 * for ever; one past its end is simply not in effect, and is replaced at the next mute of the same person.
 * `actor` on the outbox and the log names whose post, comment or action an event shows, so each
 * stream can leave out the events of people hidden from its reader, on every instance.
 */
export const version = 7
export const name = 'blocks_mutes'

export const sql = `
CREATE TABLE blocks (
  blocker_id uuid NOT NULL REFERENCES users ON DELETE CASCADE,
  blocked_id uuid NOT NULL REFERENCES users ON DELETE CASCADE,
  seq bigint NOT NULL DEFAULT nextval('activity_seq'),
  created_at timestamptz NOT NULL,
  PRIMARY KEY (blocker_id, blocked_id),
  CHECK (blocker_id <> blocked_id)
);
CREATE INDEX blocks_page ON blocks (blocker_id, seq);
CREATE INDEX blocks_blocked ON blocks (blocked_id);
CREATE TABLE mutes (
  muter_id uuid NOT NULL REFERENCES users ON DELETE CASCADE,
  muted_id uuid NOT NULL REFERENCES users ON DELETE CASCADE,
  seq bigint NOT NULL DEFAULT nextval('activity_seq'),
  created_at timestamptz NOT NULL,
  until timestamptz,
  PRIMARY KEY (muter_id, muted_id),
  CHECK (muter_id <> muted_id)
);
CREATE INDEX mutes_page ON mutes (muter_id, seq);
ALTER TABLE event_outbox ADD COLUMN actor uuid;
ALTER TABLE events ADD COLUMN actor uuid;
`
