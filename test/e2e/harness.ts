import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core'
import type { Test } from 'tap'
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../scripts/chromium.js'
import { parseConfig } from '../../server/config.js'
import type { AppOptions } from '../../server/app.js'
import { startApp } from '../helpers/app.js'
import { ensureBuilt } from './build.js'
import { childEnv, ROOT, startServer, type RunningServer } from './server-process.js'

// Debian's Chromium; `npx playwright install` cannot download a browser here.
export { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../scripts/chromium.js'

/** Where a failing journey leaves its screenshot (git-ignored). */
const SCREENSHOT_DIR = path.join(ROOT, 'test-results', 'e2e')

/** How long a single wait for the page may take before the step counts as failed. */
export const STEP_TIMEOUT_MS = 10_000

type Tap = Pick<Test, 'plan' | 'fail' | 'teardown' | 'setTimeout'>

/**
 * Whether a browser test file can run. Without Chromium it is skipped with the reason, except
 * under CI, where a missing browser must fail the run rather than let it pass quietly.
 */
export function browserAvailable(t: Pick<Test, 'plan' | 'fail'>): boolean {
  if (existsSync(CHROMIUM_PATH)) return true
  if (process.env.CI) {
    t.fail(`${CHROMIUM_PATH} is missing, and CI requires the browser tests to run (apt-get install -y chromium)`)
    return false
  }
  t.plan(0, `no Chromium at ${CHROMIUM_PATH} (apt-get install -y chromium); browser tests skipped`)
  return false
}

/** Chromium while files use it; kept open between them while the suite's runner holds it (holdBrowser). */
let shared: { browser: Promise<Browser>; users: number } | undefined

export function openBrowser(): Promise<Browser> {
  shared ??= { browser: chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS }), users: 0 }
  const { browser } = shared
  shared.users += 1
  browser.catch(() => (shared = undefined))
  return browser
}

/** Closes what a file left open in the browser, and the browser itself once nothing holds it. */
export async function closeBrowser(browser: Browser): Promise<void> {
  await Promise.all(browser.contexts().map((context) => context.close()))
  if (!shared || --shared.users > 0) return
  shared = undefined
  await browser.close()
}

/**
 * Keeps one Chromium for every file that runs in this process, until the returned function is called: the
 * suite's runner holds it around the browser files, which each start a server of their own.
 */
export async function holdBrowser(): Promise<() => Promise<void>> {
  if (!existsSync(CHROMIUM_PATH)) return async () => {}
  const browser = await openBrowser()
  return () => closeBrowser(browser)
}

export interface Session {
  token: string
  username: string
}

/** The client keeps its session in localStorage under `token` and `username`: a context's storage signed in as `session`. */
export function signedIn(origin: string, session: Session | undefined) {
  if (!session) return undefined
  const localStorage = [
    { name: 'token', value: session.token },
    { name: 'username', value: session.username },
  ]
  return { cookies: [], origins: [{ origin, localStorage }] }
}

export interface E2E {
  server: RunningServer
  baseURL: string
  browser: Browser
  /** A fresh browser context (its own storage), signed in when a session is given. */
  newContext(session?: Session): Promise<BrowserContext>
}

/** The variables Node reads as a process starts, not the app: a server given one runs as a process. */
const PROCESS_ONLY = ['NODE_EXTRA_CA_CERTS', 'NODE_OPTIONS']

/**
 * The app as server/main.ts serves it, in this process: the environment main.ts would read (`env` added, no
 * JWT_SECRET), a temporary data directory, the production build's client (dist/client), a port of its own.
 * Its modules load once for all the files of a process, and the routes' schemas compile once
 * (test/helpers/app.ts's startApp), so a file's server costs the app's registration, not a process's start:
 * starting `node dist/server/main.js` took about 4 s of CPU, most of it compiling those schemas. The built
 * server itself runs in the image's replay (npm run test:docker) and in the files that kill it
 * (test/helpers/child-server.ts).
 */
