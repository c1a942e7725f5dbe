import type { StoreReader, UserRecord } from '../store/types.js'
import { isGuest } from '../usernames.js'
import type { AccountSecrets } from './account-secrets.js'

/** How long a reset link works. */
const RESET_LINK_MS = 60 * 60 * 1000

export interface ResetLinkDeps {
  secrets: AccountSecrets
  /** Where links point (Config.publicUrl). */
  publicUrl: string
  now: () => Date
}

/**
 * A reset link's token: the user, when it expires, and a MAC over both and the password hash of the
 * moment. Setting a password changes the hash (a new salt each time), so a link works once and no
 * stored state is needed to forget it; nobody without the server's key can make one.
 */
const macInput = (userId: string, expires: number, passwordHash: string) => `${userId}.${expires}.${passwordHash}`

export function createResetLinks({ secrets, publicUrl, now }: ResetLinkDeps) {
  return {
    /** `PUBLIC_URL/reset-password?token=…`, valid for an hour and once. */
    linkFor(user: UserRecord): string {
      const expires = now().getTime() + RESET_LINK_MS
      const mac = secrets.resetMac(macInput(user._id, expires, user.passwordHash)).toString('base64url')
      return `${publicUrl}/reset-password?token=${user._id}.${expires}.${mac}`
    },

    /** The user a link's token speaks for, while it is valid: not expired, and the password not set since. */
    async userOf(store: StoreReader, token: string): Promise<UserRecord | undefined> {
      const [userId, expires, mac] = token.split('.')
      const at = Number(expires)
      if (!userId || !mac || !Number.isSafeInteger(at) || at <= now().getTime()) return undefined
      const user = await store.getUser(userId)
      if (!user || isGuest(user)) return undefined
      const ok = secrets.checkResetMac(macInput(user._id, at, user.passwordHash), Buffer.from(mac, 'base64url'))
      return ok ? user : undefined
    },
  }
}
