import { proxy } from 'valtio'
import { apiGetReports, apiResolveReport } from '../api/moderation.js'
import type { Report, ReportCreated, ResolveAction, Role } from '../api/types.js'
import { emptyPaged, loadPaged } from './paged.js'
import { showError, showToast } from './toasts.js'

export type QueueStatus = 'open' | 'resolved'

const PAGE = 20

const initial = () => ({
  /** Open reports: the badge on Moderation in the navigation. */
  open: 0,
  /** The queue's tab shown, its key being the status. */
  queue: emptyPaged<Report>('open'),
  /** Reports with a resolve call under way. */
  resolving: {} as Record<string, boolean>,
})

export const moderation = proxy(initial())

/** Whether a role may open the moderation pages (DECISIONS §8). */
export const isStaff = (role: Role | undefined) => role === 'moderator' || role === 'admin'

/** Bumped by each change of the count, so a count asked for before it is not taken after it. */
let countVersion = 0

function setOpen(open: number): void {
  countVersion += 1
  moderation.open = open
}

/** Only the open count, for the badge: on sign-in of a moderator, and after a gap in the live events. */
export async function loadOpenCount(): Promise<void> {
  const asked = countVersion
  try {
    const reply = await apiGetReports('open', { limit: 1 })
    if (asked === countVersion) setOpen(reply.open)
  } catch {
    // The badge keeps what it showed; the next live report or visit to the queue corrects it.
  }
}

/** The first page of a tab (fresh, or when the tab changed) or the next one, newest first. */
export function loadQueue(status: QueueStatus, more = false): Promise<void> {
  const asked = countVersion
  return loadPaged(moderation, 'queue', status, more, async (cursor) => {
    const reply = await apiGetReports(status, { limit: PAGE, cursor })
    if (asked === countVersion) setOpen(reply.open)
    return { items: reply.reports, nextCursor: reply.nextCursor ?? null }
  })
}

/** A live `report.created` (moderator streams only): the count, and the report on top of an open queue shown. */
export function receiveReport({ report, open }: ReportCreated): void {
  setOpen(open)
  const { queue } = moderation
  if (queue.key === 'open' && queue.loaded && !queue.items.some((r) => r._id === report._id))
    queue.items.unshift(report)
}

const DONE: Record<ResolveAction, string> = {
  dismiss: 'Report dismissed',
  remove: 'Removed, and the report resolved',
  suspend: 'Suspended, and the report resolved',
}

/** Resolves a report with one action and an optional note; it leaves the open queue. True when it worked. */
export async function resolveReport(id: string, action: ResolveAction, note: string): Promise<boolean> {
  if (moderation.resolving[id]) return false
  moderation.resolving[id] = true
  try {
    await apiResolveReport(id, action, note)
    const { queue } = moderation
    if (queue.key === 'open') queue.items = queue.items.filter((report) => report._id !== id)
    setOpen(Math.max(0, moderation.open - 1))
    showToast(DONE[action], 'success')
    return true
  } catch (error) {
    showError(error)
    // Resolved meanwhile by someone else, say: the count and the queue are read again.
    void loadOpenCount()
    return false
  } finally {
    delete moderation.resolving[id]
  }
}

export function reset(): void {
  countVersion += 1
  Object.assign(moderation, initial())
}
