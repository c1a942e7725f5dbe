import t from 'tap'
import { journey, startE2E, type E2E } from './harness.js'
import { call, followedAuthor, navLink, postCard, signupUser } from './helpers.js'

/**
 * A warn filter added in Settings collapses a matching post on Home until Show anyway, and a matching post
 * that arrives live comes collapsed too.
 */
const e2e = await startE2E(t)

/** The reader, following an author whose post has the filtered word. */
async function readerOfFinale(e2e: E2E) {
  const reader = await signupUser(e2e, 'filterer')
  const { author, text } = await followedAuthor(e2e, reader, 'author', (name) => `The finale tonight, says ${name}`)
  return { reader, author, text }
}
const setup = e2e && (await readerOfFinale(e2e))

await journey(
  t,
  e2e,
  'add a warn filter in Settings, a matching post is collapsed on Home, Show anyway shows it',
  { session: async () => (setup ? setup.reader : Promise.reject(new Error('no reader'))) },
  async (page, t, e2e) => {
    if (!setup) throw new Error('the reader signed up')
    const { author, text } = setup
    await page.goto('/settings#filters')
    const form = page.getByRole('form', { name: 'New filter' })
    await form.getByLabel('Title', { exact: true }).fill('Spoilers')
    await form.getByLabel('Keyword 1', { exact: true }).fill('finale')
    await form.getByRole('button', { name: 'Add filter' }).click()
    const list = page.getByRole('list', { name: 'Your filters' })
    await list.getByRole('heading', { name: 'Spoilers' }).waitFor()
    t.pass('Settings lists the new filter')

    await navLink(page, 'Home').click()
    const collapsed = page.getByRole('article', { name: /^Filtered post by / })
    await collapsed.getByText('Filtered: Spoilers').waitFor()
    t.equal(await page.getByText(text).count(), 0, "the post's text is not shown")
    await collapsed.getByRole('button', { name: 'Show anyway: Filtered: Spoilers' }).click()
    await postCard(page, text).waitFor()
    t.pass('Show anyway shows the post')

    const live = `Another finale live, from ${author.username}`
    await call(e2e, 'POST', '/api/posts', { postData: { content: live } }, author.token)
    await page.getByRole('button', { name: '1 new post' }).click()
    await collapsed.getByText('Filtered: Spoilers').waitFor()
    t.equal(await collapsed.count(), 1, 'the post that came live is collapsed')
    t.equal(await page.getByText(live).count(), 0, 'its text is not shown')
  },
)
