import type { Page } from 'playwright-core'
import t, { type Test } from 'tap'
import { journey, startE2E, type E2E } from './harness.js'
import { call, signupUser, type NewUser } from './helpers.js'

/**
 * Back to a long list (issue: past about 100 posts the opened post came back hundreds of pixels off, and
 * the top of the feed showed for seconds first): the post opened is back where it stood, at once, with
 * every post loaded still there, on a desktop and on a phone.
 */
const e2e = await startE2E(t)
/** Enough posts for ten pages of the home feed (20 a page). */
const POSTS = 200
/** Read deep in the feed: the 141st post from the top. */
const OPENED = 60
const textOf = (n: number) => `Reading position post number ${n}`

async function withPosts(e2e: E2E): Promise<NewUser> {
  const user = await signupUser(e2e, 'reader')
  for (let i = 1; i <= POSTS; i++)
    await call(e2e, 'POST', '/api/posts', { postData: { content: textOf(i) } }, user.token)
  return user
}

/**
 * Notes each frame from now on, in the page: the address, the cards drawn, where the opened post stands and
 * whether the newest post is on screen. Source text, not a function: the test runner's transform wraps
 * functions with a helper (`__name`) that does not exist in the page.
 */
const WATCH_FRAMES = `([opened, newest]) => {
  const frames = []
  window.frames_ = frames
  const card = (text) =>
    [...document.querySelectorAll('article')].find((a) => a.querySelector('.post-content')?.textContent === text)
  const onScreen = (box) => box !== undefined && box.bottom > 0 && box.top < window.innerHeight
  const tick = () => {
    frames.push({
      path: window.location.pathname,
      cards: document.querySelectorAll('article').length,
      openedTop: card(opened)?.getBoundingClientRect().top ?? null,
      newestShown: onScreen(card(newest)?.getBoundingClientRect()),
    })
    if (frames.length < 600) requestAnimationFrame(tick)
  }
  requestAnimationFrame(tick)
}`
type Frame = { path: string; cards: number; openedTop: number | null; newestShown: boolean }

/** Where the card of `text` stands from the top of the window, once it is within 2 px of `y`. */
const STANDS_AT = `([text, y]) => {
  const card = [...document.querySelectorAll('article')].find((a) => a.querySelector('.post-content')?.textContent === text)
  return card !== undefined && Math.abs(card.getBoundingClientRect().top - y) <= 2
}`

async function openDeepAndComeBack(page: Page, t: Test): Promise<void> {
  await page.goto('/')
  const articles = page.getByRole('article')
  await articles.first().waitFor()
  // Scrolling on loads page after page, as a reader would.
  while ((await articles.count()) < POSTS - OPENED + 20) {
    const before = await articles.count()
    await page.mouse.wheel(0, 6000)
    await page.waitForFunction((n) => document.querySelectorAll('article').length > n, before)
  }
  const target = articles.filter({ has: page.getByText(textOf(OPENED), { exact: true }) })
  await target.scrollIntoViewIfNeeded()
  await page.mouse.wheel(0, -150)
  await page.waitForTimeout(300)
  const loaded = await articles.count()
  const before = (await target.boundingBox())?.y ?? Number.NaN
  const scrolled = await page.evaluate(() => window.scrollY)
  t.ok(scrolled > 10_000, `the reader is deep in the feed (${scrolled} px, ${loaded} posts loaded)`)

  await target.locator('a.post-time').click()
  await page.waitForURL((url) => url.pathname.startsWith('/post-detail/'))
  t.equal(await page.evaluate(() => window.scrollY), 0, 'the post opens at its top')
  await page.getByRole('button', { name: 'Back' }).first().waitFor()

  await page.evaluate(`(${WATCH_FRAMES})(${JSON.stringify([textOf(OPENED), textOf(POSTS)])})`)
  await page.goBack()
  await page.waitForURL((url) => url.pathname === '/')
  await page.waitForFunction(`(${STANDS_AT})(${JSON.stringify([textOf(OPENED), before])})`)
  await page.waitForFunction((n) => document.querySelectorAll('article').length >= n, loaded)
  t.equal(await articles.count(), loaded, `the same ${loaded} posts are loaded`)
  const after = (await target.boundingBox())?.y ?? Number.NaN
  t.ok(Math.abs(after - before) <= 2, `the post opened stands where it stood (${before} px, now ${after} px)`)

  const frames = (await page.evaluate('window.frames_')) as Frame[]
  const back = frames.filter((frame) => frame.path === '/' && frame.cards > 0)
  t.ok(back.length > 0, `frames were watched on the way back (${back.length})`)
  t.equal(back.filter((frame) => frame.newestShown).length, 0, 'the top of the feed never showed on the way back')
  const first = back[0]
  t.ok(
    first?.openedTop !== null && first !== undefined && Math.abs(first.openedTop - before) <= 2,
    `the first frame drawn on the way back has the post in its place (${first?.openedTop ?? 'absent'} px)`,
  )
}

await journey(
  t,
  e2e,
  'desktop: open a post deep in the home feed and come back to it',
  { session: withPosts },
  openDeepAndComeBack,
)

await journey(
  t,
  e2e,
  'phone: open a post deep in the home feed and come back to it',
  { session: withPosts },
  async (page, t) => {
    await page.setViewportSize({ width: 390, height: 844 })
    await openDeepAndComeBack(page, t)
  },
)
