import { randomBytes } from 'node:crypto'

import type { TicketStore } from '../store/types.js'

export type { TicketStore }

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
