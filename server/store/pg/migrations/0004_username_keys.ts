import type { Queryable } from '../connect.js'
import { laterLookAlikes, usernameKey, usernameSkeleton } from '../../../usernames.js'

/**
 * Usernames compared by one normalisation (server/usernames.ts) on both stores, and look-alike names
 * refused (docs/api-contract.md §4).
 *
 * - `username_key` is the name's usernameKey, worked out by the server, not by `lower()`: PostgreSQL
 *   folds letters such as "İ" and "K" by its own rules, which are not JavaScript's and which change
 *   with the database's locale. Its unique index replaces the one on `lower(username)` and, being in
 *   byte order ("C"), the one `@name` prefixes were read from.
 * - `username_skeleton` is the name's usernameSkeleton, under a unique index, so two look-alike signups
 *   at once cannot both win. Accounts made before look-alikes were refused keep their names: the oldest
 *   of each skeleton holds it, the later ones have none (an index holds any number of NULLs).
 */
export const version = 4
export const name = 'username_keys'

export const sql = `
ALTER TABLE users ADD COLUMN username_key text COLLATE "C", ADD COLUMN username_skeleton text COLLATE "C";
DROP INDEX users_username_ci;
DROP INDEX users_username_bytes;
CREATE UNIQUE INDEX users_username_key ON users (username_key);
CREATE UNIQUE INDEX users_username_skeleton ON users (username_skeleton);
`

const BATCH = 1000

/**
 * Fills both columns from the server's functions, which SQL cannot run, in batches, oldest account
 * first; then every row has a key, and the column says so from here on.
 */
export async function backfill(sql: Queryable): Promise<void> {
  const held = new Set<string>()
  for (let after: { created_at: Date; id: string } | undefined; ;) {
    const batch = await sql<{ id: string; username: string; created_at: Date }[]>`
      SELECT id, username, created_at FROM users
      ${after ? sql`WHERE (created_at, id) > (${after.created_at}, ${after.id}::uuid)` : sql``}
      ORDER BY created_at, id LIMIT ${BATCH}`
    if (batch.length === 0) break
    const users = batch.map((row) => ({ _id: row.id, username: row.username }))
    const later = laterLookAlikes(users, held)
    const rows = users.map((user) => ({
      id: user._id,
      key: usernameKey(user.username),
      skeleton: later.has(user._id) ? null : usernameSkeleton(user.username),
    }))
    await sql`
      UPDATE users u SET username_key = t.key, username_skeleton = t.skeleton
      FROM json_to_recordset(${sql.json(rows)}::json) AS t (id uuid, key text, skeleton text)
      WHERE u.id = t.id`
    after = batch.at(-1)
  }
  await sql`ALTER TABLE users ALTER COLUMN username_key SET NOT NULL`
}
