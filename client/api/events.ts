import { http } from './http.js'

/** A single-use ticket for one event stream (docs/api-contract.md §7): an EventSource cannot send the token itself. */
export async function apiGetEventTicket(): Promise<string> {
  const reply = await http<{ ticket: string }>('/events/ticket', { method: 'POST' })
  return reply.ticket
}

/**
 * The stream's address. `lastEventId` asks for what was missed since that event: a new EventSource
 * cannot send the Last-Event-ID header, so the server reads it from the query as well.
 */
export function eventStreamUrl(ticket: string, lastEventId: string | undefined): string {
  const query = new URLSearchParams({ ticket })
  if (lastEventId !== undefined) query.set('lastEventId', lastEventId)
  return `/api/events?${query.toString()}`
}
