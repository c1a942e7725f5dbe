/**
 * Remote people (DECISIONS §14): a person of another server is a row of `users` like anyone, whose
 * `remote` holds where their actor is (its id, inboxes, page and key ids). Their username is `name@host`,
 * unique by its host, so it holds no look-alike skeleton. An actor is found by its id through the index.
 */
export const version = 27
export const name = 'remote_people'

export const sql = `
ALTER TABLE users ADD COLUMN remote jsonb;

CREATE UNIQUE INDEX users_remote_actor ON users ((remote->>'actorId')) WHERE remote IS NOT NULL;
`
