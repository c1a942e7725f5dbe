/**
 * `about` on the outbox and the log names whose post an event carries when that is not its actor's (a
 * repost carries the reposted author's post): a stream leaves the event out for a reader who does not
 * see either of them, on every instance and in every replay.
 */
export const version = 19
export const name = 'event_about'

export const sql = `
ALTER TABLE event_outbox ADD COLUMN about uuid;
ALTER TABLE events ADD COLUMN about uuid;
CREATE INDEX events_about ON events (about) WHERE about IS NOT NULL;
`
