import type { Sql } from 'postgres'
import type { LoggedEvent, ReplayRequest } from '../types.js'
import { readData } from './event-data.js'

/** app_settings' key for the newest seq pruning has deleted: a client whose last id is below it missed events for good. */
export const PRUNED_KEY = 'events_pruned_through'

/** A replay longer than this is cheaper as a refetch; as many as an instance's own buffer holds. */
export const MAX_REPLAY = 1000

interface ReplayRow {
  reset: boolean
  seq: string | null
  name: string | null
  recipient: string | null
  actor: string | null
  about: string | null
  data: string | null
}

/**
 * The events a reconnecting client missed, or undefined when it must refetch. Whether it must is
 * decided before a single event is read: `after` is below the oldest event kept or below what pruning
 * deleted (found by the primary key and one setting), or more than MAX_REPLAY events follow it (an
 * index-only count, in key order, that stops at MAX_REPLAY + 1). Then at most that many events are read, but sent
 * back only when their data fits `maxBytes`. One statement, so pruning cannot fall between the checks and
 * the read: a client id of 1, or of last week, costs a few index lookups, never the log.
 */
export async function replayFrom(sql: Sql, { after, upTo, userId, maxBytes }: ReplayRequest) {
  const rows = await sql<ReplayRow[]>`
    with bound as materialized (
      select ${after} < coalesce((select value::bigint from app_settings where key = ${PRUNED_KEY}), 0)
          or ${after} < coalesce((select min(seq) from events), 0)
          or exists (
            select 1 from events where seq > ${after} and seq <= ${upTo} order by seq offset ${MAX_REPLAY}
          ) as reset
    ), missed as materialized (
      select seq, name, recipient, actor, about, data from events
      where not (select reset from bound)
        and seq > ${after} and seq <= ${upTo} and (recipient is null or recipient::text = ${userId})
    ), verdict as (
      select (select reset from bound) or coalesce((select sum(octet_length(data)) from missed), 0) > ${maxBytes} as reset
    )
    select verdict.reset, missed.seq::text as seq, missed.name, missed.recipient::text as recipient,
      missed.actor::text as actor, missed.about::text as about, missed.data
    from verdict left join missed on not verdict.reset
    order by missed.seq`
  if (rows[0]?.reset !== false) return undefined
  return rows.flatMap(({ seq, name, recipient, actor, about, data }): LoggedEvent[] =>
    seq === null || name === null || data === null
      ? []
      : [
          {
            id: Number(seq),
            name,
            ...readData(data),
            to: recipient ?? undefined,
            by: actor ?? undefined,
            about: about ?? undefined,
          },
        ],
  )
}
