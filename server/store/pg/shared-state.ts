import { createHash, randomBytes } from 'node:crypto'
import type { Sql } from 'postgres'
import type { TicketStore } from '../types.js'

const hash = (ticket: string) => createHash('sha256').update(ticket).digest()

/**
 * Stream tickets every instance can redeem, once: only a hash is stored, so the table never holds a
 * usable ticket, and redeeming deletes the row, so two instances cannot both accept one.
 */
export function createPgTicketStore(sql: Sql, { ttlMs = 60_000, maxPerUser = 20 } = {}): TicketStore {
  return {
    async issue({ userId, tokenId }) {
      const ticket = randomBytes(32).toString('base64url')
      await sql.begin(async (tx) => {
        await tx`
          insert into sse_tickets (hash, user_id, token_id, expires_at)
          values (${hash(ticket)}, ${userId}, ${tokenId ?? null}, now() + ${ttlMs / 1000} * interval '1 second')`
        // A user asking again and again keeps only the newest few: issuing cannot grow the table without end.
        await tx`
          delete from sse_tickets where user_id = ${userId} and hash not in (
            select hash from sse_tickets where user_id = ${userId} order by expires_at desc limit ${maxPerUser})`
      })
      return ticket
    },
    // A ticket whose token was logged out on another instance a moment ago is refused here as well.
    async redeem(ticket) {
      const [row] = await sql<{ user_id: string; token_id: string | null; live: boolean }[]>`
        delete from sse_tickets t where hash = ${hash(ticket)}
        returning user_id::text as user_id, token_id, expires_at > now()
          and not exists (select 1 from revoked_tokens r where r.token_id = t.token_id) as live`
      if (!row?.live) return undefined
      return row.token_id === null ? { userId: row.user_id } : { userId: row.user_id, tokenId: row.token_id }
    },
    async revokeUser(userId) {
      await sql`delete from sse_tickets where user_id = ${userId}`
    },
    async revokeToken(tokenId) {
      await sql`delete from sse_tickets where token_id = ${tokenId}`
    },
    // Tickets are shared with the other instances and expire on their own.
    clear() {},
  }
}

/** The JWT secret every instance signs with when JWT_SECRET is unset: made once, by whichever instance starts first. */
export function sharedJwtSecret(sql: Sql): Promise<string> {
  return sharedSetting(sql, 'jwt_secret', randomBytes(32).toString('base64url'))
}

/** A setting every instance shares: `fresh`, if no instance has stored one yet. */
export async function sharedSetting(sql: Sql, key: string, fresh: string): Promise<string> {
  await sql`insert into app_settings (key, value) values (${key}, ${fresh}) on conflict (key) do nothing`
  const [row] = await sql<{ value: string }[]>`select value from app_settings where key = ${key}`
  if (!row) throw new Error(`the shared setting ${key} could not be stored`)
  return row.value
}
