import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import type { Page } from 'playwright-core'

const AXE_SOURCE = await readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')
/** Every screen is scanned in both. */
export const SCHEMES = ['light', 'dark'] as const

/**
 * Shows the page in a colour scheme, with motion reduced, as a reader would see it: after the next frames.
 * Until a frame is drawn, a transition set off by the change (a card's background, say) still reads as its
 * old colour, and axe would compare the new text colour with the old background.
 */
export async function showScheme(page: Page, scheme: (typeof SCHEMES)[number]): Promise<void> {
  await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' })
  await page.evaluate(
    () => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))),
  )
}

type Finding = { id: string; impact: string | null; help: string; targets: string[]; why: string[] }

/**
 * Runs axe on the page as it stands: the serious and critical findings, each with where it was found. A
 * contrast finding is measured again a moment later, and only what stays is reported: right after a
 * change of scheme Chromium has been seen to report an element's text in the old scheme's colour on the
 * new scheme's background (1.22:1, dark on dark), once in three runs of the same page.
 */
export async function scan(page: Page): Promise<Finding[]> {
  const found = await scanOnce(page)
  if (!found.some((finding) => finding.id === 'color-contrast')) return found
  await page.waitForTimeout(250)
  return scanOnce(page)
}

async function scanOnce(page: Page): Promise<Finding[]> {
  // Evaluated through the debugging protocol, which the page's Content-Security-Policy does not govern.
  await page.evaluate(AXE_SOURCE)
  return page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run: (
            context: Document,
            options: object,
          ) => Promise<{
            violations: {
              id: string
              impact: string | null
              help: string
              nodes: { target: unknown[]; failureSummary?: string }[]
            }[]
          }>
        }
      }
    ).axe
    const result = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
      resultTypes: ['violations'],
    })
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        targets: v.nodes.slice(0, 5).map((n) => String(n.target)),
        // What axe measured (for contrast, the two colours and the ratio), so a failure says how to fix it.
        why: v.nodes.slice(0, 5).map((n) => (n.failureSummary ?? '').slice(0, 300)),
      }))
  })
}
