import type { Config } from '../../config.js'
import { createModerationService } from '../../services/moderation.js'
import type { Role } from '../../store/types.js'
import type { Output } from '../database-env.js'
import { withStore } from './open-store.js'

const ROLES: readonly Role[] = ['user', 'moderator', 'admin']
const USAGE = 'usage: npm run admin -- role <username> admin|moderator|user'

/**
 * `role <username> <role>`: how an operator makes the first admin (DECISIONS §8). It opens the store the
 * server would (DATABASE_URL, else DATA_DIR): on PostgreSQL at any time; the embedded store only while the
 * server is stopped, since a running server holds the data directory's lock. The change is in the audit
 * log with the actor "cli".
 */
export async function setRole(config: Config, args: readonly string[], out: Output): Promise<number> {
  const [username, role] = args
  if (args.length !== 2 || !username || !ROLES.includes(role as Role)) {
    out.error(USAGE)
    return 2
  }
  return withStore(config, out, async (persistence) => {
    const moderation = createModerationService({ store: persistence.store, now: () => new Date() })
    const user = await moderation.setRoleFromCli(username, role as Role)
    out.log(`${user.username} is now ${user.role}.`)
    return 0
  })
}
