import { createHash } from 'node:crypto'
import { rmSync } from 'node:fs'
import { cp, mkdtemp, readdir, readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { AppOptions } from '../../server/app.js'
import type { Config } from '../../server/config.js'
import { buildTestApp, tempDataDir, type TestApp, type TestContext } from './app.js'
import { snapshotSchema, testDatabaseUrl } from './store-under-test.js'

let template: Promise<string> | undefined

/**
 * A data directory seeded once per test process; seeding hashes six passwords, which costs more than
 * most tests. The copy is removed when the process exits.
 */
function seededTemplate(): Promise<string> {
  template ??= (async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'chirp-template-'))
    const teardowns: Array<() => unknown> = []
    await buildTestApp({ teardown: (fn) => teardowns.push(fn) }, { dataDir: dir })
    for (const fn of teardowns.reverse()) await fn()
    // 'exit' handlers must be synchronous: an async rm there never runs.
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }))
    return dir
  })()
  return template
}

/** buildTestApp over a fresh copy of the seeded data directory. */
export async function buildSeededApp(
  t: TestContext,
  options: { config?: Partial<Config>; options?: AppOptions } = {},
): Promise<TestApp> {
  const dir = await tempDataDir(t)
  await cp(await seededTemplate(), dir, { recursive: true })
  return buildTestApp(t, { ...options, dataDir: dir })
}

/**
 * Every database file of a data directory (db.json and whatever it names) by path, with a hash of its
 * bytes: equal snapshots prove a refused request changed nothing on disk, whatever the store's layout.
 */
export async function snapshotDb(app: Pick<TestApp, 'dataDir' | 'schema'>): Promise<Record<string, string>> {
  if (app.schema !== undefined && testDatabaseUrl !== undefined) return snapshotSchema(testDatabaseUrl, app.schema)
  const entries = await readdir(app.dataDir, { recursive: true, withFileTypes: true })
  const files = entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(app.dataDir, path.join(entry.parentPath, entry.name)))
    .filter((file) => !file.startsWith(`media${path.sep}`) && file !== 'db.lock')
    .sort()
  const snapshot: Record<string, string> = {}
  for (const file of files) {
    snapshot[file] = createHash('sha256')
      .update(await readFile(path.join(app.dataDir, file)))
      .digest('hex')
  }
  return snapshot
}

/**
 * snapshotDb once the store has stopped changing: after a request whose job (a mail) still ends in the
 * background, so that what a later request changes is told apart from the job's own ending.
 */
export async function stillSnapshotDb(app: Pick<TestApp, 'dataDir' | 'schema'>): Promise<Record<string, string>> {
  let last: string | undefined
  for (let i = 0; i < 100; i++) {
    // A flush may replace a segment between the listing and the read.
    const snapshot = await snapshotDb(app).catch(() => undefined)
    const text = JSON.stringify(snapshot)
    if (snapshot && text === last) return snapshot
    last = text
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error('the store kept changing')
}

/** Every name in the app's media folder or bucket, sorted. */
export const listMedia = (app: TestApp) => app.media.names()
