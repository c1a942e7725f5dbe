import type { Sql } from 'postgres'
import type { LoggedEvent, ReplayRequest } from '../types.js'
import { readData } from './event-data.js'
import { PRUNED_KEY, replayFrom } from './event-replay.js'

/**
 * The cluster's event log. Writes put their events in `event_outbox` inside their own transaction; one
 * sequencer at a time (whichever instance holds the advisory lock) moves committed outbox rows into
 * `events`, numbering them in that order, and NOTIFYs the new head. Every instance tails `events` from
 * its own last seq and hands each event to its hub. Only committed rows ever get a seq, and one batch is
 * numbered at a time under the lock, so once a reader has seen seq s nothing below s can appear later:
 * a reader that follows the log never skips an event. Outbox ids alone would not do: they are given at
 * insert, so 41 can commit after 42.
 */
export interface EventLogOptions {
  sql: Sql
  schema: string
  /** The seq to follow from: events up to it are taken as seen. */
  from: number
  /** Called with each event in seq order, once. */
  deliver: (event: LoggedEvent) => void
  log?: { warn(obj: object, msg: string): void }
  /** How often the sequencer looks for committed outbox rows. */
  sequenceEveryMs?: number
  /** A safety net under NOTIFY, for a listen connection that died without a word. */
  pollEveryMs?: number
  pruneEveryMs?: number
  /** Events younger than this are kept for replay… */
  retainMs?: number
  /** …and so are the newest this many, however old. */
  retainCount?: number
}

export interface EventLog {
  /** The seq of the newest event delivered. */
  readonly head: number
  /**
   * Numbers every event committed so far, up to the outbox id `upTo` (sequencing now rather than at the
   * next tick), and delivers it, so that what a write just committed reaches this instance's streams
   * before the write is answered.
   */
  settle(upTo: number): Promise<void>
  /**
   * Resolves once every event up to seq `upTo` has been delivered here: a request that found the log
   * ahead of this instance waits for that much, not for the log to fall quiet.
   */
  catchUp(upTo: number): Promise<void>
  /** The events a reconnecting client missed, or undefined when it must refetch (replayFrom says when). */
  replay(request: ReplayRequest): Promise<LoggedEvent[] | undefined>
  close(): Promise<void>
}

interface EventRow {
  seq: string
  name: string
  recipient: string | null
  actor: string | null
  about: string | null
  data: string
}

const BATCH = 1000
const TAIL_PAGE = 500
const SETTLE_ATTEMPTS = 250

const toEvent = (row: EventRow): LoggedEvent => ({
  id: Number(row.seq),
  name: row.name,
  ...readData(row.data),
  to: row.recipient ?? undefined,
  by: row.actor ?? undefined,
  about: row.about ?? undefined,
})

/** A name for this schema's channel and lock keys, so communities or test runs sharing one database never meet. */
export const channelOf = (schema: string) => `chirp_events_${schema}`

/** The newest seq in the log, or 0 for an empty one. */
export async function logHead(sql: Sql): Promise<number> {
  const [row] = await sql<{ head: string | null }[]>`select max(seq)::text as head from events`
  return Number(row?.head ?? 0)
}

