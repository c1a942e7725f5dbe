import { MARKER_TIMELINES, type MarkerRecord, type MarkerTimeline } from '../store/client-app-types.js'

export { MARKER_TIMELINES, type MarkerRecord, type MarkerTimeline }
import { notFound, MSG } from '../errors.js'
import type { ServiceDeps } from './deps.js'

/** Where a person stopped reading their home timeline and notifications, shared by all their apps. */
export function createMarkersService({ store, now }: ServiceDeps) {
  return {
    /** The person's markers of the timelines asked for (every one when none is named). */
    async get(userId: string, timelines: readonly MarkerTimeline[]): Promise<MarkerRecord[]> {
      const wanted = new Set(timelines.length === 0 ? MARKER_TIMELINES : timelines)
      return (await store.listMarkers(userId)).filter((marker) => wanted.has(marker.timeline))
    },

    /** Moves each marker given, in one step; the markers as they now are. */
    async set(userId: string, changes: Partial<Record<MarkerTimeline, string>>): Promise<MarkerRecord[]> {
      const at = now().toISOString()
      return store.transaction(async (tx) => {
        const set: MarkerRecord[] = []
        for (const timeline of MARKER_TIMELINES) {
          const lastReadId = changes[timeline]
          if (lastReadId === undefined) continue
          const marker = await tx.setMarker(userId, timeline, lastReadId, at)
          if (!marker) throw notFound(MSG.userNotRegistered)
          set.push(marker)
        }
        return set
      })
    },
  }
}

export type MarkersService = ReturnType<typeof createMarkersService>
