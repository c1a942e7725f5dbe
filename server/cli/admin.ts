import { pathToFileURL } from 'node:url'
import { parseConfig } from '../config.js'
import { openPersistence } from '../persistence.js'
import { buildSeed } from '../seed/index.js'
import { createModerationService } from '../services/moderation.js'
import type { Role } from '../store/types.js'
import { runCommand, type Output } from './database-env.js'

const ROLES: readonly Role[] = ['user', 'moderator', 'admin']
const USAGE = 'usage: npm run admin -- role <username> admin|moderator|user'

/**
 * `npm run admin -- role <username> <role>`: how an operator makes the first admin (DECISIONS §8). It opens
 * the store the server would (DATABASE_URL, else DATA_DIR): on PostgreSQL at any time; the embedded store
 * only while the server is stopped, since a running server holds the data directory's lock. The change is
 * in the audit log with the actor "cli".
 */
export async function runAdmin(args: readonly string[], env: Record<string, string | undefined>, out: Output) {
  return runCommand(
    'admin',
    async () => {
      const [command, username, role] = args
      if (command !== 'role' || !username || !ROLES.includes(role as Role)) {
        out.error(USAGE)
        return 2
      }
      const config = parseConfig(env)
      const persistence = await openPersistence(config, {
        seed: () => buildSeed(config.mediaDir),
        log: { info: () => {}, warn: (_obj, msg) => out.error(msg) },
        onBroken: () => {},
      })
      try {
        const moderation = createModerationService({ store: persistence.store, now: () => new Date() })
        const user = await moderation.setRoleFromCli(username, role as Role)
        out.log(`${user.username} is now ${user.role}.`)
        return 0
      } finally {
        await persistence.close()
      }
    },
    out,
  )
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await runAdmin(process.argv.slice(2), process.env, { log: console.log, error: console.error })
}
