import t from 'tap'
import type { Page } from 'playwright-core'
import { journey, startE2E, type E2E } from './harness.js'
import {
  call,
  drawImage,
  GUEST,
  imageLoaded,
  login,
  navLink,
  postCard,
  postIdByContent,
  signupUser,
  waitForPath,
} from './helpers.js'

const e2e = await startE2E(t)
const asGuest = { session: (e2e: E2E) => login(e2e, GUEST.username, GUEST.password) }

/** The dates of the posts on screen, in screen order. */
const shownDates = (page: Page) =>
  page.locator('article time').evaluateAll((els) => els.map((el) => el.getAttribute('datetime') ?? ''))
/** The like counts on screen, read from each like button's name ('Like, 3 likes'). */
const shownLikes = (page: Page) =>
  page
    .locator('article')
    .getByRole('button', { name: /^(Like|Unlike), \d+ likes?$/ })
    .evaluateAll((els) => els.map((el) => Number(/(\d+) like/.exec(el.getAttribute('aria-label') ?? '')?.[1])))

await journey(
  t,
  e2e,
  'write a post with an image and an emoji, see it on Home, Explore and the profile',
  {},
  async (page, t, e2e) => {
    const user = await signupUser(e2e, 'author')
    await page.goto('/login')
    await page.getByLabel('Username').fill(user.username)
    await page.getByLabel('Password').fill(user.password)
    await page.getByRole('button', { name: 'Login', exact: true }).click()
    await page.getByText('No posts to show yet. Follow people to see their posts here.').waitFor()

    const composer = page.getByRole('main')
    const text = `Fresh from the browser ${Date.now()}`
    await composer.getByPlaceholder('What is happening?!').fill(text)
    // The image button is a real button: Enter opens the file picker as well as Space.
    const chooser = page.waitForEvent('filechooser')
    await composer.getByRole('button', { name: 'Add image' }).focus()
    await page.keyboard.press('Enter')
    await (await chooser).setFiles(await drawImage(page, 'image/png'))
    t.ok(await imageLoaded(composer.getByRole('img', { name: 'Image to be posted' })), 'the uploaded image previews')
    await composer.getByRole('button', { name: 'Add emoji' }).click()
    await composer.getByRole('button', { name: 'rocket' }).click()
    t.equal(await composer.getByPlaceholder('What is happening?!').inputValue(), `${text}🚀`, 'the emoji is appended')
    t.equal(
      await composer.locator('.char-left').textContent(),
      String(500 - `${text}🚀`.length),
      'the ring counts what is left',
    )
    await composer.getByPlaceholder('What is happening?!').press('Control+Enter')
    // The image has no description: the composer asks once more before it goes.
    await page
      .getByRole('alertdialog', { name: 'Post without a description?' })
      .getByRole('button', { name: 'Post anyway' })
      .click()

    const checkPost = async (where: string) => {
      const card = postCard(page, `${text}🚀`)
      await card.waitFor()
      t.ok(
        await imageLoaded(card.getByRole('img', { name: `Image posted by ${user.fullName}` })),
        `the image shows on ${where}`,
      )
      t.match(
        await card.getByRole('img', { name: `Image posted by ${user.fullName}` }).getAttribute('src'),
        /^\/media\//,
      )
    }
    await checkPost('Home')
    t.equal(await composer.getByPlaceholder('What is happening?!').inputValue(), '', 'the composer is reset')

    await navLink(page, 'Explore').click()
    await waitForPath(page, '/explore')
    await checkPost('Explore')
    t.match(await page.getByRole('article').first().textContent(), text, 'Explore shows it first, newest first')

    await navLink(page, 'Profile').click()
    await waitForPath(page, `/profile/${user.username}`)
    await checkPost('the profile')
  },
)

/** Waits until the whole list is shown again with another post first; a list still loading is empty, which is not that. */
function reordered(page: Page, first: string | undefined, count: number) {
  return page.waitForFunction(
    ([was, n]) => {
      const times = [...document.querySelectorAll('article time')]
      return times.length === n && times[0]?.getAttribute('datetime') !== was
    },
    [first, count] as const,
  )
}

