import type { Store } from '../store/types.js'

/** How long a dismissed suggestion stays away: a year from the person's last dismissal. */
const KEPT_MS = 365 * 24 * 60 * 60 * 1000
/** The most dismissals kept for one person; past it, the oldest is offered again. */
const MOST_KEPT = 1000
/** How often a dismissal tries again when another instance changed the same person's at the same moment. */
const ATTEMPTS = 20

const keyOf = (userId: string) => `suggestion-dismissals:${userId}`

/**
 * The people someone asked not to be suggested again (Mastodon's DELETE /api/v1/suggestions/:id), kept
 * under one key per person in the store's shared keys and values, oldest first. Changes are
 * compare-and-set, so two instances dismissing at once both keep theirs.
 */
export function createSuggestionDismissals(store: Store, now: () => Date) {
  const kv = store.keyValues
  const parse = (value: string | undefined): string[] => (value === undefined ? [] : (JSON.parse(value) as string[]))

  return {
    /** Whom `userId` dismissed. */
    async of(userId: string): Promise<string[]> {
      return parse(await kv.get(keyOf(userId), now().toISOString()))
    },

    /** Notes that `userId` does not want `targetId` suggested again. */
    async add(userId: string, targetId: string): Promise<void> {
      const key = keyOf(userId)
      for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
        const at = now()
        const before = await kv.get(key, at.toISOString())
        const after = [...parse(before).filter((id) => id !== targetId), targetId].slice(-MOST_KEPT)
        const expiresAt = new Date(at.getTime() + KEPT_MS).toISOString()
        if (await kv.compareAndSet(key, before, JSON.stringify(after), expiresAt, at.toISOString())) return
      }
      throw new Error(`The dismissed suggestions of ${userId} kept changing; this one was not written`)
    },
  }
}
