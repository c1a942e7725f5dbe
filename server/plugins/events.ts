import type { ServerResponse } from 'node:http'
import fp from 'fastify-plugin'
import { STORE_CHANGED, type EventName, type EventPayloads } from '../schemas/events.js'
import type { LoggedEvent, StreamOwner } from '../store/types.js'
import { createTicketStore } from './event-tickets.js'
import type { EventListener, EventsHub, EventsHubOptions, StreamOptions } from './events-hub-types.js'
import { createStreamPlaces, type StreamPlace } from './stream-places.js'
import { createStreamFilters } from './stream-filters.js'
import { createStreamFollows } from './stream-follows.js'
import { createStreamReaders } from './stream-readers.js'

export type { EventListener, EventsHub, EventsHubOptions } from './events-hub-types.js'
export { redactUrl } from './redact-url.js'

declare module 'fastify' {
  interface FastifyInstance {
    events: EventsHub
  }
}

const SESSION_ENDED: EventName = 'session.ended'
const FILTERS_CHANGED = 'filters.changed'
/** Events every instance acts on that no client is ever sent. */
const UNSENT: ReadonlySet<string> = new Set([SESSION_ENDED, STORE_CHANGED])

/** The token a `session.ended` names, or undefined when it ends every token of its user. */
function loggedOutToken(data: string): string | undefined {
  const { tokenId } = JSON.parse(data) as EventPayloads['session.ended']
  return typeof tokenId === 'string' ? tokenId : undefined
}

export const SSE_HEADERS = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  'Cache-Control': 'no-store',
  Connection: 'keep-alive',
  // Stops nginx and similar proxies from buffering the stream.
  'X-Accel-Buffering': 'no',
} as const

interface StreamClient extends StreamOwner {
  res: ServerResponse
  listener?: undefined
  place?: StreamPlace | undefined
  /**
   * While a replay from the shared log, or a fresh read of the reader's filters, is on its way: the live
   * frames that arrive meanwhile, in order, that the reader may see.
   */
  pending?: Buffered[]
  /** How many of those are on their way: the frames wait until none is. */
  holds?: number
}

/** A stream that takes the events themselves (EventListener), with no replay: it starts from now. */
interface ListeningClient extends StreamOwner {
  listener: EventListener
  place?: StreamPlace | undefined
}

type Client = StreamClient | ListeningClient

interface Buffered extends Pick<LoggedEvent, 'id' | 'name' | 'to' | 'by' | 'about' | 'audience'> {
  frame: Buffer
}

const HEARTBEAT = Buffer.from(': heartbeat\n\n')
const NOBODY = { people: [], until: undefined }

