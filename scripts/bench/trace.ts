import { writeFile } from 'node:fs/promises'
import path from 'node:path'
import type { Browser, Page } from 'playwright-core'

/** What the summary lists: the renderer's main-thread work by kind, style recalculation and layout first. */
const KINDS = [
  'RunTask',
  'UpdateLayoutTree',
  'Layout',
  'PrePaint',
  'Paint',
  'Layerize',
  'HitTest',
  'IntersectionObserverController::computeIntersections',
  'LocalFrameView::NotifyResizeObservers',
  'FunctionCall',
  'TimerFire',
  'RunMicrotasks',
  'EventDispatch',
  'MajorGC',
  'MinorGC',
  'ParseHTML',
]
const CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink', 'v8'].join(',')

type TraceEvent = {
  name: string
  ph: string
  pid: number
  tid: number
  dur?: number
  /** The thread's own CPU time: unlike `dur`, it leaves out the time the thread waited for a core. */
  tdur?: number
  args?: { name?: string }
}

type Total = { ms: number; threadMs: number; count: number }

/**
 * Milliseconds of each kind of work on the renderer's main thread (kinds nest: a FunctionCall may hold a
 * Layout; RunTask is every task), as elapsed and as the thread's own CPU time, which moves less with
 * the machine's load.
 */
function summarise(events: readonly TraceEvent[]): Map<string, Total> {
  const main = new Set(
    events
      .filter((event) => event.ph === 'M' && event.name === 'thread_name' && event.args?.name === 'CrRendererMain')
      .map((event) => `${event.pid}:${event.tid}`),
  )
  const totals = new Map(KINDS.map((kind) => [kind, { ms: 0, threadMs: 0, count: 0 }]))
  for (const event of events) {
    const total = totals.get(event.name)
    if (!total || event.ph !== 'X' || !main.has(`${event.pid}:${event.tid}`)) continue
    total.ms += (event.dur ?? 0) / 1000
    total.threadMs += (event.tdur ?? 0) / 1000
    total.count++
  }
  return totals
}

/**
 * With SCROLL_TRACE set, a Chromium performance trace (CDP Tracing) of the scroll through the first
 * hundred cards and through the last: each written to that directory, and what the main thread did in
 * each printed side by side, to tell style recalculation from layout, paint and script.
 */
export class Tracer {
  private phase: 'before' | 'first' | 'between' | 'last' | 'done' = 'before'
  private readonly summaries: { label: string; totals: Map<string, Total> }[] = []

  constructor(
    private readonly browser: Browser,
    private readonly page: Page,
    private readonly dir: string,
    private readonly bucket: number,
    private readonly posts: number,
  ) {}

  /** Called with the cards drawn before each step of the scroll, and once at its end. */
  async at(drawn: number): Promise<void> {
    if (this.phase === 'before') {
      await this.browser.startTracing(this.page, { categories: CATEGORIES.split(',') })
      this.phase = 'first'
    } else if (this.phase === 'first' && drawn >= this.bucket) {
      await this.stop(`cards 0–${this.bucket - 1}`, 'first')
      this.phase = 'between'
    }
    if (this.phase === 'between' && drawn >= this.posts - this.bucket) {
      await this.browser.startTracing(this.page, { categories: CATEGORIES.split(',') })
      this.phase = 'last'
    } else if (this.phase === 'last' && drawn >= this.posts) {
      await this.stop(`cards ${this.posts - this.bucket}–${this.posts - 1}`, 'last')
      this.phase = 'done'
    }
  }

  private async stop(label: string, file: string): Promise<void> {
    const buffer = await this.browser.stopTracing()
    await writeFile(path.join(this.dir, `scroll-${file}.json`), buffer)
    const { traceEvents } = JSON.parse(buffer.toString('utf8')) as { traceEvents: TraceEvent[] }
    this.summaries.push({ label, totals: summarise(traceEvents) })
  }

  /** The main thread's work in each traced part, kind by kind: elapsed and thread milliseconds (and how many events). */
  report(): string {
    const head = `| main thread | ${this.summaries.map((s) => s.label).join(' | ')} |`
    const rule = `|---|${this.summaries.map(() => '---').join('|')}|`
    const rows = KINDS.map((kind) => {
      const cells = this.summaries.map((s) => {
        const total = s.totals.get(kind)
        return total ? `${Math.round(total.ms)} ms, thread ${Math.round(total.threadMs)} ms (${total.count})` : '–'
      })
      return `| ${kind} | ${cells.join(' | ')} |`
    })
    return [head, rule, ...rows].join('\n') + '\n'
  }
}
