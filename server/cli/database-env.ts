import { ConfigError, parseConfig, type Config } from '../config.js'

/** What the database commands need from the environment, read the way the server reads it. */
export interface DatabaseEnv {
  url: string
  schema: string
  /** Where the seeded posts' images are stored when an empty database is seeded: MEDIA_DIR, or the bucket. */
  media: Pick<Config, 'mediaDir' | 's3'>
}

/** The server's own configuration, which must name a database here. */
export function readDatabaseEnv(env: Record<string, string | undefined>, cwd = process.cwd()): DatabaseEnv {
  const config = parseConfig(env, cwd)
  if (config.databaseUrl === undefined) throw new ConfigError(['DATABASE_URL must be a postgres:// URL'])
  return { url: config.databaseUrl, schema: config.databaseSchema, media: { mediaDir: config.mediaDir, s3: config.s3 } }
}

export interface Output {
  log: (line: string) => void
  error: (line: string) => void
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
