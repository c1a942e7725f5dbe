import { randomUUID } from 'node:crypto'
import type { Sql } from 'postgres'
import type { StreamSlots } from '../types.js'

export interface StreamSlotsOptions {
  /** How often this instance marks its slots as still held. */
  refreshMs?: number
  /** How long a slot not marked again is taken to belong to an instance that died without closing. */
  staleMs?: number
  log?: { warn(obj: object, msg: string): void }
}

/**
 * Stream slots in `event_streams`, shared by every instance of the schema. A claim counts the user's
 * rows and adds one in a transaction holding an advisory lock on that user, so two instances cannot both
 * take the last slot; it first drops the user's stale rows, so places held by a dead instance come back.
 */
export function createPgStreamSlots(
  sql: Sql,
  { refreshMs = 15_000, staleMs = 60_000, log }: StreamSlotsOptions = {},
): StreamSlots {
  const instance = randomUUID()
  const refresh = setInterval(() => {
    sql`update event_streams set seen_at = now() where instance = ${instance}`.catch((err: unknown) =>
      log?.warn({ err }, 'stream slots could not be marked as held; they lapse if this goes on'),
    )
  }, refreshMs)
  // Streams keep the process alive on their own; the timer must not.
  refresh.unref()

  return {
    async claim(userId, max) {
      const id = randomUUID()
      const rows = await sql.begin(async (tx) => {
        await tx`select pg_advisory_xact_lock(hashtext('chirp.streams'), hashtext(${userId}))`
        await tx`
          delete from event_streams
          where user_id = ${userId} and seen_at < now() - ${staleMs / 1000} * interval '1 second'`
        return tx`
          insert into event_streams (id, user_id, instance)
          select ${id}, ${userId}, ${instance}
          where (select count(*) from event_streams where user_id = ${userId}) < ${max}
          returning id`
      })
      return rows.length > 0 ? id : undefined
    },
    async release(slot) {
      await sql`delete from event_streams where id = ${slot}`
    },
    async close() {
      clearInterval(refresh)
      await sql`delete from event_streams where instance = ${instance}`
    },
  }
}
