import t from 'tap'
import { journey, startE2E, type E2E } from './harness.js'
import { call, signupUser, type NewUser } from './helpers.js'

const e2e = await startE2E(t)
/** Enough posts for six pages of the home feed (20 a page). */
const POSTS = 110

async function withPosts(e2e: E2E): Promise<NewUser> {
  const user = await signupUser(e2e, 'reader')
  for (let i = 1; i <= POSTS; i++) {
    await call(e2e, 'POST', '/api/posts', { postData: { content: `Reading position post number ${i}` } }, user.token)
  }
  return user
}

await journey(
  t,
  e2e,
  'open a post from deep in the home feed and come back to the same place',
  { session: withPosts },
  async (page, t) => {
    await page.goto('/')
    const articles = page.getByRole('article')
    await articles.first().waitFor()
    // Scrolling on loads page after page, as a reader would.
    while ((await articles.count()) < 80) {
      const before = await articles.count()
      await page.mouse.wheel(0, 4000)
      await page.waitForFunction((n) => document.querySelectorAll('article').length > n, before)
    }
    const target = articles.filter({ has: page.getByText('Reading position post number 40', { exact: true }) })
    await target.scrollIntoViewIfNeeded()
    await page.mouse.wheel(0, -100)
    await page.waitForTimeout(300)
    const loaded = await articles.count()
    const scrolled = await page.evaluate(() => window.scrollY)
    t.ok(scrolled > 4000, `the reader is deep in the feed (${scrolled} px, ${loaded} posts loaded)`)

    await target.locator('a.post-time').click()
    await page.waitForURL((url) => url.pathname.startsWith('/post-detail/'))
    t.equal(await page.evaluate(() => window.scrollY), 0, 'the post opens at its top')

    await page.goBack()
    await page.waitForURL((url) => url.pathname === '/')
    await page.waitForFunction((y) => Math.abs(window.scrollY - y) <= 2, scrolled)
    t.equal(await articles.count(), loaded, `the same ${loaded} posts are loaded`)
    t.ok(Math.abs((await page.evaluate(() => window.scrollY)) - scrolled) <= 2, `the scroll is back at ${scrolled} px`)
    t.ok(await target.isVisible(), 'the post opened is on screen again')
  },
)