async function serveApp(env: Record<string, string>, options: AppOptions): Promise<RunningServer> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'chirp-e2e-data-'))
  const environment = childEnv({
    HOST: '127.0.0.1',
    PORT: '0',
    DATA_DIR: dataDir,
    RATE_LIMIT: 'false',
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    ...env,
  })
  delete environment.JWT_SECRET
  let output = ''
  const logStream = { write: (line: string) => void (output = (output + line).slice(-20_000)) }
  const removeData = () => rm(dataDir, { recursive: true, force: true })
  const config = parseConfig(environment, ROOT)
  const app = await startApp(config, { ...options, logStream }).catch(async (error: unknown) => {
    await removeData()
    throw error
  })
  await app.listen({ host: config.host, port: config.port })
  return {
    baseURL: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`,
    dataDir,
    output: () => output,
    async stop() {
      const started = Date.now()
      // As main.ts's shutdown does after its grace: no reader's open connection holds the close up.
      app.server.closeAllConnections()
      await app.close()
      await removeData()
      return { code: 0, signal: null, ms: Date.now() - started }
    },
  }
}

/** What a file asks of its server: variables added to its environment, and options of the app itself. */
export interface ServerOptions {
  env?: Record<string, string>
  /**
   * What the app takes beside its environment (server/app.ts's AppOptions, such as `pushFetch`): only an
   * app in this process takes them, so a server that needs a process of its own (PROCESS_ONLY) cannot.
   */
  app?: AppOptions
}

/**
 * One file's world: the production build's client served by the app on a temporary data directory
 * (`serverOptions.env` adds to its environment, `serverOptions.app` to its options), and one Chromium.
 * Null when the file is skipped (or failed, under CI) for want of a browser.
 */
export async function startE2E(t: Tap, serverOptions: ServerOptions = {}): Promise<E2E | null> {
  if (!browserAvailable(t)) return null
  // The first file of a run may build the app while the machine runs the other tests too.
  t.setTimeout(5 * 60_000)
  await ensureBuilt()
  // The seed and every signup hash cheaply, as in the other tests (the image's test keeps production's cost).
  const env = { PASSWORD_HASH_COST: '4', ...serverOptions.env }
  // What Node itself reads as a process starts (a CA to trust) holds only in a process of its own.
  const ownProcess = PROCESS_ONLY.some((name) => name in env)
  if (ownProcess && serverOptions.app)
    throw new Error(`a server with ${PROCESS_ONLY.join(' or ')} runs as a process, which takes no app options`)
  const server = ownProcess ? await startServer({ env }) : await serveApp(env, serverOptions.app ?? {})
  const browser = await openBrowser().catch(async (error: unknown) => {
    await server.stop()
    throw error
  })
  // The file's contexts close first, so that no open connection holds the server's shutdown up.
  t.teardown(async () => {
    await closeBrowser(browser)
    await server.stop()
  })
  const baseURL = server.baseURL
  return {
    server,
    baseURL,
    browser,
    async newContext(session) {
      const context = await browser.newContext({
        baseURL,
        viewport: { width: 1280, height: 900 },
        // Share writes the post's link to the clipboard.
        permissions: ['clipboard-read', 'clipboard-write'],
        storageState: signedIn(baseURL, session),
      })
      context.setDefaultTimeout(STEP_TIMEOUT_MS)
      return context
    },
  }
}

const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 80)

/** Saves a full-page screenshot under test-results/e2e/ and says where, for the test's output. */
export async function saveScreenshot(page: Page, name: string): Promise<string> {
  await mkdir(SCREENSHOT_DIR, { recursive: true })
  const file = path.join(SCREENSHOT_DIR, `${slug(path.basename(process.argv[1] ?? 'e2e'))}--${slug(name)}.png`)
  await page.screenshot({ path: file, fullPage: true }).catch(() => undefined)
  return `screenshot: ${path.relative(ROOT, file)} (page ${page.url()})`
}

/**
 * One user journey in its own browser context. On failure, a full-page screenshot goes to
 * test-results/e2e/, and the browser's errors are printed with the test's output.
 */
export function journey(
  t: Test,
  e2e: E2E | null,
  name: string,
  options: { session?: (e2e: E2E) => Promise<Session> },
  steps: (page: Page, t: Test, e2e: E2E) => Promise<void>,
) {
  // A file without a browser has already planned its skip (or failed, under CI).
  if (!e2e) return Promise.resolve()
  return t.test(name, async (t) => {
    const context = await e2e.newContext(options.session ? await options.session(e2e) : undefined)
    const page = await context.newPage()
    const problems: string[] = []
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`))
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console error: ${message.text()}`)
    })
    let threw = false
    try {
      await steps(page, t, e2e)
      // An exception that escaped the app is a bug even when the screen looked right.
      const uncaught = problems.filter((p) => p.startsWith('page error'))
      t.same(uncaught, [], 'no uncaught errors in the page')
    } catch (error) {
      threw = true
      throw error
    } finally {
      if (threw || !t.passing()) {
        t.comment(await saveScreenshot(page, name))
        for (const problem of problems) t.comment(problem)
      }
      await context.close()
    }
  })
}
