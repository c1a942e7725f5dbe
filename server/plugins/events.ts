import type { ServerResponse } from 'node:http'
import type {} from 'fastify'
import type { ChirpEvent } from '../schemas/events.js'
import { createTicketStore } from './event-tickets.js'

export { redactUrl } from './redact-url.js'

/** The live-updates hub (DECISIONS §3): one writer fanning serialised events out to every open stream. */
export interface EventsHubOptions {
  /** Events kept for replay after Last-Event-ID. */
  bufferSize?: number
  /** A stream whose queued, unsent bytes would pass this is dropped, so a stalled reader cannot grow memory. */
  maxUnsentBytes?: number
  heartbeatMs?: number
  maxStreamsPerUser?: number
  ticketTtlMs?: number
  /** Outstanding tickets kept at most; past it the oldest is forgotten, so issuing cannot grow memory either. */
  maxTickets?: number
  retryMs?: number
  /** How long close() lets a stream flush its tail before destroying it. */
  closeGraceMs?: number
  now?: () => number
  /**
   * The id before the first event. By default the clock in ms × 1000, so ids keep rising across restarts
   * and a Last-Event-ID from an earlier process always reads as a gap rather than as a wrong replay.
   */
  startId?: number
  log?: { warn(obj: object, msg: string): void }
}

export interface StreamOptions {
  userId: string
  /** The Last-Event-ID header as sent, if any. */
  lastEventId?: string | undefined
}

export interface EventsHub {
  publish(event: ChirpEvent): void
  issueTicket(userId: string): string
  /** The ticket's user id, once: a ticket is gone after its first redemption, valid or not. */
  redeemTicket(ticket: string): string | undefined
  /**
   * At logout: ends the user's open streams and voids their outstanding tickets, so nothing issued under
   * the old session keeps delivering the user's events, private ones included.
   */
  endUser(userId: string): void
  /** Whether the user may open one more stream now. */
  canStream(userId: string): boolean
  /** Writes the event-stream head to `res` and keeps it until either side closes. */
  stream(res: ServerResponse, options: StreamOptions): void
  /** Open streams. */
  readonly size: number
  /** The newest event id. */
  readonly lastId: number
  /** Ends every stream; later streams are ended at once and publishing stops. */
  close(): Promise<void>
}

declare module 'fastify' {
  interface FastifyInstance {
    events: EventsHub
  }
}

export const SSE_HEADERS = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  'Cache-Control': 'no-store',
  Connection: 'keep-alive',
  // Stops nginx and similar proxies from buffering the stream.
  'X-Accel-Buffering': 'no',
} as const

interface Client {
  res: ServerResponse
  userId: string
}

interface Buffered {
  id: number
  to: string | undefined
  frame: Buffer
}

const HEARTBEAT = Buffer.from(': heartbeat\n\n')

