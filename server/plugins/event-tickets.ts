import { randomBytes } from 'node:crypto'

import type { StreamOwner, TicketStore } from '../store/types.js'

export type { TicketStore }

export function createTicketStore(ttlMs: number, maxTickets: number, now: () => number): TicketStore {
  const tickets = new Map<string, { owner: StreamOwner; expiresAt: number }>()

  function sweep(): void {
    const t = now()
    // Insertion order is expiry order, since every ticket lives equally long.
    for (const [ticket, entry] of tickets) {
      if (entry.expiresAt > t && tickets.size <= maxTickets) break
      tickets.delete(ticket)
    }
  }

  // Logout is rare and the map is bounded by maxTickets, so a scan costs less than a second index.
  function revokeWhere(matches: (owner: StreamOwner) => boolean): void {
    for (const [ticket, entry] of tickets) if (matches(entry.owner)) tickets.delete(ticket)
  }

  return {
    issue(owner) {
      const ticket = randomBytes(32).toString('base64url')
      tickets.set(ticket, { owner: { ...owner }, expiresAt: now() + ttlMs })
      sweep()
      return ticket
    },
    redeem(ticket) {
      const entry = tickets.get(ticket)
      tickets.delete(ticket)
      return entry && entry.expiresAt > now() ? entry.owner : undefined
    },
    revokeUser(userId) {
      revokeWhere((owner) => owner.userId === userId)
    },
    revokeToken(tokenId) {
      revokeWhere((owner) => owner.tokenId === tokenId)
    },
    clear() {
      tickets.clear()
    },
  }
}
