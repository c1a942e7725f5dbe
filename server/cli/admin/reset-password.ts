import type { Config } from '../../config.js'
import { createAccountSecrets } from '../../services/account-secrets.js'
import { createResetLinks } from '../../services/reset-links.js'
import { isGuest } from '../../usernames.js'
import type { Output } from '../database-env.js'
import { withStore } from './open-store.js'

/**
 * `reset-password <username>`: prints a link that sets a new password for the account, valid once and
 * for an hour, for the operator to pass on when mail is not set up (or did not arrive). On the embedded
 * store it runs while the server is stopped (the server holds the data directory's lock).
 */
export async function resetPassword(config: Config, args: readonly string[], out: Output): Promise<number> {
  const [username] = args
  if (args.length !== 1 || !username) {
    out.error('usage: npm run admin -- reset-password <username>')
    return 2
  }
  return withStore(config, out, async (persistence) => {
    const user = await persistence.store.getUserByUsername(username)
    if (!user || isGuest(user)) {
      out.error(`reset-password: there is no account @${username} whose password can be reset`)
      return 1
    }
    const links = createResetLinks({
      secrets: createAccountSecrets(await persistence.jwtSecret()),
      publicUrl: config.publicUrl,
      now: () => new Date(),
    })
    out.log(links.linkFor(user))
    return 0
  })
}