export function createEventsHub(options: EventsHubOptions = {}): EventsHub {
  const bufferSize = options.bufferSize ?? 1000
  const maxUnsentBytes = options.maxUnsentBytes ?? 1024 * 1024
  const maxStreamsPerUser = options.maxStreamsPerUser ?? 10
  const retryMs = options.retryMs ?? 3000
  const closeGraceMs = options.closeGraceMs ?? 1000
  const now = options.now ?? Date.now
  const log = options.log

  let lastId = options.startId ?? Math.floor(now()) * 1000
  let closed = false
  const buffer: Buffered[] = []
  const clients = new Set<Client>()
  const byUser = new Map<string, Set<Client>>()
  const tickets = createTicketStore(options.ticketTtlMs ?? 60_000, options.maxTickets ?? 10_000, now)

  const heartbeat = setInterval(() => {
    for (const client of clients) send(client, HEARTBEAT)
  }, options.heartbeatMs ?? 15_000)
  // Streams keep the process alive on their own; the timer must not.
  heartbeat.unref()

  function remove(client: Client): void {
    clients.delete(client)
    const mine = byUser.get(client.userId)
    mine?.delete(client)
    if (mine?.size === 0) byUser.delete(client.userId)
  }

  // Every write to a client goes through here, so one broken or stalled client never reaches the others.
  function send(client: Client, chunk: Buffer): void {
    try {
      const queued = client.res.writableLength
      if (queued > 0 && queued + chunk.length > maxUnsentBytes) {
        log?.warn({ userId: client.userId, queued }, 'dropping an event stream that stopped reading')
        remove(client)
        client.res.destroy()
        return
      }
      client.res.write(chunk)
    } catch (err) {
      log?.warn({ userId: client.userId, err }, 'dropping an event stream that failed a write')
      remove(client)
      client.res.destroy()
    }
  }

  /** What a reconnecting client missed, or undefined when that can no longer be told from the buffer. */
  function missed(client: Client, lastEventId: string): Buffered[] | undefined {
    const after = /^\d{1,16}$/.test(lastEventId) ? Number(lastEventId) : Number.NaN
    const oldest = buffer[0]?.id ?? lastId + 1
    if (!(after >= oldest - 1 && after <= lastId)) return undefined
    const events = buffer.filter((e) => e.id > after && (e.to === undefined || e.to === client.userId))
    // A replay bigger than the send bound would get the client dropped; a refetch is cheaper anyway.
    const bytes = events.reduce((sum, e) => sum + e.frame.length, 0)
    return bytes > maxUnsentBytes ? undefined : events
  }

  function stream(res: ServerResponse, { userId, lastEventId }: StreamOptions): void {
    res.writeHead(200, SSE_HEADERS)
    const client: Client = { res, userId }
    send(client, Buffer.from(`: connected\nretry: ${retryMs}\n\n`))
    if (closed) {
      res.end()
      return
    }
    const replay = lastEventId === undefined ? [] : missed(client, lastEventId)
    if (replay === undefined) {
      send(client, Buffer.from(`id: ${lastId}\nevent: reset\ndata: {}\n\n`))
    } else {
      for (const event of replay) send(client, event.frame)
      // An id-only message moves the client's Last-Event-ID to now without dispatching an event, so a
      // client that drops before the next event still resumes from the right place.
      send(client, Buffer.from(`id: ${lastId}\n\n`))
    }
    // Gone already (the peer left, or the replay overflowed): its 'close' has fired or will not matter.
    if (res.destroyed) return
    clients.add(client)
    let mine = byUser.get(userId)
    if (!mine) byUser.set(userId, (mine = new Set()))
    mine.add(client)
    res.on('close', () => remove(client))
    // A response with no error listener would crash the process on a socket error.
    res.on('error', () => remove(client))
  }

  function endClient({ res }: Client): Promise<void> {
    return new Promise((resolve) => {
      // A reader that stopped reading never lets end() flush, so it is cut off after the grace period.
      const timer = setTimeout(() => {
        res.destroy()
        resolve()
      }, closeGraceMs)
      res.once('close', () => {
        clearTimeout(timer)
        resolve()
      })
      res.end()
    })
  }

  return {
    publish(event) {
      if (closed) return
      const id = ++lastId
      const frame = Buffer.from(`id: ${id}\nevent: ${event.name}\ndata: ${JSON.stringify(event.data)}\n\n`)
      buffer.push({ id, to: event.to, frame })
      if (buffer.length > bufferSize) buffer.shift()
      const targets = event.to === undefined ? clients : byUser.get(event.to)
      for (const client of targets ?? []) send(client, frame)
    },
    issueTicket: (userId) => tickets.issue(userId),
    redeemTicket: (ticket) => tickets.redeem(ticket),
    endUser(userId) {
      tickets.revokeUser(userId)
      const mine = [...(byUser.get(userId) ?? [])]
      for (const client of mine) remove(client)
      // The logout answers at once; each stream gets the same grace to flush its tail as at shutdown.
      void Promise.all(mine.map(endClient))
    },
    canStream(userId) {
      return (byUser.get(userId)?.size ?? 0) < maxStreamsPerUser
    },
    stream,
    get size() {
      return clients.size
    },
    get lastId() {
      return lastId
    },
    async close() {
      closed = true
      clearInterval(heartbeat)
      tickets.clear()
      const open = [...clients]
      for (const client of open) remove(client)
      await Promise.all(open.map(endClient))
    },
  }
}
