import type { EventAudience, EventName, EventPayloads } from '../schemas/events.js'
import { mayRead } from '../services/audience.js'
import type { LoggedEvent } from '../store/types.js'

const FOLLOWED: EventName = 'user.followed'
const UNFOLLOWED: EventName = 'user.unfollowed'

interface Following {
  people: Set<string>
  /** Settles once the first read has landed. */
  loaded: Promise<void>
  /** While the first read is under way: the follows begun (true) and ended since, in log order. */
  meanwhile: [string, boolean][] | undefined
}

/**
 * Whom each reader with a stream open on this instance follows (accepted follows only), so that each
 * stream carries the events about a `followers` post only to who may read it (DECISIONS §12). Read once
 * when the reader's first stream here opens, then kept by the `user.followed` and `user.unfollowed` events
 * of the log, which every instance applies in log order, before the events after them: an unfollow hides
 * the author's followers posts at once, on every instance. A change that arrives while the first read is
 * under way is applied again over it, so a read that missed it cannot bring back a follow that ended.
 */
export function createStreamFollows(load: (userId: string) => Promise<readonly string[]>) {
  const readers = new Map<string, Following>()

  function change(userId: string, other: string, follows: boolean): void {
    const state = readers.get(userId)
    if (!state) return
    if (state.meanwhile) state.meanwhile.push([other, follows])
    else if (follows) state.people.add(other)
    else state.people.delete(other)
  }

  return {
    /** Reads whom the reader follows, unless a stream of theirs here knows already (or is reading it). */
    watch(userId: string): Promise<void> {
      const known = readers.get(userId)
      if (known) return known.loaded
      const state: Following = { people: new Set(), loaded: Promise.resolve(), meanwhile: [] }
      readers.set(userId, state)
      state.loaded = load(userId).then(
        (people) => {
          state.people = new Set(people)
          for (const [other, follows] of state.meanwhile ?? []) {
            if (follows) state.people.add(other)
            else state.people.delete(other)
          }
          state.meanwhile = undefined
        },
        (error: unknown) => {
          if (readers.get(userId) === state) readers.delete(userId)
          throw error
        },
      )
      return state.loaded
    },

    /** The reader's last stream here ended. */
    forget(userId: string): void {
      readers.delete(userId)
    },

    /** Whether the reader follows `other`: never for a reader with no stream here. */
    follows(userId: string, other: string): boolean {
      return readers.get(userId)?.people.has(other) ?? false
    },

    /** Whether the reader may read the post an event concerns: always when it has no audience (anyone may). */
    mayRead(userId: string, audience: EventAudience | undefined): boolean {
      if (audience === undefined) return true
      return mayRead(audience, userId, readers.get(userId)?.people.has(audience.authorId) ?? false)
    },

    /** Takes a follow begun or ended into account, before the events after it are sent. */
    apply(event: LoggedEvent): void {
      if (event.name !== FOLLOWED && event.name !== UNFOLLOWED) return
      const { user, followUser } = JSON.parse(event.data) as EventPayloads['user.followed']
      change(user._id, followUser._id, event.name === FOLLOWED)
    },
  }
}
