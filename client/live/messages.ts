import type { AudienceEventPayloads, Notification } from '../api/types.js'
import type {
  EventPayloads,
  ModerationEventPayloads,
  NotificationEventPayloads,
  OwnReadingEventPayloads,
} from '../../server/schemas/events.js'

/**
 * Every event the server sends (docs/api-contract.md §7 and §8, and DECISIONS §12's), plus `reset`: the
 * server's word that what is on screen must be refetched. A new notification may be of a type the client
 * knows beyond the schema's (a follow request).
 */
export type LivePayloads = Omit<EventPayloads, 'session.ended'> &
  Omit<NotificationEventPayloads, 'notification.created'> & {
    'notification.created': Notification & { unread: number }
  } & ModerationEventPayloads &
  AudienceEventPayloads &
  OwnReadingEventPayloads & { reset: Record<string, never> }

export type LiveName = keyof LivePayloads

/** One event as it reached this tab, from its own stream or relayed by the tab that holds the stream. */
export type LiveMessage = {
  [K in LiveName]: { name: K; data: LivePayloads[K]; id: string | undefined }
}[LiveName]

/** What a tab's stream hands on: the data is the server's JSON, trusted to match its event's name. */
export type RawMessage = { name: string; data: unknown; id: string | undefined }

/** The smallest part of EventSource the client uses, so tests can stand in for it. */
export interface EventSourceLike {
  addEventListener(type: string, listener: (event: MessageEvent) => void): void
  close(): void
}

/** A live connection as the rest of live/ sees it: one per browser, or one per tab without Web Locks. */
export interface LiveConnection {
  /** The id of the last event received, for a resume. */
  readonly lastEventId: string | undefined
  /** The browser says it is online again: reconnect now instead of waiting out the back-off. */
  online(): void
  /** The browser says it is offline: drop the stream and wait for `online()`. */
  offline(): void
  close(): void
}
