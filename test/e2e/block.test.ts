import t from 'tap'
import { journey, startE2E, type E2E } from './harness.js'
import { followedAuthor, navLink, postCard, signupUser, type NewUser } from './helpers.js'

/** Blocking someone from their profile takes their posts out of the feeds; unblocking in Settings brings them back. */
const e2e = await startE2E(t)

let reader: NewUser | undefined
await journey(
  t,
  e2e,
  'block someone from their profile, their posts leave the feed; unblock in Settings and they come back',
  {
    session: async (e2e: E2E) => {
      reader = await signupUser(e2e, 'blocker')
      return reader
    },
  },
  async (page, t, e2e) => {
    if (!reader) throw new Error('the reader signed up')
    const { author, text } = await followedAuthor(e2e, reader)
    await page.goto('/')
    await postCard(page, text).waitFor()
    t.pass("the author's post is in the home feed")

    await postCard(page, text)
      .getByRole('link', { name: `@${author.username}` })
      .click()
    await page.getByRole('button', { name: 'Profile options' }).click()
    await page.getByRole('menuitem', { name: `Block @${author.username}` }).click()
    const dialog = page.getByRole('alertdialog', { name: `Block @${author.username}?` })
    t.match(
      await dialog.textContent(),
      /neither of you will see the other's posts/,
      'the confirmation says what happens',
    )
    await dialog.getByRole('button', { name: 'Block' }).click()
    await postCard(page, text).waitFor({ state: 'detached' })
    t.pass('their post leaves their profile at once')

    await navLink(page, 'Home').click()
    await page.getByText('No posts to show yet. Follow people to see their posts here.').waitFor()
    t.equal(await postCard(page, text).count(), 0, 'the home feed no longer has it')
    await navLink(page, 'Explore').click()
    await page.getByRole('article').first().waitFor()
    t.equal(await postCard(page, text).count(), 0, 'nor does Explore')

    await page.getByRole('button', { name: 'Account menu' }).click()
    await page.getByRole('menuitem', { name: 'Settings' }).click()
    const blocked = page.getByRole('list', { name: 'Blocked people' })
    await blocked.getByText(`@${author.username}`).waitFor()
    await page.getByRole('button', { name: `Unblock @${author.username}` }).click()
    await page.getByText('You have not blocked anyone.').waitFor()
    t.pass('Settings lists the block, and Unblock takes it off')

    await navLink(page, 'Explore').click()
    await postCard(page, text).waitFor()
    t.pass('their post is back in Explore')
  },
)
