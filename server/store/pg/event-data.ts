import type { EventAudience } from '../../schemas/events.js'
import type { LoggedEvent } from '../types.js'

/**
 * An event's `data` as the log keeps it. The audience of the post it concerns (DECISIONS §12), when not
 * everyone may read that post, goes first, as JSON, then a newline, then the JSON a client is sent:
 * JSON.stringify never writes a raw newline, so the first one splits the two, and an event without an
 * audience is its data alone, as every event written before audiences was. Every instance, and every
 * replay, reads the audience back and sends the event only to who may read the post.
 */
export function storedData(data: unknown, audience: EventAudience | undefined): string {
  const json = JSON.stringify(data)
  return audience === undefined ? json : `${JSON.stringify(audience)}\n${json}`
}

/** The client's data and the audience of an event as the log kept it (storedData). */
export function readData(stored: string): Pick<LoggedEvent, 'data' | 'audience'> {
  const cut = stored.indexOf('\n')
  if (cut === -1) return { data: stored }
  return { data: stored.slice(cut + 1), audience: JSON.parse(stored.slice(0, cut)) as EventAudience }
}
