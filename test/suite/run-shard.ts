import { mkdirSync, readFileSync } from 'node:fs'
import { registerHooks } from 'node:module'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import tap from 'tap'
import { skipWithoutPostgres, TEST_DATABASE_URL } from '../helpers/pg.js'
import { filesOf, ROOT, type Kind } from './files.js'
import { scopeTo } from './scoped-tap.js'

/** The query that marks a file's own copy of the repository's modules. */
const COPY = 'suite-copy'

/** How long one file may take, as tap allows a file of its own (package.json's tap.timeout). */
const FILE_TIMEOUT_MS = 120_000

/**
 * Whether this process runs `file`. Under test/suite/run.sh the processes of a kind take files from one
 * queue, a directory where taking a file is creating its entry, so each file runs once and the processes
 * finish together; run alone, a process takes every `shards`-th file.
 */
function take(kind: Kind, file: string, index: number, shard: number, shards: number): boolean {
  const queue = process.env.CHIRP_SUITE_QUEUE
  if (!queue) return index % shards === shard - 1
  try {
    mkdirSync(path.join(queue, `${kind}--${file.replaceAll('/', '--')}`))
    return true
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false
    throw error
  }
}

/**
 * Runs test files one after another in this process, each as a subtest named after it, so that the server
 * and client modules load once for all of them. A file's `t` (its import of tap, and its helpers') is its
 * subtest: its hooks, teardowns and plan stay its own, and a failure is reported under its name.
 */
export async function runShard(kind: Kind, shard: number, shards: number): Promise<void> {
  const scoped = import.meta.resolve('./scoped-tap.js')
  const tests = pathToFileURL(path.join(ROOT, 'test')).href
  const suite = new URL('./', import.meta.url).href
  const root = pathToFileURL(ROOT).href
  registerHooks({
    resolve(specifier, context, next) {
      const parent = context.parentURL ?? ''
      if (specifier === 'tap' && parent.startsWith(tests) && !parent.startsWith(suite))
        return { url: scoped, shortCircuit: true }
      const resolved = next(specifier, context)
      // A copy's imports of the repository's modules are that copy's too (the client's files, below).
      const copy = URL.canParse(parent) ? new URL(parent).searchParams.get(COPY) : null
      if (copy === null || !resolved.url.startsWith(root) || resolved.url.includes('/node_modules/')) return resolved
      const url = new URL(resolved.url)
      url.searchParams.set(COPY, copy)
      return { ...resolved, url: url.href }
    },
  })
  // The files' own timeouts hold; the process as a whole runs as long as they take.
  tap.setTimeout(0)

  if (kind === 'postgres') {
    const skip = await skipWithoutPostgres()
    if (skip) {
      tap.plan(0, `${skip}; the PostgreSQL pass is skipped`)
      return
    }
    // Read by test/helpers/store-under-test.ts when a file first imports it: every app is on PostgreSQL.
    process.env.CHIRP_TEST_DATABASE_URL = TEST_DATABASE_URL
  }

  // Read by test/helpers/media-under-test.ts for every app: its uploads go to a bucket of the process's
  // one S3 server, stopped when the files are done.
  if (kind === 's3') process.env.CHIRP_TEST_MEDIA = 's3'
  const stopS3 = kind === 's3' ? (await import('../helpers/s3.js')).holdS3() : undefined

  // The client's files share the DOM this installs into the process's globals.
  if (kind === 'client') await import('../client/dom.js')
  // CHIRP_SUITE_ONLY=a.test.ts,b.test.ts runs those files in this order, as a shard would: for a file
  // that passes alone but not after another.
  const only = process.env.CHIRP_SUITE_ONLY?.split(',')
  const files = only ?? filesOf(kind)
  // The browser files share one Chromium; each starts the app it needs in this process (test/e2e/harness.ts).
  const releaseBrowser = kind === 'e2e' ? await (await import('../e2e/harness.js')).holdBrowser() : undefined
  for (const [index, file] of files.entries()) {
    if (!take(kind, file, index, shard, shards)) continue
    const url = pathToFileURL(path.join(ROOT, file))
    // The client's files each get their own copy of the client's modules, whose state (stores, caches,
    // timers) a file may leave as it likes, as it could in a process of its own; the DOM is emptied.
    if (kind === 'client') url.searchParams.set(COPY, String(index))
    const removeListeners = kind === 'client' ? trackWindowListeners() : undefined
    const started = Date.now()
    const cpuBefore = cpuSeconds()
    const results = await tap.test(file, { timeout: FILE_TIMEOUT_MS }, async (t) => {
      scopeTo(t)
      await import(url.href)
    })
    // tap shows a process's results when it ends; this says how far it has come meanwhile.
    const seconds = ((Date.now() - started) / 1000).toFixed(1)
    const cpu = (cpuSeconds() - cpuBefore).toFixed(1)
    process.stderr.write(
      `[${kind} ${shard}] ${results?.ok === false ? 'FAILED' : 'passed'} ${file} (${seconds} s, ${cpu} s CPU)\n`,
    )
    if (kind === 'client') await emptyDom()
    removeListeners?.()
  }
  await releaseBrowser?.()
  await stopS3?.()
  // A file that timed out may have left a child process or a socket open, which would keep this process
  // alive when its files are done; tap reports what ran as the process exits.
  setTimeout(() => process.exit(), 30_000).unref()
}

/**
 * The CPU time (user and system) this process and the children it has waited for (the servers and commands
 * the files start) have used so far, in seconds: what a file costs, whatever else the machine is doing.
 */
function cpuSeconds(): number {
  // /proc/self/stat's utime, stime, cutime and cstime, in clock ticks (100 a second on Linux).
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]?.split(' ') ?? []
  const ticks = [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i] ?? 0), 0)
  return Number.isFinite(ticks) ? ticks / 100 : 0
}

/**
 * Records what is listened for on the window and the document from now on, and returns what removes it:
 * a file's copy of the client (watching scrolls, history, visibility) must not go on reacting to the next.
 */
function trackWindowListeners(): () => void {
  const added: [EventTarget, string, EventListenerOrEventListenerObject | null, unknown][] = []
  const targets = new Set<EventTarget>([window, document])
  // The DOM's own EventTarget, which may not be the global one Node has.
  let owner: EventTarget = window
  while (!Object.hasOwn(owner, 'addEventListener')) owner = Object.getPrototypeOf(owner) as EventTarget
  const original = Reflect.get(owner, 'addEventListener') as EventTarget['addEventListener']
  owner.addEventListener = function (this: EventTarget, type, listener, options) {
    if (targets.has(this)) added.push([this, type, listener, options])
    original.call(this, type, listener, options)
  }
  return () => {
    owner.addEventListener = original
    for (const [target, type, listener, options] of added)
      target.removeEventListener(type, listener, options as EventListenerOptions | boolean | undefined)
  }
}

/** What a client file leaves in the process's one DOM: rendered trees and storage. */
async function emptyDom(): Promise<void> {
  const { cleanup } = await import('@testing-library/react')
  cleanup()
  document.body.replaceChildren()
  localStorage.clear()
  sessionStorage.clear()
}