await journey(t, e2e, 'sort the home feed', asGuest, async (page, t) => {
  await page.goto('/')
  await page.getByRole('heading', { name: 'Latest Posts' }).waitFor()
  await page.getByRole('article').first().waitFor()
  const latest = await shownDates(page)
  t.ok(latest.length > 1, 'the guest sees several posts')
  t.same(latest, [...latest].sort().reverse(), 'Latest: newest first')

  await page.getByLabel('Sort by').selectOption('Oldest')
  await page.getByRole('heading', { name: 'Oldest Posts' }).waitFor()
  await reordered(page, latest[0], latest.length)
  const oldest = await shownDates(page)
  t.same(oldest, [...latest].sort(), 'Oldest: oldest first')

  await page.getByLabel('Sort by').selectOption('Trending')
  await page.getByRole('heading', { name: 'Trending Posts' }).waitFor()
  await reordered(page, oldest[0], latest.length)
  const likes = await shownLikes(page)
  t.same(
    likes,
    [...likes].sort((a, b) => b - a),
    'Trending: most liked first',
  )

  await page.reload()
  await page.getByRole('heading', { name: 'Trending Posts' }).waitFor()
  t.pass('the chosen sort survives a reload')
})

/** The scale's sizes, and each size and weight of the text laid out inside `root` ('13px bold'). */
const drawnSizes = (page: Page, root: string) =>
  page.evaluate((root) => {
    const style = getComputedStyle(document.documentElement)
    const scale = ['--text-small', '--text-body', '--text-title'].map((name) => style.getPropertyValue(name).trim())
    const drawn = new Set<string>()
    for (const within of document.querySelectorAll(root)) {
      const walker = document.createTreeWalker(within, NodeFilter.SHOW_TEXT)
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const element = node.parentElement
        // Hidden text is laid out too (a label read only by screen readers), so it counts as well.
        if (!element || !node.textContent?.trim() || element.getClientRects().length === 0) continue
        const { fontSize, fontWeight } = getComputedStyle(element)
        drawn.add(`${fontSize} ${Number(fontWeight) >= 600 ? 'bold' : 'regular'}`)
      }
    }
    return { scale, drawn: [...drawn].sort() }
  }, root)

await journey(t, e2e, "the home feed's text is drawn in the type scale's sizes", asGuest, async (page, t) => {
  await page.setViewportSize({ width: 390, height: 844 })
  await page.goto('/')
  await page.getByRole('article').first().waitFor()
  const phone = await drawnSizes(page, 'body')
  t.same(phone.scale, ['13px', '15px', '20px'], 'the scale: small print, body and titles')
  const offScale = (drawn: string[]) => drawn.filter((size) => !phone.scale.includes(size.split(' ')[0] ?? ''))
  t.same(offScale(phone.drawn), [], `on a phone every text is in one of them (${phone.drawn.join(', ')})`)
  t.ok(phone.drawn.length <= 4, `in at most four sizes and weights (${phone.drawn.length})`)

  // On a wide screen the side column's word mark and Post button are drawn larger, as display text.
  await page.setViewportSize({ width: 1280, height: 900 })
  await page.getByRole('heading', { name: 'Who to follow' }).waitFor()
  const wide = await drawnSizes(page, '.app-main, .app-aside')
  t.same(offScale(wide.drawn), [], `so is the text of the page and its panels at 1280 px (${wide.drawn.join(', ')})`)
})

await journey(t, e2e, 'like and unlike', asGuest, async (page, t) => {
  await page.goto('/explore')
  const card = postCard(page, 'Saturn was crisp')
  await card.getByRole('button', { name: 'Like, 1 like', exact: true }).click()
  await card.getByRole('button', { name: 'Unlike, 2 likes', exact: true }).waitFor()
  await page.reload()
  await card.getByRole('button', { name: 'Unlike, 2 likes', exact: true }).click()
  await card.getByRole('button', { name: 'Like, 1 like', exact: true }).waitFor()
  await page.reload()
  await card.getByRole('button', { name: 'Like, 1 like', exact: true }).waitFor()
  t.pass('a like and an unlike both reach the server')
})

await journey(t, e2e, 'comment, edit and delete the comment', asGuest, async (page, t, e2e) => {
  await page.goto(`/post-detail/${await postIdByContent(e2e, 'Saturn was crisp')}`)
  const comments = page.getByRole('region', { name: 'Comments' })
  const reply = comments.getByRole('button', { name: 'Reply', exact: true })
  t.ok(await reply.isDisabled(), 'Reply is disabled while the box is empty')
  await comments.getByPlaceholder('Post your reply').fill('Clear skies this week?')
  await reply.click()
  const comment = comments.getByRole('listitem').filter({ hasText: 'Clear skies this week?' })
  await comment.waitFor()
  await page.getByRole('button', { name: 'Comments, 1 comment', exact: true }).waitFor()

  await comment.getByRole('button', { name: 'Comment options' }).click()
  await page.getByRole('menuitem', { name: 'Edit' }).click()
  await comments.getByLabel('Edit comment').fill('Clear skies all week, I hope!')
  await comments.getByRole('button', { name: 'Update' }).click()
  const edited = comments.getByRole('listitem').filter({ hasText: 'Clear skies all week, I hope!' })
  await edited.waitFor()
  await page.reload()
  await edited.waitFor()

  await edited.getByRole('button', { name: 'Comment options' }).click()
  await page.getByRole('menuitem', { name: 'Delete' }).click()
  await page.getByRole('alertdialog', { name: 'Delete comment?' }).getByRole('button', { name: 'Delete' }).click()
  await edited.waitFor({ state: 'detached' })
  await page.getByRole('status').filter({ hasText: 'Your comment was deleted' }).waitFor()
  await page.getByRole('button', { name: 'Comments, 0 comments', exact: true }).waitFor()
  await page.reload()
  await page.getByRole('button', { name: 'Comments, 0 comments', exact: true }).waitFor()
  t.pass('the comment was added, edited and deleted')
})

