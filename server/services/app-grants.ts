import type { Store, TokenHolder } from '../store/types.js'

/** One token given to an app for a person: enough to list the app in Settings and to end the token. */
export interface AppGrant {
  /** The token's id (its `jti`). */
  tokenId: string
  /** The app's client_id. */
  appId: string
  scopes: string[]
  /** The person's token version when it was given: a logout everywhere or a new password voids it. */
  tokenVersion: number
  grantedAt: string
  expiresAt: string
}

/** How often a write tries again when another instance changed the person's grants at the same moment. */
const ATTEMPTS = 20

const keyOf = (userId: string) => `app-grants:${userId}`

/**
 * The tokens a person's apps hold (DECISIONS §13: Settings lists authorised apps, with revoke). A token
 * is a signed session the store never sees, so each one given to an app is noted here, under one key
 * per person in the store's shared keys and values, until it expires; the key itself expires with the
 * last of them. Changes are compare-and-set, so two instances granting at once both keep theirs.
 */
export function createAppGrants(store: Store, now: () => Date) {
  const kv = store.keyValues

  const parse = (value: string | undefined): AppGrant[] =>
    value === undefined ? [] : (JSON.parse(value) as AppGrant[])

  /** Applies `change` to the person's unexpired grants and keeps the result; answers what it removed. */
  async function update(userId: string, change: (grants: AppGrant[]) => AppGrant[]): Promise<AppGrant[]> {
    const key = keyOf(userId)
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const at = now().toISOString()
      const before = await kv.get(key, at)
      const live = parse(before).filter((grant) => grant.expiresAt > at)
      const after = change(live)
      const kept = new Set(after.map((grant) => grant.tokenId))
      const removed = live.filter((grant) => !kept.has(grant.tokenId))
      const last = after.reduce<string | undefined>(
        (latest, grant) => (latest && latest > grant.expiresAt ? latest : grant.expiresAt),
        undefined,
      )
      if (last === undefined) {
        if (before === undefined) return removed
        if (await kv.compareAndSet(key, before, JSON.stringify([]), at, at)) return removed
      } else if (await kv.compareAndSet(key, before, JSON.stringify(after), last, at)) {
        return removed
      }
    }
    throw new Error(`The apps of ${userId} kept changing; their grants were not written`)
  }

  return {
    /** Notes a token just given to an app. */
    async add(grant: AppGrant & { userId: string }): Promise<void> {
      const { userId, ...kept } = grant
      await update(userId, (grants) => [...grants, kept])
    },

    /**
     * The person's grants still in force: unexpired, given since their last logout everywhere, and not
     * ended one by one (`revoked` answers whether a token id was logged out).
     */
    async live(holder: TokenHolder, revoked: (tokenId: string) => Promise<boolean>): Promise<AppGrant[]> {
      const at = now().toISOString()
      const current = parse(await kv.get(keyOf(holder._id), at)).filter(
        (grant) => grant.expiresAt > at && grant.tokenVersion === holder.tokenVersion,
      )
      const ended = await Promise.all(current.map((grant) => revoked(grant.tokenId)))
      return current.filter((_, i) => !ended[i])
    },

    /** Forgets the person's grants to one app, and answers them, so that their tokens can be ended. */
    take(userId: string, appId: string): Promise<AppGrant[]> {
      return update(userId, (grants) => grants.filter((grant) => grant.appId !== appId))
    },
  }
}

/** Forgets which apps a deleted account authorised: its tokens are void already, and nothing names it. */
export const forgetAppGrants = (store: Store, userId: string) => store.keyValues.delete(keyOf(userId))
