import { randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import lighthouse from 'lighthouse'
import { chromium } from 'playwright-core'
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../chromium.js'
import { login } from './api.js'
import type { Scratch } from './dataset.js'
import type { Report } from './legs.js'
import { freePort, startChirp, type Running } from './processes.js'
import { atLeast, ms } from './report.js'

/**
 * Lighthouse's own advice: the median of five runs, since one run's score moves with the machine. Here
 * a single run of the same build ranged over about ten points.
 */
const LIGHTHOUSE_RUNS = 5
const LIGHTHOUSE_LEG = 10

/**
 * A fresh desktop Chromium preloads pages of its own UI (tab search and the like) in a renderer of
 * their own just after it starts, which is when each run loads the page: in traces of the home feed
 * that renderer took 53 to 59 ms of the first second's CPU beside the page's. A phone's browser has no
 * such pages, so they are turned off; the page, the network and the CPU slowdown are as before.
 */
const LIGHTHOUSE_ARGS = ['--disable-features=PreloadTopChromeWebUI']

/** The metrics behind the performance score, in milliseconds but for CLS. */
const METRICS = [
  'first-contentful-paint',
  'largest-contentful-paint',
  'total-blocking-time',
  'cumulative-layout-shift',
  'speed-index',
] as const

export interface PageAudit {
  page: string
  url: string
  /** 0 to 100, as Lighthouse shows them; the median run's. */
  performance: number
  accessibility: number
  metrics: Record<(typeof METRICS)[number], number>
  /** Every run's performance score, to show how much they spread. */
  runs: number[]
  /** The audits that cost points, by id with their score, for whoever has to find out why. */
  failing: string[]
}

type Session = { token: string; username: string }

/**
 * One Lighthouse run with its defaults: a phone (Moto G Power) on simulated slow 4G with a 4× slower CPU.
 * Each run has a browser and a profile of its own, so nothing is cached from an earlier run; a session is
 * put in local storage, as the client keeps it, from a page of the origin that does not load the app.
 */
async function auditOnce(scratch: Scratch, url: string, session: Session | undefined) {
  const port = await freePort()
  const profile = await scratch.dir(`lighthouse-profile-${randomBytes(4).toString('hex')}`)
  // A persistent context is the browser's default one, which is where Lighthouse opens its tab.
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    args: [...CHROMIUM_ARGS, ...LIGHTHOUSE_ARGS, `--remote-debugging-port=${port}`],
  })
  try {
    if (session) {
      const page = await context.newPage()
      await page.goto(new URL('/api/health', url).href)
      await page.evaluate(({ token, username }) => {
        localStorage.setItem('token', token)
        localStorage.setItem('username', username)
      }, session)
      await page.close()
    }
    const result = await lighthouse(url, {
      port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility'],
      // Resetting storage would log the session out; the profile is fresh, so nothing else is kept.
      disableStorageReset: session !== undefined,
    })
    if (!result) throw new Error(`Lighthouse returned nothing for ${url}`)
    if (result.lhr.runtimeError)
      throw new Error(`Lighthouse on ${url}: ${result.lhr.runtimeError.code}: ${result.lhr.runtimeError.message}`)
    return result.lhr
  } finally {
    await context.close()
  }
}

const score = (value: number | null | undefined) => Math.round((value ?? 0) * 100)