await journey(
  t,
  e2e,
  'bookmark and see it on /bookmark',
  { session: (e2e: E2E) => signupUser(e2e, 'saver') },
  async (page, t) => {
    await page.goto('/explore')
    const card = postCard(page, 'Ink, paper, tea')
    await card.getByRole('button', { name: 'Bookmark', exact: true }).click()
    await card.getByRole('button', { name: 'Remove bookmark' }).waitFor()

    await navLink(page, 'Bookmarks').click()
    await waitForPath(page, '/bookmark')
    await card.waitFor()
    t.equal(await page.getByRole('article').count(), 1, 'the bookmarked post is the only one')

    await card.getByRole('button', { name: 'Remove bookmark' }).click()
    // The list may drop the post at once or keep it, unmarked, until the next visit.
    const empty = page.getByText('You have not added any Bookmarks!')
    await empty.or(card.getByRole('button', { name: 'Bookmark', exact: true })).waitFor()
    await page.reload()
    await empty.waitFor()
    t.pass('the bookmark is gone after a reload')
  },
)

await journey(t, e2e, "share and see 'Link successfully copied'", asGuest, async (page, t, e2e) => {
  await page.goto('/explore')
  const card = postCard(page, 'Ink, paper, tea')
  await card.getByRole('button', { name: 'Share: copy link' }).click()
  await page.getByRole('status').filter({ hasText: 'Link successfully copied' }).waitFor()
  const copied = await page.evaluate(() => navigator.clipboard.readText())
  t.equal(
    copied,
    `${e2e.baseURL}/post-detail/${await postIdByContent(e2e, 'Ink, paper, tea')}`,
    'the link to the post is on the clipboard',
  )
})

await journey(
  t,
  e2e,
  "a short post's menu shows whole over the cards below it, and cards off screen are still there to read",
  {},
  async (page, t, e2e) => {
    const user = await signupUser(e2e, 'brief')
    const session = await login(e2e, user.username, user.password)
    const older = Array.from({ length: 8 }, (_, i) => `Older post number ${i + 1}`)
    for (const content of [...older, 'Yo'])
      await call(e2e, 'POST', '/api/posts', { postData: { content } }, session.token)
    await page.setViewportSize({ width: 390, height: 844 })
    await page.goto('/login')
    await page.getByLabel('Username').fill(user.username)
    await page.getByLabel('Password').fill(user.password)
    await page.getByRole('button', { name: 'Login', exact: true }).click()

    // Feed cards off screen skip layout and paint until they come near, which clips what they hold to
    // the card: an open menu must lift that, or its lower items would be cut off at the card's edge.
    const short = page.getByRole('article').filter({ has: page.getByText('Yo', { exact: true }) })
    await short.getByRole('button', { name: 'Post options' }).click()
    const item = page.getByRole('menuitem', { name: 'Delete Post' })
    const box = await item.boundingBox()
    const cardBox = await short.boundingBox()
    if (!box || !cardBox) throw new Error('the menu or its card has no box')
    t.ok(box.y + box.height > cardBox.y + cardBox.height, 'the menu reaches past the bottom of its short card')
    const hit = await page.evaluate(({ x, y }) => document.elementFromPoint(x, y)?.textContent ?? null, {
      x: box.x + box.width / 2,
      y: box.y + box.height - 4,
    })
    t.equal(hit, 'Delete Post', "the menu's last item is drawn below the card, not clipped")
    await page.keyboard.press('Escape')

    // The oldest card starts far below the first screen: it is in the page all the same, and shows when scrolled to.
    const oldest = postCard(page, 'Older post number 1')
    await oldest.waitFor({ state: 'attached' })
    t.ok((await oldest.boundingBox())!.y > 844, 'the oldest card starts below the first screen')
    await oldest.scrollIntoViewIfNeeded()
    t.ok(await oldest.getByRole('button', { name: 'Like, 0 likes', exact: true }).isVisible(), 'and shows its buttons')
  },
)