export async function startEventLog(options: EventLogOptions): Promise<EventLog> {
  const { sql, schema, deliver, log } = options
  const channel = channelOf(schema)
  const sequencerLock = `chirp:sequencer:${schema}`
  const retainMs = options.retainMs ?? 15 * 60_000
  const retainCount = options.retainCount ?? 1000

  let head = options.from
  let closed = false

  /**
   * Moves one batch of committed outbox rows into the log, if no other instance is doing it now, and says
   * whether any row up to the outbox id `upTo` is still waiting after it. The lock is a statement of its
   * own, so the batch's statement sees every batch numbered before the lock was granted.
   */
  async function sequence(upTo: number): Promise<boolean> {
    return sql.begin(async (tx) => {
      // Numbering need not wait for its own flush to disk: if it is lost in a crash, its outbox rows are
      // still there and are numbered again (higher, from the clock), and every write it numbers was
      // already flushed when that write committed. One flush less in each write's path.
      const [lock] = await tx<{ locked: boolean }[]>`
        select set_config('synchronous_commit', 'off', true), pg_try_advisory_xact_lock(hashtext(${sequencerLock})) as locked`
      if (!lock?.locked) {
        const [left] = await tx`select 1 from event_outbox where id <= ${upTo} limit 1`
        return left !== undefined
      }
      // Ids start from the clock in ms × 1000, as a lone process's do, so they keep rising across restores.
      // The NOTIFY goes out when this commits; `left` reads the outbox as it was before the batch left it.
      const [row] = await tx<{ left: boolean }[]>`
        with batch as (
          delete from event_outbox
          where id in (select id from event_outbox order by id limit ${BATCH})
          returning id, name, recipient, actor, about, data, created_at
        ), base as (
          select greatest(
            coalesce((select max(seq) from events), 0),
            (extract(epoch from clock_timestamp()) * 1000)::bigint * 1000
          ) as first
        ), logged as (
          insert into events (seq, name, recipient, actor, about, data, created_at)
          select base.first + row_number() over (order by batch.id), batch.name, batch.recipient, batch.actor, batch.about, batch.data, batch.created_at
          from batch, base
          returning seq
        )
        select
          (select pg_notify(${channel}, max(seq)::text) from logged having count(*) > 0) is not null as notified,
          exists (select 1 from event_outbox o where o.id <= ${upTo} and o.id not in (select id from batch)) as left`
      return row?.left ?? false
    })
  }

  /** When this instance's writes last had their events numbered (settle), in ms since the epoch. */
  let settledAt = 0
  const sequenceEveryMs = options.sequenceEveryMs ?? 10

  /**
   * What the timer does: a batch, when any row waits. While this instance's own writes keep the log
   * moving (a settling pass within the last tick) it has nothing to add, and a pass of its own would
   * only hold the lock a settling write is waiting for.
   */
  async function sequenceWaiting(): Promise<void> {
    if (Date.now() - settledAt < sequenceEveryMs) return
    // By the key: a scan of the table would read every row the sequencer has deleted until vacuum runs.
    const [waiting] = await sql`select 1 from event_outbox order by id limit 1`
    if (waiting) await sequence(0)
  }

  let tailing: Promise<void> | undefined
  let again = false
  /** Requests waiting for the log to reach a seq (catchUp), let go as soon as it has. */
  const waiting: { upTo: number; done: () => void }[] = []
  const release = (all: boolean) => {
    for (let i = waiting.length - 1; i >= 0; i--) {
      const waiter = waiting[i] as (typeof waiting)[number]
      if (!all && waiter.upTo > head) continue
      waiting.splice(i, 1)
      waiter.done()
    }
  }
  /** Reads everything past `head` and delivers it; one read at a time, and one more if asked meanwhile. */
  function tail(): Promise<void> {
    if (tailing) {
      again = true
      return tailing
    }
    tailing = (async () => {
      do {
        again = false
        for (;;) {
          // Ordered by the column, events.seq: a bare `seq` would name the text output column, sorting
          // every event past the head as text rather than walking the primary key to the first page.
          const rows = await sql<EventRow[]>`
            select seq::text as seq, name, recipient::text as recipient, actor::text as actor, about::text as about, data
            from events where events.seq > ${head} order by events.seq limit ${TAIL_PAGE}`
          for (const row of rows) {
            const event = toEvent(row)
            head = event.id
            deliver(event)
          }
          release(false)
          if (rows.length < TAIL_PAGE || closed) break
        }
      } while (again && !closed)
    })().finally(() => {
      tailing = undefined
      // Each waiter asked for a pass that began after it came; one that failed lets it go rather than hold it.
      release(true)
    })
    return tailing
  }

  /** Resolves once every event up to `upTo` is delivered (or the pass that should have read it ended). */
  function catchUp(upTo: number): Promise<void> {
    if (head >= upTo || closed) return Promise.resolve()
    const caughtUp = new Promise<void>((done) => waiting.push({ upTo, done }))
    tail().catch(complain('catching up'))
    return caughtUp
  }

  /** Deletes what no reconnecting client can still need, and remembers how far that went. */
  async function prune(): Promise<void> {
    await sql.begin(async (tx) => {
      const [row] = await tx<{ through: string | null }[]>`
        with gone as (
          delete from events
          where created_at < now() - ${retainMs / 1000} * interval '1 second'
            and seq <= (select seq from events order by seq desc offset ${retainCount} limit 1)
          returning seq
        )
        select max(seq)::text as through from gone`
      if (row?.through) {
        await tx`
          insert into app_settings (key, value) values (${PRUNED_KEY}, ${row.through})
          on conflict (key) do update set value = greatest(app_settings.value::bigint, excluded.value::bigint)::text`
      }
      await tx`delete from sse_tickets where expires_at < now()`
      // A token past its expiry is refused by its signature; its revocation is no longer needed.
      await tx`delete from revoked_tokens where expires_at < now()`
    })
  }

  const complain = (what: string) => (err: unknown) => {
    if (!closed) log?.warn({ err }, `event log: ${what} failed; retrying`)
  }

  // Runs `work` every `ms`, never two at once, until closed.
  const timers = new Map<string, NodeJS.Timeout>()
  function every(ms: number, what: string, work: () => Promise<void>) {
    const run = () => {
      if (closed) return
      work()
        .catch(complain(what))
        .finally(() => {
          if (!closed) timers.set(what, setTimeout(run, ms).unref())
        })
    }
    timers.set(what, setTimeout(run, ms).unref())
  }

  // LISTEN reconnects by itself and calls the second callback after each (re)connect: the catch-up hook.
  const listening = await sql.listen(
    channel,
    () => void tail().catch(complain('tailing')),
    () => void tail().catch(complain('catching up')),
  )
  every(sequenceEveryMs, 'sequencing', sequenceWaiting)
  every(options.pollEveryMs ?? 1000, 'polling', tail)
  every(options.pruneEveryMs ?? 60_000, 'pruning', prune)

  /**
   * One settling pass at a time on this instance, numbering up to the highest outbox id asked for since
   * the last pass began: writes answered together share one numbering and one read of the log, rather
   * than each queueing for the sequencer's lock. A write that asks during a pass waits for the next one,
   * which begins after its commit and so sees its rows.
   */
  let settleUpTo = 0
  let settling: Promise<void> | undefined
  let nextSettle: Promise<void> | undefined
  async function settlePass(): Promise<void> {
    const upTo = settleUpTo
    settleUpTo = 0
    // Another instance may hold the sequencer's lock for a moment: try again, a bounded number of times.
    for (let attempt = 0; attempt < SETTLE_ATTEMPTS && !closed; attempt++) {
      if (!(await sequence(upTo))) break
      await new Promise((resolve) => setTimeout(resolve, 2))
    }
    settledAt = Date.now()
    await tail()
  }
  function settle(upTo: number): Promise<void> {
    settleUpTo = Math.max(settleUpTo, upTo)
    if (!settling) {
      settling = settlePass().finally(() => {
        settling = undefined
      })
      return settling
    }
    nextSettle ??= settling
      .catch(() => {})
      .then(() => {
        nextSettle = undefined
        return settle(0)
      })
    return nextSettle
  }

  return {
    get head() {
      return head
    },
    settle,
    catchUp,
    replay: (request) => replayFrom(sql, request),
    async close() {
      closed = true
      for (const timer of timers.values()) clearTimeout(timer)
      await listening.unlisten().catch(() => {})
      await tailing?.catch(() => {})
      release(true)
    },
  }
}
