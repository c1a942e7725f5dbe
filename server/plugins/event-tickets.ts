import { randomBytes } from 'node:crypto'

/**
 * Stream tickets (DECISIONS §3): an EventSource cannot send an authorization header, and a token must never
 * sit in a URL, so a protected call trades the token for a short-lived, single-use ticket instead.
 */
export interface TicketStore {
  issue(userId: string): string
  /** The ticket's user id, once: a ticket is gone after its first redemption, valid or not. */
  redeem(ticket: string): string | undefined
  /** Voids every outstanding ticket of the user, as at logout. */
  revokeUser(userId: string): void
  clear(): void
}

export function createTicketStore(ttlMs: number, maxTickets: number, now: () => number): TicketStore {
  const tickets = new Map<string, { userId: string; expiresAt: number }>()

  function sweep(): void {
    const t = now()
    // Insertion order is expiry order, since every ticket lives equally long.
    for (const [ticket, entry] of tickets) {
      if (entry.expiresAt > t && tickets.size <= maxTickets) break
      tickets.delete(ticket)
    }
  }

  return {
    issue(userId) {
      const ticket = randomBytes(32).toString('base64url')
      tickets.set(ticket, { userId, expiresAt: now() + ttlMs })
      sweep()
      return ticket
    },
    redeem(ticket) {
      const entry = tickets.get(ticket)
      tickets.delete(ticket)
      return entry && entry.expiresAt > now() ? entry.userId : undefined
    },
    revokeUser(userId) {
      // Logout is rare and the map is bounded by maxTickets, so a scan costs less than a second index.
      for (const [ticket, entry] of tickets) if (entry.userId === userId) tickets.delete(ticket)
    },
    clear() {
      tickets.clear()
    },
  }
}
