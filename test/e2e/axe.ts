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

type Finding = { id: string; impact: string | null; help: string; targets: string[] }

/** Runs axe on the page as it stands: the serious and critical findings, each with where it was found. */
export async function scan(page: Page): Promise<Finding[]> {
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
            violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }[]
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
      }))
  })
}