export function createEventsHub(options: EventsHubOptions = {}): EventsHub {
  const bufferSize = options.bufferSize ?? 1000
  const bufferBytes = options.bufferBytes ?? 4 * 1024 * 1024
  const maxUnsentBytes = options.maxUnsentBytes ?? 1024 * 1024
  const retryMs = options.retryMs ?? 3000
  const closeGraceMs = options.closeGraceMs ?? 1000
  const now = options.now ?? Date.now
  const log = options.log

  let lastId = options.startId ?? Math.floor(now()) * 1000
  let closed = false
  const buffer: Buffered[] = []
  let buffered = 0
  const clients = new Set<Client>()
  const byUser = new Map<string, Set<Client>>()
  const tickets = options.tickets ?? createTicketStore(options.ticketTtlMs ?? 60_000, options.maxTickets ?? 10_000, now)
  const places = createStreamPlaces({ max: options.maxStreamsPerUser ?? 10, slots: options.slots, log })
  const readers = createStreamReaders({ load: options.hiddenFrom ?? (async () => NOBODY), now, log })
  const follows = createStreamFollows(options.followingOf ?? (async () => []))
  const filters = createStreamFilters({
    load: options.filtersOf ?? (async () => ({ filters: [], username: undefined })),
    now,
    log,
  })
  /** The reader has no stream left here: what was kept to filter theirs goes. */
  const forget = (userId: string) => {
    if (byUser.has(userId)) return
    readers.forget(userId)
    follows.forget(userId)
    filters.forget(userId)
  }

  const heartbeat = setInterval(() => {
    for (const client of clients) if (!client.listener) send(client, HEARTBEAT)
  }, options.heartbeatMs ?? 15_000)
  // Streams keep the process alive on their own; the timer must not.
  heartbeat.unref()

  function remove(client: Client): void {
    client.place?.release()
    clients.delete(client)
    const mine = byUser.get(client.userId)
    mine?.delete(client)
    if (mine?.size === 0) byUser.delete(client.userId)
    forget(client.userId)
  }

  // Every write to a client goes through here, so one broken or stalled client never reaches the others.
  function send(client: StreamClient, chunk: Buffer): void {
    if (client.res.destroyed) return
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

  /** The id a client sent, or NaN when it is not one this hub could have given. */
  const idOf = (lastEventId: string) => (/^\d{1,16}$/.test(lastEventId) ? Number(lastEventId) : Number.NaN)

  /**
   * What a reconnecting client missed: from the buffer, 'log' when only the shared log can tell, or
   * undefined when nobody can (the client must refetch).
   */
  function missed(client: StreamClient, after: number): Buffered[] | 'log' | undefined {
    if (!(after <= lastId)) return undefined
    const oldest = buffer[0]?.id ?? lastId + 1
    if (after < oldest - 1) return options.history ? 'log' : undefined
    return fitting(
      framesFor(
        client,
        buffer.filter((e) => e.id > after && visibleTo(e, client)),
      ),
    )
  }

  /**
   * Private events reach their owner only, nobody gets those of people hidden from them, or carrying their
   * post, and an event about a post reaches only who may read the post (DECISIONS §12).
   */
  const visibleTo = (event: Pick<LoggedEvent, 'to' | 'by' | 'about' | 'audience'>, client: Client) =>
    (event.to === undefined || event.to === client.userId) &&
    !readers.hides(client.userId, event.by, event.about) &&
    follows.mayRead(client.userId, event.audience)

  /** The frames as the reader gets them: their home filters leave out or mark new posts (stream-filters.ts). */
  const framesFor = (client: Client, events: readonly Buffered[]): Buffered[] =>
    events.flatMap((event) => {
      const frame = filters.frameFor(client.userId, event)
      return frame === undefined ? [] : [frame === event.frame ? event : { ...event, frame }]
    })

  /** Holds the client's live frames until release(): a replay or a read of its filters is on its way. */
  function hold(client: StreamClient): void {
    client.holds = (client.holds ?? 0) + 1
    client.pending ??= []
  }

  /** Ends one hold; once none is left, sends what waited. The id of the last frame that waited, if any. */
  function release(client: StreamClient): number | undefined {
    client.holds = (client.holds ?? 1) - 1
    if (client.holds > 0) return undefined
    const queued = client.pending ?? []
    client.pending = undefined
    for (const event of framesFor(client, queued)) send(client, event.frame)
    return queued.at(-1)?.id
  }

  /** A replay bigger than the send bound would get the client dropped; a refetch is cheaper anyway. */
  function fitting(events: Buffered[]): Buffered[] | undefined {
    const bytes = events.reduce((sum, e) => sum + e.frame.length, 0)
    return bytes > maxUnsentBytes ? undefined : events
  }

  const resetFrame = (id: number) => Buffer.from(`id: ${id}\nevent: reset\ndata: {}\n\n`)
  /**
   * An id-only message moves the client's Last-Event-ID to `id` without dispatching an event, so a
   * client that drops before the next event still resumes from the right place.
   */
  const markFrame = (id: number) => Buffer.from(`id: ${id}\n\n`)

  /** Replays (after, upTo] from the shared log, then what arrived meanwhile, then lets the client go live. */
  function replayFromLog(client: StreamClient, after: number, upTo: number): void {
    const history = options.history
    if (!history) return
    history({ after, upTo, userId: client.userId, maxBytes: maxUnsentBytes })
      .then((logged) => {
        const shown = logged?.filter((event) => !UNSENT.has(event.name) && visibleTo(event, client))
        const replay = shown && fitting(framesFor(client, shown.map(frameOf)))
        if (replay === undefined) send(client, resetFrame(upTo))
        else for (const event of replay) send(client, event.frame)
      })
      .catch((err: unknown) => {
        log?.warn({ userId: client.userId, err }, 'the event log could not replay; the client refetches')
        send(client, resetFrame(upTo))
      })
      .finally(() => {
        send(client, markFrame(release(client) ?? upTo))
      })
  }

  function stream(res: ServerResponse, { lastEventId, ...owner }: StreamOptions): void {
    const { userId } = owner
    res.writeHead(200, SSE_HEADERS)
    const client: StreamClient = { res, ...owner }
    send(client, Buffer.from(`: connected\nretry: ${retryMs}\n\n`))
    if (closed) {
      client.place?.release()
      forget(userId)
      res.end()
      return
    }
    const after = lastEventId === undefined ? lastId : idOf(lastEventId)
    const replay = missed(client, after)
    if (replay === 'log') {
      hold(client)
      replayFromLog(client, after, lastId)
    } else if (replay === undefined) {
      send(client, resetFrame(lastId))
    } else {
      for (const event of replay) send(client, event.frame)
      send(client, markFrame(lastId))
    }
    // Gone already (the peer left, or the replay overflowed): its 'close' has fired or will not matter.
    if (res.destroyed) {
      client.place?.release()
      forget(userId)
      return
    }
    add(client)
    res.on('close', () => remove(client))
    // A response with no error listener would crash the process on a socket error.
    res.on('error', () => remove(client))
  }

  function add(client: Client): void {
    client.place?.open()
    clients.add(client)
    let mine = byUser.get(client.userId)
    if (!mine) byUser.set(client.userId, (mine = new Set()))
    mine.add(client)
  }

  function listen(listener: EventListener, owner: StreamOwner & { place?: StreamPlace | undefined }): () => void {
    const client: ListeningClient = { listener, ...owner }
    if (closed) {
      client.place?.release()
      forget(owner.userId)
      listener.end()
      return () => undefined
    }
    add(client)
    return () => remove(client)
  }

  /** One listener that fails never stops the others from hearing the event. */
  function hear(client: ListeningClient, event: LoggedEvent): void {
    try {
      client.listener.event(event)
    } catch (err) {
      log?.warn({ userId: client.userId, err }, 'dropping a listening stream that failed an event')
      remove(client)
      client.listener.end()
    }
  }

  function endClient(client: Client): Promise<void> {
    if (client.listener) {
      client.listener.end()
      return Promise.resolve()
    }
    const { res } = client
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

  function frameOf(event: LoggedEvent): Buffered {
    return {
      id: event.id,
      name: event.name,
      to: event.to,
      by: event.by,
      about: event.about,
      audience: event.audience,
      frame: Buffer.from(`id: ${event.id}\nevent: ${event.name}\ndata: ${event.data}\n\n`),
    }
  }

  /** The user's streams, or with `tokenId` only those that token opened. */
  function endStreamsOf(userId: string, tokenId?: string): void {
    const mine = [...(byUser.get(userId) ?? [])].filter((client) => tokenId === undefined || client.tokenId === tokenId)
    for (const client of mine) remove(client)
    // The logout answers at once; each stream gets the same grace to flush its tail as at shutdown.
    void Promise.all(mine.map(endClient))
  }

  function deliver(event: LoggedEvent): void {
    if (closed || event.id <= lastId) return
    lastId = event.id
    // A logout on any instance ends its streams on every instance; it is no news to show a client.
    if (event.name === SESSION_ENDED) {
      if (event.to !== undefined) endStreamsOf(event.to, loggedOutToken(event.data))
      return
    }
    readers.apply(event)
    follows.apply(event)
    if (event.name === FILTERS_CHANGED && event.to !== undefined) reloadFilters(event.to)
    if (UNSENT.has(event.name)) return
    const entry = frameOf(event)
    buffer.push(entry)
    buffered += entry.frame.length
    while (buffer.length > bufferSize || (buffered > bufferBytes && buffer.length > 1)) {
      buffered -= (buffer.shift() as Buffered).frame.length
    }
    const targets = event.to === undefined ? clients : byUser.get(event.to)
    for (const client of targets ?? []) {
      if (!visibleTo(entry, client)) continue
      if (client.listener) hear(client, event)
      else if (client.pending) client.pending.push(entry)
      else {
        const frame = filters.frameFor(client.userId, entry)
        if (frame !== undefined) send(client, frame)
      }
    }
  }

  /**
   * A reader's filters changed (on any instance): their streams here hold what comes next until the
   * filters are read again, so no new post passes under the filters it was written against.
   */
  function reloadFilters(userId: string): void {
    const held = [...(byUser.get(userId) ?? [])].filter((client): client is StreamClient => !client.listener)
    for (const client of held) hold(client)
    void filters.reload(userId).finally(() => {
      for (const client of held) if (client.pending) release(client)
    })
  }

  return {
    publish(event) {
      deliver({
        id: lastId + 1,
        name: event.name,
        data: JSON.stringify(event.data),
        to: event.to,
        by: event.by,
        about: event.about,
        audience: event.audience,
      })
    },
    async watchReader(userId) {
      await Promise.all([readers.watch(userId), follows.watch(userId), filters.watch(userId)])
    },
    deliver,
    issueTicket: async (owner) => tickets.issue(owner),
    redeemTicket: async (ticket) => tickets.redeem(ticket),
    async endUser(userId) {
      await tickets.revokeUser(userId)
      endStreamsOf(userId)
    },
    async endToken({ userId, tokenId }) {
      await tickets.revokeToken(tokenId)
      endStreamsOf(userId, tokenId)
    },
    async reserveStream(userId) {
      return closed ? undefined : places.reserve(userId, byUser.get(userId)?.size ?? 0)
    },
    stream,
    listen,
    isFollowing: (readerId, otherId) => follows.follows(readerId, otherId),
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
      await places.close()
    },
  }
}

/**
 * The hub as the app's `events`, ended with the app. Fastify closes the HTTP server, which waits for every
 * open connection, before any onClose hook runs; streams never end by themselves, so the hub ends them in
 * preClose, or close() would never return.
 */
export default fp<EventsHubOptions>(
  async (app, options) => {
    const hub = createEventsHub({ log: app.log, ...options })
    app.decorate('events', hub)
    app.addHook('preClose', () => hub.close())
  },
  { name: 'events-hub' },
)
