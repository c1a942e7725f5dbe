import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { cp, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { readDatabaseFiles } from '../../server/store/database-files.js'
import type { Database } from '../../server/store/types.js'
import { ROOT } from './processes.js'

/** Temporary directories of this run, removed at the end whatever happens. */
export class Scratch {
  readonly #dirs: string[] = []

  async dir(name: string): Promise<string> {
    const dir = await mkdtemp(path.join(tmpdir(), `chirp-bench-${name}-`))
    this.#dirs.push(dir)
    return dir
  }

  async clear(): Promise<void> {
    await Promise.all(this.#dirs.map((dir) => rm(dir, { recursive: true, force: true })))
  }
}

/** Generates a data set the way an operator would: `npm run seed:large`, its progress bar on our stderr. */
async function seedLarge(
  users: number,
  posts: number,
  env: Record<string, string>,
  extra: string[] = [],
): Promise<void> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'scripts/seed-large.ts', '--users', String(users), '--posts', String(posts), ...extra],
    { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'inherit', 'inherit'] },
  )
  const [code] = (await once(child, 'exit')) as [number | null]
  if (code !== 0) throw new Error(`seed:large exited with ${code}`)
}

/** An embedded data set, whatever DATABASE_URL the benchmark itself was given; `extra` adds to seed:large's options. */
export async function seedEmbedded(dataDir: string, users: number, posts: number, extra: string[] = []): Promise<void> {
  await seedLarge(users, posts, { DATA_DIR: dataDir, DATABASE_URL: '' }, ['--force', ...extra])
}

/** An embedded data set, and what it holds. */
export async function seedDataSet(dataDir: string, users: number, posts: number): Promise<Database> {
  await seedEmbedded(dataDir, users, posts)
  return readDatabaseFiles(dataDir)
}

/** A data set in a new PostgreSQL schema; seed:large refuses one that already holds users. */
export async function seedSchema(
  url: string,
  schema: string,
  users: number,
  posts: number,
  extra: string[] = [],
): Promise<void> {
  await seedLarge(users, posts, { DATABASE_URL: url, DATABASE_SCHEMA: schema }, extra)
}

/** A server gets a copy: each holds its directory's lock, and writes must not leak between legs. */
export async function copyDataSet(from: string, to: string): Promise<void> {
  await cp(from, to, { recursive: true, filter: (source) => path.basename(source) !== 'db.lock' })
}
