import { randomBytes } from 'node:crypto'
import t from 'tap'
import type { Page } from 'playwright-core'
import { journey, startE2E, type E2E } from './harness.js'
import { call, GUEST, login, navLink, postCard, waitForPath } from './helpers.js'

/**
 * Notifications, mentions and search in the browser (docs/api-contract.md §8): a mention reaches its
 * reader live, the notifications page clears the badge, search finds people as one types, and a hashtag
 * in a post opens its page.
 */
const e2e = await startE2E(t)

/** The Notifications link's name says the unread count after it; the badge itself is hidden from screen readers. */
const bell = (page: Page, unread: number) =>
  navLink(page, unread > 0 ? `Notifications, ${unread} unread` : 'Notifications')

async function streaming(page: Page, url: string): Promise<void> {
  const opened = page.waitForResponse((res) => new URL(res.url()).pathname === '/api/events')
  await page.goto(url)
  await opened
}

/** No horizontal scrolling: long words wrap instead of widening the page. */
const overflows = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth)

await journey(
  t,
  e2e,
  'a mention notifies live, search finds its author, and its tag opens the tag page',
  {
    session: async (e2e: E2E) => {
      const guest = await login(e2e, GUEST.username, GUEST.password)
      // Whatever the seed and earlier journeys left unread, this one starts from none.
      await call(e2e, 'POST', '/api/notifications/read', {}, guest.token)
      return guest
    },
  },
  async (page, t, e2e) => {
    await streaming(page, '/')
    await bell(page, 0).waitFor()
    t.equal(await page.title(), 'Home / Chirp')

    const tag = `tea_${randomBytes(3).toString('hex')}`
    const longWord = 'x'.repeat(120)
    const maya = await login(e2e, 'maya.lin', 'mayapassword')
    const content = `Hey @guest, tea at four? #${tag} ${longWord}`
    await call(e2e, 'POST', '/api/posts', { content }, maya.token)

    await bell(page, 1).waitFor()
    t.equal(await page.locator('.nav-badge').textContent(), '1', 'the badge shows 1 without a reload')
    t.equal(await page.title(), '(1) Home / Chirp', 'and so does the tab title')

    await bell(page, 1).click()
    await waitForPath(page, '/notifications')
    const row = page.getByRole('list', { name: 'Notifications' }).getByRole('listitem').first()
    await row.getByText('Maya Lin @maya.lin mentioned you in a post').waitFor()
    t.match(await row.textContent(), `tea at four? #${tag}`, 'with the words of the post')
    await bell(page, 0).waitFor()
    await page.waitForFunction(() => document.title === 'Notifications / Chirp')
    t.pass('opening the page clears the badge and the title count')

    const box = page.getByRole('combobox', { name: 'Search Chirp' })
    await box.click()
    await box.pressSequentially('maya', { delay: 40 })
    await waitForPath(page, '/search?q=maya&type=users')
    t.equal(
      await page.getByRole('tab', { name: 'People' }).getAttribute('aria-selected'),
      'true',
      'a query that finds people shows People first',
    )
    const people = page.getByRole('list', { name: 'People found' })
    await people.getByRole('link', { name: /Maya Lin/ }).waitFor()
    t.pass('People finds maya.lin')

    await page.reload()
    await people.getByRole('link', { name: /Maya Lin/ }).waitFor()
    t.equal(
      await page.getByRole('tab', { name: 'People' }).getAttribute('aria-selected'),
      'true',
      'a reload keeps the tab',
    )
    t.equal(await box.inputValue(), 'maya', 'and the query')

    await people.getByRole('link', { name: /Maya Lin/ }).click()
    await waitForPath(page, '/profile/maya.lin')
    await postCard(page, 'Hey @guest')
      .getByRole('link', { name: `#${tag}` })
      .click()
    await waitForPath(page, `/tag/${tag}`)
    await page.getByRole('heading', { level: 1, name: `#${tag}` }).waitFor()
    await postCard(page, 'Hey @guest').waitFor()
    t.equal(await page.title(), `#${tag} / Chirp`)
    t.notOk(await overflows(page), 'a 120-letter word wraps at 1280 px')
    await page.setViewportSize({ width: 390, height: 844 })
    t.notOk(await overflows(page), 'and at 390 px')
  },
)
