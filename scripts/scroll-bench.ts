/**
 * `npm run bench:scroll`: does drawing one more page of a long profile cost the same at post 500 as at
 * post 20? Builds the app when a source changed, starts it on a temporary data directory, seeds a user
 * with SCROLL_POSTS posts (500; every fourth with an image), opens their profile in Chromium with the CPU
 * slowed 4× (CDP Emulation.setCPUThrottlingRate) and scrolls to the end. A PerformanceObserver counts
 * long tasks (over 50 ms) by how many cards were drawn when each ended; the script prints the long-task
 * time of each hundred cards and that of the last hundred ÷ the first (the goal is ≤ 1.5). With
 * SCROLL_TRACE=<directory> it also records a performance trace of the first hundred and of the last, and
 * prints what the main thread did in each (style recalculation, layout, paint, script).
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { chromium } from 'playwright-core'
import { gradientPng } from '../server/seed/png.js'
import { call } from './bench/api.js'
import { ensureBuilt } from './bench/build.js'
import { startChirp } from './bench/processes.js'
import { Tracer } from './bench/trace.js'
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium.js'

const POSTS = Number(process.env.SCROLL_POSTS ?? 500)
const BUCKET = 100
const SEED_BATCH = 10
const THROTTLE = 4
/** Past this the scroll stops where it is, and the report says how far it came. */
const SCROLL_DEADLINE_MS = 10 * 60_000
const CARD = 'article.post-card'
/** A directory: when set, the scroll through the first hundred cards and the last is traced there too. */
const TRACE_DIR = process.env.SCROLL_TRACE

const log = (line: string) => process.stderr.write(`${line}\n`)

interface LongTask {
  duration: number
  drawn: number
}

type Watched = { longTasks: LongTask[]; cardsDrawn: number }

/**
 * Watches long tasks from the first script on: each with the number of cards drawn as it ended. Cards
 * are counted as they come and go (a MutationObserver), not by walking the list, whose cost would
 * grow with it and be counted against the page.
 */
function watchLongTasks(card: string): void {
  const watched = window as unknown as Watched
  watched.longTasks = []
  watched.cardsDrawn = 0
  // Inline, not a named helper: the function is sent to the page as text, without the build's helpers.
  new MutationObserver((records) => {
    for (const record of records) {
      for (const [nodes, sign] of [
        [record.addedNodes, 1],
        [record.removedNodes, -1],
      ] as const) {
        for (const node of nodes) {
          if (!(node instanceof Element)) continue
          watched.cardsDrawn += sign * (node.matches(card) ? 1 : node.querySelectorAll(card).length)
        }
      }
    }
  }).observe(document, { childList: true, subtree: true })
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries())
      watched.longTasks.push({ duration: entry.duration, drawn: watched.cardsDrawn })
  }).observe({ type: 'longtask', buffered: true })
}

async function seed(base: string): Promise<{ token: string; username: string }> {
  const username = 'scroller'
  const password = 'scroll-bench-password'
  const body = { username, password, firstName: 'Long', lastName: 'Profile', email: 'scroller@example.com' }
  const { encodedToken: token } = await call<{ encodedToken: string }>(base, 'POST', '/api/auth/signup', { body })
  const form = new FormData()
  form.append(
    'file',
    new Blob([new Uint8Array(gradientPng(600, 400, [29, 155, 240], [255, 173, 31], 1))], { type: 'image/png' }),
    'a.png',
  )
  const uploaded = await fetch(`${base}/api/media`, {
    method: 'POST',
    body: form,
    headers: { authorization: `Bearer ${token}` },
  })
  const { url } = (await uploaded.json()) as { url: string }
  // A few at a time (rate limits are off): one by one, seeding took longer than the scroll on a loaded machine.
  for (let from = 0; from < POSTS; from += SEED_BATCH) {
    const batch = Array.from({ length: Math.min(SEED_BATCH, POSTS - from) }, (_, k) => from + k)
    await Promise.all(
      batch.map((i) => {
        const content = `Post ${i + 1} of a long profile: #scrolling with a line or two of text, as people write them.`
        return call(base, 'POST', '/api/posts', { token, body: { content, ...(i % 4 === 0 ? { mediaUrl: url } : {}) } })
      }),
    )
  }
  return { token, username }
}

async function main(): Promise<void> {
  await ensureBuilt(log)
  const dataDir = await mkdtemp(path.join(tmpdir(), 'chirp-scroll-'))
  const server = await startChirp({ dataDir, jwtSecret: 'scroll-bench-secret-'.padEnd(40, 'x'), openFiles: 1024 })
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS })
  try {
    log(`seeding ${POSTS} posts`)
    const { token, username } = await seed(server.url)
    const context = await browser.newContext({
      baseURL: server.url,
      viewport: { width: 1280, height: 900 },
      storageState: {
        cookies: [],
        origins: [
          {
            origin: server.url,
            localStorage: [
              { name: 'token', value: token },
              { name: 'username', value: username },
            ],
          },
        ],
      },
    })
    const page = await context.newPage()
    await page.addInitScript(watchLongTasks, CARD)
    await page.goto(`/profile/${username}`)
    await page.locator(CARD).first().waitFor()
    const cdp = await context.newCDPSession(page)
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: THROTTLE })
    const deadline = Date.now() + SCROLL_DEADLINE_MS
    let drawn = 0
    const tracing = TRACE_DIR ? new Tracer(browser, page, TRACE_DIR, BUCKET, POSTS) : undefined
    while (drawn < POSTS && Date.now() < deadline) {
      await tracing?.at(drawn)
      await page.mouse.wheel(0, 2000)
      await page.waitForTimeout(150)
      drawn = await page.evaluate(() => (window as unknown as Watched).cardsDrawn)
    }
    await tracing?.at(drawn)
    // The last cards' tasks end after they are counted: a moment for the observer to hear of them.
    await page.waitForTimeout(1000)
    const tasks = await page.evaluate(() => (window as unknown as Watched).longTasks)
    report(tasks, drawn)
    if (tracing) process.stdout.write(tracing.report())
  } finally {
    await browser.close()
    await server.stop()
    await rm(dataDir, { recursive: true, force: true })
  }
}

function report(tasks: readonly LongTask[], drawn: number): void {
  const buckets = Array.from({ length: Math.ceil(POSTS / BUCKET) }, () => 0)
  for (const task of tasks) {
    const at = Math.min(buckets.length - 1, Math.floor(Math.max(0, task.drawn - 1) / BUCKET))
    buckets[at] = (buckets[at] ?? 0) + task.duration
  }
  const seconds = (ms: number) => (ms / 1000).toFixed(2)
  process.stdout.write(`Cards drawn: ${drawn} of ${POSTS}, CPU ${THROTTLE}× slower\n`)
  buckets.forEach((ms, i) => {
    process.stdout.write(`  posts ${i * BUCKET}–${(i + 1) * BUCKET - 1}: long tasks ${seconds(ms)} s\n`)
  })
  const first = buckets[0] ?? 0
  const last = buckets[buckets.length - 1] ?? 0
  const ratio = first > 0 ? (last / first).toFixed(2) : last > 0 ? '∞' : '1.00 (no long tasks at all)'
  process.stdout.write(`Last ${BUCKET} ÷ first ${BUCKET}: ${ratio} (goal ≤ 1.5)\n`)
}

await main()
