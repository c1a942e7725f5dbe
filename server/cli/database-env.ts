import path from 'node:path'
import { ConfigError } from '../config.js'
import { checkSchemaName } from '../store/pg/connect.js'

/** What the database commands need from the environment, read the way the server reads it. */
export interface DatabaseEnv {
  url: string
  schema: string
  /** Where the seeded posts' images are written when an empty database is seeded. */
  mediaDir: string
}

/** Every problem at once, as parseConfig reports them. */
export function readDatabaseEnv(env: Record<string, string | undefined>, cwd = process.cwd()): DatabaseEnv {
  const problems: string[] = []
  const url = env.DATABASE_URL ?? ''
  if (!/^postgres(ql)?:\/\//.test(url)) problems.push('DATABASE_URL must be a postgres:// URL')
  const schema = env.DATABASE_SCHEMA || 'public'
  try {
    checkSchemaName(schema)
  } catch (error) {
    problems.push((error as Error).message)
  }
  if (problems.length > 0) throw new ConfigError(problems)
  const dataDir = path.resolve(cwd, env.DATA_DIR || './data')
  return { url, schema, mediaDir: path.resolve(cwd, env.MEDIA_DIR || path.join(dataDir, 'media')) }
}

export interface Output {
  log(line: string): void
  error(line: string): void
}

/** Runs a command as a process: its exit code, and any failure as one line (an operator's problem needs no stack). */
export async function runCommand(name: string, command: () => Promise<number>, out: Output): Promise<number> {
  try {
    return await command()
  } catch (error) {
    out.error(`${name}: ${error instanceof Error ? error.message : String(error)}`)
    return 1
  }
}
