import { createHash } from 'node:crypto'
import { existsSync } from 'node:fs'
import { mkdir, readdir, readFile, rmdir, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { ROOT, run } from './server-process.js'

const SOURCES = [
  'server',
  'common',
  'client',
  'scripts/client-build.ts',
  'scripts/client-build',
  'vite.config.ts',
  'tsconfig.json',
  'tsconfig.server.json',
  'package-lock.json',
]
const OUTPUTS = ['dist/server/main.js', 'dist/client/index.html']
/** Records which test run last checked dist/, so that one `npm test` builds at most once. */
const CHECKED_MARK = path.join(ROOT, 'dist', '.e2e-checked')

async function newestMtime(entry: string): Promise<number> {
  const info = await stat(entry).catch(() => undefined)
  if (!info) return 0
  if (!info.isDirectory()) return info.mtimeMs
  const children = await readdir(entry)
  const times = await Promise.all(children.map((name) => newestMtime(path.join(entry, name))))
  return Math.max(info.mtimeMs, ...times)
}

async function buildIsCurrent(): Promise<boolean> {
  const outputs = await Promise.all(OUTPUTS.map((file) => stat(path.join(ROOT, file)).catch(() => undefined)))
  if (outputs.some((info) => !info)) return false
  const builtAt = Math.min(...outputs.map((info) => info?.mtimeMs ?? 0))
  const sources = await Promise.all(SOURCES.map((entry) => newestMtime(path.join(ROOT, entry))))
  return Math.max(...sources) <= builtAt
}

/** A lock directory shared by the test files tap runs in parallel, so only one of them builds. */
async function withBuildLock<T>(run: () => Promise<T>): Promise<T> {
  const key = createHash('sha256').update(ROOT).digest('hex').slice(0, 12)
  const lock = path.join(tmpdir(), `chirp-e2e-build-${key}.lock`)
  const deadline = Date.now() + 5 * 60_000
  for (;;) {
    try {
      await mkdir(lock)
      break
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      const age = Date.now() - ((await stat(lock).catch(() => undefined))?.mtimeMs ?? Date.now())
      // A lock left behind by a killed run must not block every later run.
      if (age > 5 * 60_000) await rmdir(lock).catch(() => undefined)
      if (Date.now() > deadline) throw new Error(`timed out waiting for the build lock ${lock}`)
      await sleep(250)
    }
  }
  try {
    return await run()
  } finally {
    await rmdir(lock).catch(() => undefined)
  }
}

/**
 * Makes sure dist/ holds a production build of the current sources. The first e2e file of a
 * test run checks (and builds when dist/ is missing or older than the sources); the others
 * trust that check, so a file edited mid-run cannot rebuild the client under a running test.
 */
export async function ensureBuilt(): Promise<void> {
  const suiteBuild = process.env.CHIRP_SUITE_BUILD
  if (suiteBuild) return awaitSuiteBuild(suiteBuild)
  const runId = String(process.ppid)
  await withBuildLock(async () => {
    const mark = await readFile(CHECKED_MARK, 'utf8').catch(() => '')
    const outputsExist = OUTPUTS.every((file) => existsSync(path.join(ROOT, file)))
    if (mark === runId && outputsExist) return
    if (!(await buildIsCurrent())) await run('npm', ['run', 'build'], { cwd: ROOT, timeoutMs: 5 * 60_000 })
    await writeFile(CHECKED_MARK, runId)
  })
}

/** How long a file waits for the suite's build, which runs beside the first files. */
const SUITE_BUILD_TIMEOUT_MS = 10 * 60_000

/**
 * Under test/suite/run.sh the build runs beside the files that do not need it, and writes its exit status
 * to `statusFile` when it ends: a file that needs dist/ waits for that, and fails at once if it failed.
 */
async function awaitSuiteBuild(statusFile: string): Promise<void> {
  const deadline = Date.now() + SUITE_BUILD_TIMEOUT_MS
  for (;;) {
    const status = await readFile(statusFile, 'utf8').catch(() => undefined)
    if (status !== undefined) {
      if (status.trim() === '0') return
      throw new Error(`npm run build failed (exit ${status.trim()}): its output is above in this run`)
    }
    if (Date.now() > deadline) throw new Error(`npm run build did not end within ${SUITE_BUILD_TIMEOUT_MS} ms`)
    await sleep(250)
  }
}
