import t from 'tap'
import { journey, startE2E, type E2E } from './harness.js'
import { fillSignup, GUEST, login, navLink, postIdByContent, uniqueUsername, waitForPath } from './helpers.js'

const e2e = await startE2E(t)
const asGuest = { session: (e2e: E2E) => login(e2e, GUEST.username, GUEST.password) }

await journey(t, e2e, 'sign up and land on the page that sent you to login', {}, async (page, t) => {
  await page.goto('/bookmark')
  await waitForPath(page, '/login?from=%2Fbookmark')
  await page.getByRole('link', { name: 'Sign up' }).click()
  await waitForPath(page, '/signup?from=%2Fbookmark')

  const username = uniqueUsername('newbie')
  await fillSignup(page, username, 'Nora', 'Newcomer')
  await page.getByRole('button', { name: 'Create Account' }).click()

  await waitForPath(page, '/bookmark')
  await page.getByRole('heading', { name: 'Bookmarks' }).waitFor()
  await page.getByText('You have not added any Bookmarks!').waitFor()
  await navLink(page, 'Profile').click()
  await waitForPath(page, `/profile/${username}`)
  await page.getByRole('heading', { name: 'Nora Newcomer' }).waitFor()
  t.pass('signed up and landed on /bookmark')
})

await journey(t, e2e, "a wrong password shows the server's message", {}, async (page, t) => {
  await page.goto('/login')
  await page.getByLabel('Username').fill(GUEST.username)
  await page.getByLabel('Password').fill('not-the-password')
  await page.getByRole('button', { name: 'Login', exact: true }).click()
  await page.getByRole('alert').filter({ hasText: 'The credentials you entered are invalid.' }).waitFor()
  t.equal(new URL(page.url()).pathname, '/login', 'still on the login page')
})

await journey(t, e2e, 'login as guest', {}, async (page, t) => {
  await page.goto('/')
  await waitForPath(page, '/login')
  await page.getByRole('button', { name: 'Login as a Guest' }).click()
  await waitForPath(page, '/')
  await page.getByRole('heading', { name: 'Latest Posts' }).waitFor()
  t.equal(await navLink(page, 'Profile').getAttribute('href'), '/profile/guest', 'signed in as guest')
})

await journey(t, e2e, 'a return path that resolves to another site leads home', {}, async (page, t, e2e) => {
  // `/..//evil.example`: the `..` is resolved away, and what is left reads as the host evil.example.
  await page.goto('/login?from=%2F..%2F%2Fevil.example')
  await page.getByRole('button', { name: 'Login as a Guest' }).click()
  await waitForPath(page, '/')
  await page.getByRole('heading', { name: 'Latest Posts' }).waitFor()
  t.equal(new URL(page.url()).origin, new URL(e2e.baseURL).origin, 'still on this site')
  t.equal(await page.getByText('Unexpected Application Error!').count(), 0, 'no crash')
})

await journey(t, e2e, 'logout sends to /login', asGuest, async (page, t) => {
  await page.goto('/')
  await page.getByRole('heading', { name: 'Latest Posts' }).waitFor()
  await page.getByRole('button', { name: 'Account menu' }).click()
  await page.getByRole('menuitem', { name: 'Log out @guest' }).click()
  await page.getByRole('alertdialog', { name: 'Log out of Chirp?' }).getByRole('button', { name: 'Log out' }).click()
  await waitForPath(page, '/login')
  t.equal(await page.evaluate(() => localStorage.getItem('token')), null, 'the token is gone')
  await page.goto('/explore')
  await waitForPath(page, '/login?from=%2Fexplore')
  t.pass('a guarded page sends the logged-out visitor to /login')
})

await journey(t, e2e, 'an unknown path shows the 404 page', asGuest, async (page, t) => {
  await page.goto('/no/such/page')
  await page.getByRole('heading', { name: 'Error 404' }).waitFor()
  await page.getByText('The page you are searching for does not exist').waitFor()
  await page.getByRole('link', { name: 'Back to Home' }).click()
  await waitForPath(page, '/')
  await page.getByRole('heading', { name: 'Latest Posts' }).waitFor()
  t.pass('the 404 page leads back home')
})

await journey(t, e2e, 'reload on a deep link stays there', asGuest, async (page, t, e2e) => {
  await page.goto('/profile/maya.lin')
  await page.getByRole('heading', { name: 'Maya Lin' }).waitFor()
  await page.reload()
  await waitForPath(page, '/profile/maya.lin')
  await page.getByRole('heading', { name: 'Maya Lin' }).waitFor()

  const postId = await postIdByContent(e2e, 'Saturn was crisp')
  await page.goto(`/post-detail/${postId}`)
  await page.getByText('Saturn was crisp through the telescope').waitFor()
  await page.reload()
  await waitForPath(page, `/post-detail/${postId}`)
  await page.getByText('Saturn was crisp through the telescope').waitFor()
  t.pass('profile and post detail survive a reload')
})
