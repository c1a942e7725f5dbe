import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { Page } from 'playwright-core'
import t from 'tap'
import { ensureBuilt } from './build.js'
import { browserAvailable, journey, startE2E } from './harness.js'
import { GUEST, login } from './helpers.js'
import { ROOT } from './server-process.js'

/**
 * The service worker in Chromium, over the production build: the app opens offline from its shell, the
 * API is never answered from a cache, and a new build's worker replaces the old shell. The server serves
 * a copy of dist/client, since the last test rewrites the worker as a new build would.
 */
if (browserAvailable(t)) {
  t.setTimeout(5 * 60_000)
  await ensureBuilt()
  const clientDir = await mkdtemp(path.join(tmpdir(), 'chirp-e2e-client-'))
  t.teardown(() => rm(clientDir, { recursive: true, force: true }))
  await cp(path.join(ROOT, 'dist', 'client'), clientDir, { recursive: true })
  const e2e = await startE2E(t, { env: { CLIENT_DIR: clientDir } })
  const asGuest = { session: (e2e: Parameters<typeof login>[0]) => login(e2e, GUEST.username, GUEST.password) }

  /** Waits until the worker controls the page, and returns what its caches hold. */
  async function controlled(page: Page) {
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null)
    return page.evaluate(async () => {
      const names = await caches.keys()
      const paths = await Promise.all(
        names.map(async (name) =>
          (await (await caches.open(name)).keys()).map((request) => new URL(request.url).pathname),
        ),
      )
      return { names, paths: paths.flat() }
    })
  }

  await journey(
    t,
    e2e,
    'offline, the app still opens from its shell, and says it is offline',
    asGuest,
    async (page, t) => {
      await page.goto('/')
      await page.getByRole('article').first().waitFor()
      const stored = await controlled(page)
      t.match(stored.names, [/^chirp-shell-[0-9a-f]{16}$/], 'one cache, named after the build')
      t.ok(stored.paths.includes('/index.html'), 'the page')
      t.ok(
        stored.paths.some((p) => /^\/assets\/index-.+\.js$/.test(p)),
        'its script',
      )
      t.ok(
        stored.paths.some((p) => /^\/assets\/index-.+\.css$/.test(p)),
        'its styles',
      )
      t.same(
        stored.paths.filter((p) => p.startsWith('/api/') || p.startsWith('/media/')),
        [],
        'no API reply or upload kept',
      )

      await page.context().setOffline(true)
      await page.goto('/explore')
      await page.getByRole('navigation', { name: 'Main' }).waitFor()
      t.pass('the app opened offline')
      await page.getByText("You're offline. Chirp will catch up when you're back.").waitFor()
      t.pass('and says it is offline')
      const api = await page.evaluate(() =>
        fetch('/api/posts').then(
          () => 'answered',
          () => 'failed',
        ),
      )
      t.equal(api, 'failed', 'the API is never answered from a cache')

      await page.context().setOffline(false)
      await page.goto('/')
      await page.getByRole('article').first().waitFor()
      t.equal(await page.getByText("You're offline", { exact: false }).count(), 0, 'back online: no banner')
    },
  )

  await journey(t, e2e, "a new build's worker takes over and deletes the old shell", asGuest, async (page, t) => {
    await page.goto('/')
    const before = await controlled(page)
    const [oldCache] = before.names
    const oldVersion = oldCache?.replace('chirp-shell-', '') ?? ''
    // A new build, as far as the browser can tell: the worker's bytes and its shell's version change.
    const worker = path.join(clientDir, 'sw.js')
    await writeFile(worker, (await readFile(worker, 'utf8')).replaceAll(oldVersion, 'f'.repeat(16)))
    await Promise.all(['.br', '.gz'].map((extension) => rm(worker + extension, { force: true })))

    const changed = page.evaluate(
      () =>
        new Promise<void>((resolve) => navigator.serviceWorker.addEventListener('controllerchange', () => resolve())),
    )
    await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.update())
    await changed
    t.pass('the new worker controls the open page at once')
    await page.waitForFunction(async () => (await caches.keys()).join() === `chirp-shell-${'f'.repeat(16)}`)
    t.pass('its shell replaced the old one')
    await page.reload()
    await page.getByRole('article').first().waitFor()
    t.pass('and the app runs on')
  })
}
