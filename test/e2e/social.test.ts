import t from 'tap'
import { journey, startE2E, type E2E } from './harness.js'
import { navLink, signupUser, waitForPath } from './helpers.js'

const e2e = await startE2E(t)
const HOME_EMPTY = 'No posts to show yet. Follow people to see their posts here.'

await journey(
  t,
  e2e,
  'follow from Who to follow and see the home feed change',
  { session: (e2e: E2E) => signupUser(e2e, 'follower') },
  async (page, t) => {
    await page.goto('/')
    await page.getByText(HOME_EMPTY).waitFor()

    // Whoever the panel suggests first: every seeded user has posts.
    const panel = page.getByRole('complementary', { name: 'Who to follow' })
    const first = panel.getByRole('listitem').first()
    const handle = (await first.getByText(/^@/).textContent()) ?? ''
    const follow = first.getByRole('button', { name: /^Follow / })
    const name = ((await follow.getAttribute('aria-label')) ?? '').replace(/^Follow /, '')
    await follow.click()
    await panel.getByText(handle, { exact: true }).waitFor({ state: 'detached' })
    t.pass(`${name} leaves the suggestions once followed`)

    // Still on Home, with no reload and no navigation: the feed itself must change.
    const changed = await page
      .getByRole('article')
      .first()
      .waitFor()
      .then(
        () => true,
        () => false,
      )
    t.ok(changed, `after following ${name}, the home feed shows their posts without leaving Home`)
    if (!changed) return
    t.notOk(await page.getByText(HOME_EMPTY).isVisible(), 'the home feed is no longer empty')
    const shown = await page.getByRole('article').count()
    t.ok(shown > 0, `the home feed shows ${shown} posts`)
    t.equal(await page.getByRole('article').filter({ hasText: handle }).count(), shown, `they are all by ${handle}`)

    await navLink(page, 'Profile').click()
    await page.getByRole('button', { name: /1 Following/ }).click()
    await page.getByRole('dialog', { name: 'Following' }).getByText(name).waitFor()
    t.pass(`the profile lists ${name} under Following`)
  },
)

await journey(
  t,
  e2e,
  'edit the profile (avatar, bio, website) and see it',
  { session: (e2e: E2E) => signupUser(e2e, 'editor') },
  async (page, t) => {
    await page.goto('/')
    await navLink(page, 'Profile').click()
    const header = page.getByRole('region', { name: 'Profile' })
    await header.getByRole('button', { name: 'Edit Profile' }).click()

    const dialog = page.getByRole('dialog', { name: 'Edit Profile' })
    await dialog.getByRole('img', { name: 'Avatar 3' }).click()
    t.ok(await dialog.getByRole('radio', { name: 'Avatar 3' }).isChecked(), 'the third avatar is chosen')
    await dialog.getByLabel('Bio').fill('Testing Chirp in a real browser.')
    await dialog.getByLabel('Website').fill('https://example.com/e2e')
    await dialog.getByRole('button', { name: 'Save' }).click()
    await dialog.waitFor({ state: 'detached' })

    const check = async (when: string) => {
      await header.getByText('Testing Chirp in a real browser.').waitFor()
      const website = header.getByRole('link', { name: 'example.com/e2e' })
      t.equal(await website.getAttribute('href'), 'https://example.com/e2e', `the website links out ${when}`)
      const avatar = header.getByRole('img').first()
      t.match(await avatar.getAttribute('src'), /avatar-3/, `the chosen avatar shows ${when}`)
    }
    await check('after saving')
    const path = new URL(page.url()).pathname
    await page.reload()
    await waitForPath(page, path)
    await check('after a reload')
  },
)
