import type { Page } from 'playwright-core'
import t, { type Test } from 'tap'
import { scan, SCHEMES, showScheme } from './axe.js'
import { journey, startE2E, type E2E } from './harness.js'
import { GUEST, call, login, postIdByContent, signupUser } from './helpers.js'

/*
 * axe-core scans every screen, signed out and in, with each kind of dialog open, in light and dark,
 * and the test fails on any serious or critical violation of WCAG 2.1 A and AA.
 */

const e2e = await startE2E(t)

type Screen = {
  name: string
  path: string
  open?: (page: Page) => Promise<void>
  ready: (page: Page) => Promise<unknown>
}

async function check(page: Page, t: Test, scheme: (typeof SCHEMES)[number], screens: Screen[]) {
  await showScheme(page, scheme)
  for (const screen of screens) {
    await page.goto(screen.path)
    await screen.ready(page)
    await screen.open?.(page)
    t.same(await scan(page), [], `${screen.name} (${scheme}): no serious or critical violations`)
  }
}

const heading = (name: string) => (page: Page) => page.getByRole('heading', { name, exact: true }).first().waitFor()
const firstPost = (page: Page) => page.getByRole('article').first().waitFor()
/** A paged list of people or conversations, or what the page says when it has none. */
const listOrEmpty = (page: Page) => page.locator('.moderation-list, .empty-state').first().waitFor()

const signedOut: Screen[] = [
  { name: 'login', path: '/login', ready: heading('Log in to Chirp') },
  { name: 'signup', path: '/signup', ready: heading('Create your account') },
  { name: 'reset password', path: '/reset-password', ready: heading('Reset your password') },
  { name: '404', path: '/no/such/page', ready: heading('Error 404') },
]

/** The guest blocks one new person and mutes another for a day, so Settings lists someone in each. */
async function restrictSomeone(e2e: E2E) {
  const guest = await login(e2e, GUEST.username, GUEST.password)
  for (const [action, body] of [
    ['block', {}],
    ['mute', { duration: 86_400 }],
  ] as const) {
    const { username } = await signupUser(e2e, action)
    const { user } = await call<{ user: { _id: string } }>(e2e, 'GET', `/api/users/${username}`, undefined, guest.token)
    await call(e2e, 'POST', `/api/users/${action}/${user._id}`, body, guest.token)
  }
}

async function signedIn(e2e: E2E): Promise<Screen[]> {
  const postId = await postIdByContent(e2e, 'Sourdough attempt')
  await restrictSomeone(e2e)
  const menu = (name: string) => (page: Page) => page.getByRole('button', { name }).first().click()
  const dialog = (name: string) => (page: Page) => page.getByRole('dialog', { name }).waitFor()
  return [
    { name: 'home', path: '/', ready: firstPost },
    { name: 'explore', path: '/explore', ready: firstPost },
    { name: 'bookmarks', path: '/bookmark', ready: heading('Bookmarks') },
    {
      name: 'settings',
      path: '/settings',
      ready: (page) => page.getByRole('button', { name: 'Set up two-factor sign-in' }).waitFor(),
    },
    { name: 'own profile', path: '/profile/guest', ready: heading('Guest User') },
    { name: "someone's profile", path: '/profile/maya.lin', ready: firstPost },
    { name: 'post page', path: `/post-detail/${postId}`, ready: firstPost },
    { name: '404 signed in', path: '/no/such/page', ready: heading('Error 404') },
    {
      name: 'notifications',
      path: '/notifications',
      ready: (page) => page.locator('.notification-list, .empty-state').first().waitFor(),
    },
    { name: 'messages', path: '/messages', ready: listOrEmpty },
    {
      name: 'new message',
      path: '/messages',
      ready: listOrEmpty,
      open: async (page) => {
        await page.getByRole('button', { name: 'New message' }).click()
        await dialog('New message')(page)
      },
    },
    { name: 'follow requests', path: '/follow-requests', ready: listOrEmpty },
    {
      name: 'search people',
      path: '/search?q=maya&type=users',
      ready: (page) => page.getByRole('list', { name: 'People found' }).waitFor(),
    },
    { name: 'search posts', path: '/search?q=sourdough', ready: firstPost },
    { name: 'tag page', path: '/tag/tea', ready: (page) => page.locator('article, .empty-state').first().waitFor() },
    {
      name: 'composer modal',
      path: '/',
      ready: firstPost,
      open: async (page) => {
        await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Post', exact: true }).click()
        await dialog('Create Post')(page)
      },
    },
    {
      name: 'account menu',
      path: '/',
      ready: firstPost,
      open: (page) => page.getByRole('button', { name: 'Account menu' }).click(),
    },
    {
      name: 'delete confirmation',
      path: '/profile/guest',
      ready: firstPost,
      open: async (page) => {
        await page.getByRole('button', { name: 'Post options' }).first().click()
        await page.getByRole('menuitem', { name: 'Delete Post' }).click()
        await page.getByRole('alertdialog', { name: 'Delete post?' }).waitFor()
      },
    },
    {
      name: 'settings',
      path: '/settings',
      ready: (page) =>
        page
          .getByRole('button', { name: /^Unmute @/ })
          .first()
          .waitFor(),
    },
    { name: "someone's post menu", path: '/profile/maya.lin', ready: firstPost, open: menu('Post options') },
    { name: 'profile menu', path: '/profile/maya.lin', ready: firstPost, open: menu('Profile options') },
    {
      name: "someone's comment menu",
      path: `/post-detail/${postId}`,
      ready: (page) => page.getByText('That looks amazing, recipe please!').waitFor(),
      open: menu('Comment options'),
    },
    {
      name: 'block confirmation',
      path: '/profile/maya.lin',
      ready: firstPost,
      open: async (page) => {
        await menu('Profile options')(page)
        await page.getByRole('menuitem', { name: 'Block @maya.lin' }).click()
        await page.getByRole('alertdialog', { name: 'Block @maya.lin?' }).waitFor()
      },
    },
    {
      name: 'report dialog',
      path: '/profile/maya.lin',
      ready: firstPost,
      open: async (page) => {
        await menu('Post options')(page)
        await page.getByRole('menuitem', { name: 'Report post' }).click()
        await dialog('Report this post')(page)
      },
    },
    // Moderation pages as a moderator sees them are scanned in moderation.test.ts, whose server has one.
    { name: 'moderation, not allowed', path: '/moderation', ready: heading('Not allowed') },
    {
      name: 'lightbox',
      path: `/post-detail/${postId}`,
      ready: firstPost,
      open: async (page) => {
        await page
          .getByRole('article')
          .getByRole('link', { name: /^Image posted by/ })
          .click()
        await dialog('Image')(page)
      },
    },
    {
      name: 'keyboard shortcuts',
      path: '/explore',
      ready: firstPost,
      open: async (page) => {
        await page.keyboard.press('?')
        await dialog('Keyboard shortcuts')(page)
      },
    },
  ]
}

for (const scheme of SCHEMES) {
  await journey(t, e2e, `signed out, ${scheme}`, {}, (page, t) => check(page, t, scheme, signedOut))
  await journey(
    t,
    e2e,
    `signed in, ${scheme}`,
    { session: (e2e) => login(e2e, GUEST.username, GUEST.password) },
    async (page, t, e2e) => check(page, t, scheme, await signedIn(e2e)),
  )
}
