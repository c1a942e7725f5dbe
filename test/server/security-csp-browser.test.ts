import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { chromium, type Page } from 'playwright-core'
import t from 'tap'
import { ensureBuilt } from '../e2e/build.js'
import { browserAvailable, CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/harness.js'
import { ROOT } from '../e2e/server-process.js'
import { buildSeededApp } from '../helpers/seeded.js'

/**
 * The policy checked where it matters, in a browser: the built client and the Swagger UI run under it
 * without a single violation. The production build is made first when the sources are newer, once per
 * test run, as the end-to-end tests do. Without Debian's Chromium the test skips, or fails under CI.
 */
const CLIENT_DIR = path.join(ROOT, 'dist', 'client')

if (browserAvailable(t)) {
  await ensureBuilt()
  const api = await buildSeededApp(t, { config: { rateLimit: false, clientDir: CLIENT_DIR } })
  await api.app.listen({ host: '127.0.0.1', port: 0 })
  const base = `http://127.0.0.1:${(api.app.server.address() as AddressInfo).port}`
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS })
  t.teardown(() => browser.close())

  /** Every violation the page reports, from the DOM event and from the console. */
  async function watch(page: Page): Promise<string[]> {
    const violations: string[] = []
    await page.exposeFunction('reportViolation', (text: string) => violations.push(text))
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) => {
        void (window as unknown as { reportViolation(text: string): void }).reportViolation(
          `${e.violatedDirective} ${e.blockedURI}`,
        )
      })
    })
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text())
    })
    return violations
  }

  await t.test('the client logs in as the guest and shows the feed without a violation', async (t) => {
    const page = await browser.newPage()
    const violations = await watch(page)
    await page.goto(`${base}/login`)
    await page.getByRole('button', { name: /guest/i }).click()
    await page.waitForURL((url) => !url.pathname.startsWith('/login'), { timeout: 10_000 })
    await page.locator('article').first().waitFor({ timeout: 10_000 })
    await page.goto(`${base}/explore`)
    await page.locator('article').first().waitFor({ timeout: 10_000 })
    t.strictSame(violations, [], 'no CSP violations')
    await page.close()
  })

  await t.test('the Swagger UI renders the API without a violation', async (t) => {
    const page = await browser.newPage()
    const violations = await watch(page)
    await page.goto(`${base}/api/docs`)
    await page.getByText('/api/auth/login').first().waitFor({ timeout: 10_000 })
    t.strictSame(violations, [], 'no CSP violations')
    await page.close()
  })
}
