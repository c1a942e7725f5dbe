import { pathToFileURL } from 'node:url'
import { parseConfig, type Config } from '../config.js'
import { resetPassword } from './admin/reset-password.js'
import { setRole } from './admin/role.js'
import { runCommand, type Output } from './database-env.js'

type AdminCommand = (config: Config, args: readonly string[], out: Output) => Promise<number>

/** Each subcommand lives in a file of its own under cli/admin/. */
const COMMANDS: Record<string, AdminCommand> = {
  'reset-password': resetPassword,
  role: setRole,
}

/**
 * `npm run admin -- <command> [args]`: the operator's commands, on the store the server's own
 * environment names (DATA_DIR, or DATABASE_URL and DATABASE_SCHEMA).
 */
export async function runAdmin(
  argv: readonly string[],
  env: Record<string, string | undefined>,
  out: Output,
): Promise<number> {
  const [name, ...args] = argv
  const command = name === undefined ? undefined : COMMANDS[name]
  if (!command) {
    out.error(`usage: npm run admin -- <command>, the command one of: ${Object.keys(COMMANDS).join(', ')}`)
    return 2
  }
  return runCommand(`admin ${name}`, () => command(parseConfig(env), args, out), out)
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await runAdmin(process.argv.slice(2), process.env, { log: console.log, error: console.error })
}
