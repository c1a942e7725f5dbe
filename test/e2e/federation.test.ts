import type { Page } from 'playwright-core'
import t, { type Test } from 'tap'
import { scan, SCHEMES, showScheme } from './axe.js'
import { startFederated, type Instance } from './federation-harness.js'
import { saveScreenshot } from './harness.js'
import { postCard, signupUser, waitForPath, type NewUser } from './helpers.js'

/*
 * Two Chirp instances federating over https (DECISIONS §14), each in a browser page of its own. Ann of the
 * first finds Bo of the second by typing @bo@host in the search box, opens his profile (his page on his
 * server linked from it) and follows him; Bo sees the follow in his notifications and posts; Ann's home
 * feed shows his post with its HTML and a link to the original. Every screen that shows him is clean for
 * axe in light and dark.
 */
const federated = await startFederated(t, 2)

/** Fails the test with what axe found on the page, in both colour schemes. */
async function axeClean(t: Test, page: Page, where: string) {
  for (const scheme of SCHEMES) {
    await showScheme(page, scheme)
    t.same(await scan(page), [], `${where} is clean for axe (${scheme})`)
  }
  await showScheme(page, 'light')
}

/** Whether an image has loaded (a broken one has no natural width), once it has loaded or failed. */
const shown = (image: HTMLImageElement) =>
  image.complete
    ? image.naturalWidth > 0
    : new Promise<boolean>((resolve) => {
        image.addEventListener('load', () => resolve(image.naturalWidth > 0))
        image.addEventListener('error', () => resolve(false))
      })

/** Watches a page for exceptions that escaped the app, to report them with the step that failed. */
function watch(page: Page, problems: string[], name: string) {
  page.on('pageerror', (error) => problems.push(`${name}: page error: ${error.message}`))
}

if (federated) {
  const [one, two] = federated.instances as [Instance, Instance]
  let ann: NewUser | undefined
  let bo: NewUser | undefined
  const problems: string[] = []
  const pages: Page[] = []

  await t.test('a person of one server finds, follows and reads a person of another', async (t) => {
    ann = await signupUser(one, 'ann')
    bo = await signupUser(two, 'bo')
    const boHandle = `${bo.username}@${two.host}`
    const annHandle = `${ann.username}@${one.host}`
    const annPage = await (await federated.newContext(one, ann)).newPage()
    const boPage = await (await federated.newContext(two, bo)).newPage()
    pages.push(annPage, boPage)
    watch(annPage, problems, 'Ann')
    watch(boPage, problems, 'Bo')
    try {
      // Ann searches for Bo by his full handle, from the search box of her own server.
      await annPage.goto('/')
      const box = annPage.getByRole('combobox', { name: 'Search Chirp' })
      await box.fill(`@${boHandle}`)
      await box.press('Enter')
      const found = annPage.getByRole('list', { name: 'People found' })
      await found.waitFor({ timeout: 30_000 })
      const card = found.getByRole('link', { name: new RegExp(bo.fullName) })
      await card.waitFor()
      t.match(await found.textContent(), `@${boHandle}`, 'found through his server, by his handle')
      await axeClean(t, annPage, 'the search that found him')

      await card.click()
      await waitForPath(annPage, `/profile/${boHandle}`)
      await annPage.getByRole('heading', { level: 1, name: bo.fullName }).waitFor()
      const home = annPage.getByRole('link', { name: `Their profile on ${two.host}` })
      t.ok((await home.getAttribute('href'))?.startsWith(two.origin), 'his page on his server is linked')
      t.same(
        await annPage.getByRole('tab').allTextContents(),
        ['Posts', 'Media'],
        'his profile has no Likes: his server keeps those',
      )
      t.ok(
        await annPage.getByRole('region', { name: 'Profile' }).locator('img.avatar').evaluate(shown),
        'his avatar, from his server, shows',
      )
      await axeClean(t, annPage, 'his profile')

      await annPage.getByRole('button', { name: `Follow ${bo.fullName}` }).click()
      await annPage.getByRole('button', { name: `Following ${bo.fullName}` }).waitFor()
      t.pass('Ann follows Bo')

      // Bo, on his own server, sees that Ann of the other server follows him.
      await boPage.goto('/notifications')
      const row = boPage
        .getByRole('list', { name: 'Notifications' })
        .getByRole('listitem')
        .filter({ hasText: 'followed you' })
      await row.waitFor({ timeout: 30_000 })
      t.match(await row.textContent(), `@${annHandle}`, 'the follow, from Ann of the other server')
      await axeClean(t, boPage, 'his notifications')

      // Bo posts; his post goes to his followers on Ann's server.
      await boPage.goto('/')
      const text = `Kites over the bay with #windy days ${Date.now()}`
      const composer = boPage.getByRole('main').getByPlaceholder('What is happening?!')
      await composer.fill(text)
      await composer.press('Control+Enter')
      await postCard(boPage, text).waitFor()

      // Ann's home feed shows it: live, or after a reload when the live update did not come.
      await annPage.goto('/')
      const post = postCard(annPage, 'Kites over the bay')
      for (let attempt = 0; attempt < 20 && !(await post.isVisible()); attempt++) {
        await annPage.waitForTimeout(1500)
        if (!(await post.isVisible())) await annPage.reload()
      }
      await post.waitFor()
      t.match(await post.locator('.author-handle').textContent(), `@${boHandle}`, 'his post, under his handle')
      t.equal(
        await post.getByRole('link', { name: '#windy' }).getAttribute('href'),
        '/tag/windy',
        'its hashtag opens the tag here',
      )
      t.ok(await post.locator('.post-avatar img').evaluate(shown), 'with his avatar')
      const original = post.getByRole('link', { name: `Open the original on ${two.host}` })
      t.ok((await original.getAttribute('href'))?.startsWith(two.origin), 'and links to the original')
      await axeClean(t, annPage, 'her home feed with his post')
      t.same(problems, [], 'no uncaught errors in either page')
    } catch (error) {
      for (const page of pages) t.comment(await saveScreenshot(page, `federation ${pages.indexOf(page)}`))
      for (const problem of problems) t.comment(problem)
      throw error
    }
  })
}
