import t, { type Test } from 'tap'
import type { Page } from 'playwright-core'
import { SCHEMES, scan, showScheme } from './axe.js'
import { journey, startE2E, type E2E } from './harness.js'
import { call, followedAuthor, navLink, postCard, signupUser } from './helpers.js'

/**
 * Lists (DECISIONS §15) in a real browser: made from the navigation's Lists, a followed person added, the
 * list's timeline shows their posts and takes a new one live, and the list is renamed and deleted, with
 * the keyboard where a person would use it and axe clean in light and dark.
 */
const e2e = await startE2E(t)

async function scanned(t: Test, page: Page, what: string): Promise<void> {
  for (const scheme of SCHEMES) {
    await showScheme(page, scheme)
    t.same(await scan(page), [], `${what} (${scheme}): no serious or critical violations`)
  }
}

async function readerAndAuthor(e2e: E2E) {
  const reader = await signupUser(e2e, 'lister')
  const { author, text } = await followedAuthor(e2e, reader, 'listed', (name) => `Listed post by ${name}`)
  const other = await followedAuthor(e2e, reader, 'unlisted', (name) => `Not on the list, by ${name}`)
  return { reader, author, text, other }
}
const setup = e2e && (await readerAndAuthor(e2e))

await journey(
  t,
  e2e,
  'make a list, add someone followed, read its timeline live, rename and delete it',
  { session: async () => (setup ? setup.reader : Promise.reject(new Error('no reader'))) },
  async (page, t) => {
    if (!setup || !e2e) throw new Error('the reader signed up')
    const { author, text, other } = setup
    await page.goto('/')
    await navLink(page, 'Lists').click()
    await page.getByRole('heading', { name: 'Lists', level: 1 }).waitFor()
    await page.getByText(/You have no lists yet/).waitFor()
    await scanned(t, page, 'the Lists page')

    const form = page.getByRole('form', { name: 'New list' })
    await form.getByLabel('List name').fill('Friends')
    await form.getByLabel('List name').press('Enter')
    await page.getByRole('heading', { name: 'Friends', level: 1 }).waitFor()
    t.pass('the new list opens')

    const edit = page.getByRole('button', { name: 'Edit list' })
    await edit.focus()
    await page.keyboard.press('Enter')
    const add = page.getByRole('button', { name: `Add ${author.fullName} to the list` })
    await add.focus()
    await page.keyboard.press('Enter')
    await page
      .getByRole('list', { name: 'On this list' })
      .getByRole('button', { name: `Remove ${author.fullName} from the list` })
      .waitFor()
    t.pass('the followed person is on the list')
    await scanned(t, page, "a list's settings")

    await page.getByRole('button', { name: 'Done' }).click()
    await page.reload()
    await postCard(page, text).waitFor()
    t.equal(await postCard(page, other.text).count(), 0, 'someone not on the list is not in its timeline')

    const live = `Live on the list ${Date.now()}`
    await call(e2e, 'POST', '/api/posts', { postData: { content: live } }, author.token)
    await postCard(page, live).waitFor({ timeout: 15_000 })
    t.pass("a new post of the list's person shows without a reload")
    await call(e2e, 'POST', '/api/posts', { postData: { content: `${live} elsewhere` } }, other.author.token)
    await call(e2e, 'POST', '/api/posts', { postData: { content: `${live} again` } }, author.token)
    await postCard(page, `${live} again`).waitFor({ timeout: 15_000 })
    t.equal(await postCard(page, `${live} elsewhere`).count(), 0, 'nor live')
    await scanned(t, page, "a list's timeline")

    await page.getByRole('button', { name: 'Edit list' }).click()
    const settings = page.getByRole('form', { name: 'Edit list Friends' })
    await settings.getByLabel('List name').fill('Close friends')
    await settings.getByRole('button', { name: 'Save list' }).click()
    await page.getByRole('heading', { name: 'Close friends', level: 1 }).waitFor()
    t.pass('renamed')

    await page.getByRole('button', { name: 'Delete list' }).click()
    await page.getByRole('alertdialog', { name: 'Delete this list?' }).getByRole('button', { name: 'Delete' }).click()
    await page.getByText(/You have no lists yet/).waitFor()
    t.pass('deleted, back on Lists')
  },
)
