/**
 * The event log by person: a signed-in request reads the newest event its user caused or received
 * (store/pg/pg-store.ts, getTokenHolder) and waits only for that much of the log, so a writer reads their
 * own writes through any instance without every reader waiting on everyone's.
 */
export const version = 17
export const name = 'event_people'

export const sql = `
CREATE INDEX events_actor ON events (actor, seq) WHERE actor IS NOT NULL;
CREATE INDEX events_recipient ON events (recipient, seq) WHERE recipient IS NOT NULL;
`
