import type { BrowserContext, Page } from 'playwright-core'
import type { Test } from 'tap'
import type { E2E, Session } from './harness.js'

/** A signed-in page at `url`, closed when the test ends, and whether it opened its event stream once loaded. */
export async function openLive(
  t: Pick<Test, 'teardown'>,
  e2e: E2E,
  session: Session,
  url: string,
): Promise<{ page: Page; streaming: Promise<boolean> }> {
  const context = await e2e.newContext(session)
  t.teardown(() => context.close())
  const page = await context.newPage()
  const streaming = page
    .waitForResponse((res) => new URL(res.url()).pathname === '/api/events')
    .then(
      () => true,
      () => false,
    )
  await page.goto(url)
  return { page, streaming }
}

/**
 * What to wait for on a page: an element with this aria-label or a button with this text, inside the post
 * whose text starts with `post` (or anywhere).
 */
export interface Sight {
  post?: string
  label?: string
  button?: string
}

/**
 * The watcher that runs in the page. It is source text, not a function, because the test runner's
 * transform wraps functions with a helper (`__name`) that does not exist in the page.
 */
const WATCH_IN_PAGE = `(s) => new Promise((resolve) => {
  const visible = () => {
    const root = s.post
      ? [...document.querySelectorAll('article')].find((a) => a.querySelector('.post-content')?.textContent?.startsWith(s.post))
      : document.body
    if (!root) return false
    if (s.label !== undefined && !root.querySelector('[aria-label="' + s.label + '"]')) return false
    if (s.button !== undefined && ![...root.querySelectorAll('button')].some((b) => b.textContent === s.button)) return false
    return true
  }
  if (visible()) return resolve(Date.now())
  const observer = new MutationObserver(() => {
    if (!visible()) return
    observer.disconnect()
    resolve(Date.now())
  })
  observer.observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true })
})`

/**
 * Resolves with the page's own clock (Date.now()) at the DOM change that made `sight` true. Measured in the
 * page by a MutationObserver, so the time is when the screen changed, not when a polling wait noticed it.
 */
export function seenAt(page: Page, sight: Sight): Promise<number> {
  return page.evaluate<number>(`(${WATCH_IN_PAGE})(${JSON.stringify(sight)})`)
}

/** `promise`, or undefined after `ms`, so a change that never comes fails an assertion instead of hanging. */
export function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  return Promise.race([promise, new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), ms))])
}

/** Every GET /api/events a context makes, with the lastEventId it resumed from. */
export function recordStreams(context: BrowserContext): { lastEventId: string | null }[] {
  const streams: { lastEventId: string | null }[] = []
  context.on('request', (request) => {
    const url = new URL(request.url())
    if (url.pathname === '/api/events') streams.push({ lastEventId: url.searchParams.get('lastEventId') })
  })
  return streams
}
