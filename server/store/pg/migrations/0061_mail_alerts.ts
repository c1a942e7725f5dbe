/**
 * E-mail notifications (DECISIONS §15): the kinds each person is mailed about (none until they choose),
 * and how far their mail has gone, so a burst of notifications is sent as one mail.
 */
export const version = 61
export const name = 'mail_alerts'

export const sql = `
ALTER TABLE users ADD COLUMN mail_alerts text[] NOT NULL DEFAULT '{}';
ALTER TABLE users ADD COLUMN mailed_through timestamptz;
`
