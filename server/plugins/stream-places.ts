import type { StreamSlots } from '../store/types.js'

/** One of a user's places for an event stream, from the moment it is reserved until the stream ends. */
export interface StreamPlace {
  readonly userId: string
  /** The stream is open, and counted among the user's streams from now on. */
  open(): void
  /** The stream ended, or never opened: the place is free again, here and on every instance. Once. */
  release(): void
}

export interface StreamPlaces {
  /**
   * A place for one more stream of the user, who holds `open` streams on this instance; undefined when
   * they hold `max` already, counting the places reserved here and, with shared slots, every instance's.
   */
  reserve(userId: string, open: number): Promise<StreamPlace | undefined>
  close(): Promise<void>
}

interface PlacesOptions {
  max: number
  /** Slots shared with other instances; without them this instance's own count is the whole count. */
  slots?: StreamSlots | undefined
  log?: { warn(obj: object, msg: string): void } | undefined
}

/**
 * The cap on one user's streams. Places reserved but not yet open count too, so requests that reserve
 * at once, while a claim in the shared slots is on its way, cannot all squeeze past the cap.
 */
export function createStreamPlaces({ max, slots, log }: PlacesOptions): StreamPlaces {
  const reserving = new Map<string, number>()
  const count = (userId: string, delta: number) => {
    const next = (reserving.get(userId) ?? 0) + delta
    if (next > 0) reserving.set(userId, next)
    else reserving.delete(userId)
  }

  return {
    async reserve(userId, open) {
      if (open + (reserving.get(userId) ?? 0) >= max) return undefined
      count(userId, 1)
      let slot: string | undefined
      try {
        slot = slots ? await slots.claim(userId, max) : undefined
      } catch (error) {
        count(userId, -1)
        throw error
      }
      if (slots && slot === undefined) {
        count(userId, -1)
        return undefined
      }
      let reserved = true
      let held = true
      const opened = () => {
        if (reserved) count(userId, -1)
        reserved = false
      }
      return {
        userId,
        open: opened,
        release() {
          opened()
          if (!held || slot === undefined) return
          held = false
          slots?.release(slot).catch((err: unknown) => {
            log?.warn({ userId, err }, 'a stream slot could not be given back; it lapses by itself')
          })
        },
      }
    },
    // Shutdown goes on with the database away; the slots left behind lapse by themselves.
    async close() {
      await slots?.close().catch((err: unknown) => {
        log?.warn({ err }, 'stream slots could not be given back at shutdown; they lapse by themselves')
      })
    },
  }
}