/** Runs a page LIGHTHOUSE_RUNS times and keeps the run with the median performance score. */
async function auditPage(
  scratch: Scratch,
  page: string,
  url: string,
  session: Session | undefined,
  log: (line: string) => void,
): Promise<PageAudit> {
  const lhrs = []
  for (let i = 0; i < LIGHTHOUSE_RUNS; i++) {
    // A run that fails outright (Lighthouse's own runtime error) is tried once more, not counted as 0.
    const retry = (error: unknown) => {
      log(`  ${page}: a run failed (${error instanceof Error ? error.message : String(error)}); once more`)
      return auditOnce(scratch, url, session)
    }
    lhrs.push(await auditOnce(scratch, url, session).catch(retry))
  }
  const sorted = [...lhrs].sort(
    (a, b) => score(a.categories.performance?.score) - score(b.categories.performance?.score),
  )
  const median = sorted[Math.floor(sorted.length / 2)]
  if (!median) throw new Error('no Lighthouse run')
  const metrics = Object.fromEntries(
    METRICS.map((id) => [id, median.audits[id]?.numericValue ?? Number.NaN]),
  ) as PageAudit['metrics']
  const failing = Object.values(median.audits)
    .filter(
      (audit) =>
        audit.score !== null &&
        audit.score < 0.9 &&
        audit.scoreDisplayMode !== 'informative' &&
        audit.scoreDisplayMode !== 'manual',
    )
    .map((audit) => `${audit.id} (${score(audit.score)})`)
  return {
    page,
    url,
    performance: score(median.categories.performance?.score),
    accessibility: score(median.categories.accessibility?.score),
    metrics,
    runs: lhrs.map((lhr) => score(lhr.categories.performance?.score)),
    failing,
  }
}

/**
 * Lighthouse on the production build as a phone sees it: the login page signed out, and the home
 * feed signed in as the guest, on a server of its own over the seeded demo data. Adds its goals
 * (performance at least 95, accessibility 100) to the report.
 */
export async function lighthouseLeg(
  report: Report,
  options: { scratch: Scratch; running: Running[]; log: (line: string) => void },
) {
  const { scratch, log } = options
  if (!existsSync(CHROMIUM_PATH)) {
    log(`${LIGHTHOUSE_LEG}. Lighthouse skipped: no Chromium at ${CHROMIUM_PATH} (apt-get install -y chromium)`)
    return
  }
  log(`${LIGHTHOUSE_LEG}. Lighthouse (mobile): ${LIGHTHOUSE_RUNS} runs each of /login and the home feed`)
  const chirp = await startChirp({
    dataDir: await scratch.dir('lighthouse-data'),
    jwtSecret: randomBytes(32).toString('base64url'),
    openFiles: 1024,
  })
  options.running.push(chirp)
  let pages: PageAudit[]
  try {
    const guest = await login(chirp.url, 'guest', 'guestpassword')
    pages = [
      await auditPage(scratch, '/login', `${chirp.url}/login`, undefined, log),
      await auditPage(scratch, 'home feed, signed in', `${chirp.url}/`, { token: guest.token, username: 'guest' }, log),
    ]
  } finally {
    // The legs after this one measure servers of their own: this one must not compete with them.
    await chirp.stop()
  }
  report.results.lighthouse = pages
  for (const page of pages) {
    const shown = (value: number) => value.toFixed(0)
    report.checks.push(
      atLeast(
        LIGHTHOUSE_LEG,
        `Lighthouse mobile performance, ${page.page}`,
        page.performance,
        95,
        shown(page.performance),
      ),
    )
    report.checks.push(
      atLeast(
        LIGHTHOUSE_LEG,
        `Lighthouse mobile accessibility, ${page.page}`,
        page.accessibility,
        100,
        shown(page.accessibility),
      ),
    )
    const m = page.metrics
    report.details.push(
      `Leg ${LIGHTHOUSE_LEG}, ${page.page} (median of runs scoring ${page.runs.join(', ')}): FCP ${ms(m['first-contentful-paint'])}, ` +
        `LCP ${ms(m['largest-contentful-paint'])}, TBT ${ms(m['total-blocking-time'])}, CLS ${m['cumulative-layout-shift'].toFixed(3)}, ` +
        `Speed Index ${ms(m['speed-index'])}` +
        (page.failing.length > 0 ? `; costing points: ${page.failing.join(', ')}.` : '.'),
    )
    log(
      `  ${page.page}: performance ${page.performance} (runs ${page.runs.join(', ')}), accessibility ${page.accessibility}`,
    )
  }
}
