import type { ServerResponse } from 'node:http'
import type { ChirpEvent } from '../schemas/events.js'
import type { LoggedEvent, ReplayRequest, StreamOwner, StreamSlots, TicketStore } from '../store/types.js'
import type { StreamPlace } from './stream-places.js'
import type { ReaderFilters } from './stream-filters.js'
import type { HiddenPeople } from './stream-readers.js'

/** The live-updates hub (docs/api-contract.md §7): one writer fanning serialised events out to every open stream. */
export interface EventsHubOptions {
  /** Events kept for replay after Last-Event-ID. */
  bufferSize?: number
  /** The same buffer's bound in bytes, so a run of large events cannot hold much memory either. */
  bufferBytes?: number
  /** A stream whose queued, unsent bytes would pass this is dropped, so a stalled reader cannot grow memory. */
  maxUnsentBytes?: number
  heartbeatMs?: number
  maxStreamsPerUser?: number
  /** Where streams are counted against that cap across instances; by default each instance counts alone. */
  slots?: StreamSlots
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
  /**
   * Where tickets live; in memory by default. Several instances share one store, so that a ticket issued
   * by one opens a stream on another, once.
   */
  tickets?: TicketStore
  /**
   * Events older than the buffer, from a shared log: the events after `after` up to and including
   * `upTo` that `userId` may see, in order, or undefined when the log no longer reaches back that far
   * or they would take more than `maxBytes` of data (the client refetches instead).
   */
  history?: (request: ReplayRequest) => Promise<LoggedEvent[] | undefined>
  /** Whom a reader does not see (services/visibility.ts): their events are left out of the reader's streams. */
  hiddenFrom?: (userId: string) => Promise<HiddenPeople>
  /**
   * Whom a reader follows (accepted follows): with the audience an event carries, what decides whether it
   * reaches them (DECISIONS §12). Nobody by default, which shows them open posts' events and their own.
   */
  followingOf?: (userId: string) => Promise<readonly string[]>
  /**
   * A reader's keyword filters: those of home leave new posts out of their event streams, or mark them
   * (DECISIONS §15). None by default.
   */
  filtersOf?: (userId: string) => Promise<ReaderFilters>
}

export interface StreamOptions extends StreamOwner {
  /** The place reserveStream gave; the stream holds it until it ends. */
  place?: StreamPlace | undefined
  /** The Last-Event-ID header as sent, if any. */
  lastEventId?: string | undefined
}

/**
 * A stream that takes each event as the log holds it, to speak a protocol of its own (Mastodon's
 * streaming API): the same reader, the same rule of what they may see, another encoding.
 */
export interface EventListener {
  /** An event the reader may see, in log order. */
  event(event: LoggedEvent): void
  /** The hub ended the stream: its token or every session of its user ended, or the hub is closing. */
  end(): void
}

export interface EventsHub {
  /** Gives the event the next id and sends it: for a single process, which is its own log. */
  publish(event: ChirpEvent): void
  /** Sends an event that a shared log has already numbered; ids must rise. */
  deliver(event: LoggedEvent): void
  issueTicket(owner: StreamOwner): Promise<string>
  /** The ticket's owner, once: a ticket is gone after its first redemption, valid or not. */
  redeemTicket(ticket: string): Promise<StreamOwner | undefined>
  /**
   * At logout everywhere: ends the user's open streams on this instance and voids their outstanding
   * tickets, so nothing issued under an old session keeps delivering the user's events.
   */
  endUser(userId: string): Promise<void>
  /** At logout: the same for the streams and tickets of one token, and no other. */
  endToken(owner: Required<StreamOwner>): Promise<void>
  /**
   * Reads whom the user does not see, whom they follow and their keyword filters, before their stream
   * opens, so that it leaves out those people's events, the events of posts the user may not read and the
   * new posts their filters hide.
   */
  watchReader(userId: string): Promise<void>
  /** A place for one more stream of the user, or undefined when they hold as many as they may, anywhere. */
  reserveStream(userId: string): Promise<StreamPlace | undefined>
  /** Writes the event-stream head to `res` and keeps it until either side closes. */
  stream(res: ServerResponse, options: StreamOptions): void
  /**
   * Opens a listening stream, counted and ended like an event stream (its place, its token's logout);
   * the returned function closes it from the listener's side.
   */
  listen(listener: EventListener, options: StreamOwner & { place?: StreamPlace | undefined }): () => void
  /** Whether the reader of a stream open here follows `otherId` (accepted follows), as of the last event delivered. */
  isFollowing(readerId: string, otherId: string): boolean
  /** Open streams. */
  readonly size: number
  /** The newest event id. */
  readonly lastId: number
  /** Ends every stream; later streams are ended at once and publishing stops. */
  close(): Promise<void>
}
