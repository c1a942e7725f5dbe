import type { EventName, EventPayloads } from '../schemas/events.js'
import type { LoggedEvent } from '../store/types.js'

/** Who is hidden from one reader (services/visibility.ts), as a stream needs it. */
export interface HiddenPeople {
  readonly people: readonly string[]
  /** When the soonest timed mute among them ends, in ms since the epoch. */
  readonly until: number | undefined
}

interface ReaderState {
  hidden: Set<string>
  until: number | undefined
  /** A fresh read under way: the set stays as it is (hiding too much, never too little) until it lands. */
  reloading: boolean
}

const BLOCKED: EventName = 'user.blocked'
const MUTED: EventName = 'user.muted'
const LIFTED: ReadonlySet<string> = new Set<EventName>(['user.unblocked', 'user.unmuted'])
const SUSPENDED = 'user.suspended'
const UNSUSPENDED = 'user.unsuspended'

/**
 * Whom each reader with a stream open on this instance does not see, so each stream leaves out the events
 * `by` those people. Kept from the first stream of a reader to their last. A block or a mute comes
 * through the event log like any event, so every instance applies it in log order, before the events
 * after it: a block hides at once on both sides, a mute for whoever mutes. Lifting either reads the
 * reader's people again, as does the end of a timed mute.
 */
export function createStreamReaders(options: {
  load: (userId: string) => Promise<HiddenPeople>
  now: () => number
  log?: { warn(obj: object, msg: string): void } | undefined
}) {
  const readers = new Map<string, ReaderState>()

  function reload(userId: string): void {
    const state = readers.get(userId)
    if (!state || state.reloading) return
    state.reloading = true
    options
      .load(userId)
      .then((fresh) => {
        // Set aside meanwhile when the reader's last stream ended: nothing to keep.
        if (readers.get(userId) !== state) return
        state.hidden = new Set(fresh.people)
        state.until = fresh.until
      })
      .catch((err: unknown) => options.log?.warn({ userId, err }, 'could not read whom a reader hides; kept as it was'))
      .finally(() => {
        state.reloading = false
      })
  }

  function hide(userId: string, other: string, until?: number): void {
    const state = readers.get(userId)
    if (!state) return
    state.hidden.add(other)
    if (until !== undefined) state.until = Math.min(state.until ?? until, until)
  }

  return {
    /** Reads whom the reader hides, unless a stream of theirs here knows already. */
    async watch(userId: string): Promise<void> {
      if (readers.has(userId)) return
      const { people, until } = await options.load(userId)
      if (!readers.has(userId)) readers.set(userId, { hidden: new Set(people), until, reloading: false })
    },

    /** The reader's last stream here ended. */
    forget(userId: string): void {
      readers.delete(userId)
    },

    /** Whether the event, by `by` and carrying the posts of `about`, is left out of the reader's streams. */
    hides(userId: string, ...people: (string | undefined)[]): boolean {
      const state = readers.get(userId)
      if (!state || people.every((person) => person === undefined)) return false
      if (state.until !== undefined && options.now() >= state.until) {
        state.until = undefined
        reload(userId)
      }
      return people.some((person) => person !== undefined && state.hidden.has(person))
    },

    /** Takes a block, a mute or the lifting of either into account, before the events after it are sent. */
    apply(event: LoggedEvent): void {
      // A suspended user is hidden from every reader (services/visibility.ts); a lifted suspension is read afresh.
      if (event.name === SUSPENDED) {
        const { userId } = JSON.parse(event.data) as { userId: string }
        for (const reader of readers.keys()) if (reader !== userId) hide(reader, userId)
        return
      }
      if (event.name === UNSUSPENDED) {
        for (const reader of readers.keys()) reload(reader)
        return
      }
      const actor = event.to
      if (actor === undefined) return
      if (event.name === BLOCKED) {
        const { user } = JSON.parse(event.data) as EventPayloads['user.blocked']
        hide(actor, user._id)
        hide(user._id, actor)
      } else if (event.name === MUTED) {
        const { user, until } = JSON.parse(event.data) as EventPayloads['user.muted']
        hide(actor, user._id, until === null ? undefined : Date.parse(until))
      } else if (LIFTED.has(event.name)) {
        const { user } = JSON.parse(event.data) as EventPayloads['user.unblocked']
        reload(actor)
        reload(user._id)
      }
    },
  }
}
