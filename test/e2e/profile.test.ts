import t from 'tap'
import { scan } from './axe.js'
import { journey, startE2E, type E2E } from './harness.js'
import { call, drawImage, postCard, signupUser, type NewUser } from './helpers.js'

/*
 * A profile of one's own in Chromium: a new picture chosen from a file, cropped square in the Edit
 * Profile dialog (moved with the keyboard, zoomed with the slider) and uploaded; it shows in the header
 * and on the user's posts, and is still there after a reload. The true post count, and the Media and
 * Likes tabs beside Posts.
 */
const e2e = await startE2E(t)

/** The journey's own account, signed up as its browser context is made. */
let me: NewUser | undefined
const signedUp = (prefix: string) => async (e2e: E2E) => (me = await signupUser(e2e, prefix))

await journey(
  t,
  e2e,
  'Edit Profile: upload, crop and save an avatar, a banner and a display name',
  { session: signedUp('face') },
  async (page, t, e2e) => {
    if (!me) throw new Error('signed up')
    const { token, username } = me
    await call(e2e, 'POST', '/api/posts', { content: 'My very first post' }, token)
    await page.goto(`/profile/${username}`)
    const header = page.getByRole('region', { name: 'Profile' })
    await header.getByText('1 Post', { exact: true }).waitFor()

    await page.getByRole('button', { name: 'Edit Profile' }).click()
    const dialog = page.getByRole('dialog', { name: 'Edit Profile' })
    await dialog.getByLabel('Upload a new avatar').setInputFiles(await drawImage(page, 'image/png'))
    const frame = dialog.getByRole('group', { name: 'Crop the avatar' })
    await frame.waitFor()
    t.same(await scan(page), [], 'the cropper: no serious or critical axe finding')
    const image = frame.locator('img')
    const before = await image.getAttribute('style')
    await dialog.getByLabel('Zoom').fill('2')
    await frame.focus()
    await page.keyboard.press('ArrowLeft')
    await page.keyboard.press('ArrowUp')
    t.not(await image.getAttribute('style'), before, 'zoom and the arrow keys move the image')
    await dialog.getByRole('button', { name: 'Apply' }).click()
    const chosen = dialog.getByRole('img', { name: 'Your avatar' })
    await chosen.waitFor()
    const avatar = (await chosen.getAttribute('src')) ?? ''
    t.match(avatar, /^\/media\/[0-9a-f-]{36}\.(png|webp|jpg)$/, 'uploaded to this server')

    await dialog.getByLabel('Upload a new banner').setInputFiles(await drawImage(page, 'image/jpeg'))
    await dialog.getByRole('group', { name: 'Crop the banner' }).waitFor()
    await dialog.getByRole('button', { name: 'Apply' }).click()
    await dialog.getByRole('img', { name: 'Your banner' }).waitFor()
    await dialog.getByLabel('Display name').fill('Eve the Cropper')
    await dialog.getByRole('button', { name: 'Save' }).click()
    await dialog.waitFor({ state: 'detached' })

    const check = async (when: string) => {
      await header.getByRole('heading', { name: 'Eve the Cropper' }).waitFor()
      t.equal(
        await header.locator('img.avatar').getAttribute('src'),
        avatar,
        `${when}: the header shows the new avatar`,
      )
      t.match(await header.locator('img.profile-banner').getAttribute('src'), /^\/media\//, `${when}: and the banner`)
      const card = postCard(page, 'My very first post')
      t.equal(await card.locator('img.avatar').first().getAttribute('src'), avatar, `${when}: and so does the post`)
      await card.locator('.author-name', { hasText: 'Eve the Cropper' }).waitFor()
      await page.locator('.account-names .author-name', { hasText: 'Eve the Cropper' }).waitFor()
      t.pass(`${when}: the post and the account menu show the display name`)
    }
    await check('after saving')
    await page.reload()
    await check('after a reload')
    t.same(await scan(page), [], 'the profile: no serious or critical axe finding')
  },
)

await journey(t, e2e, 'A profile’s Media and Likes tabs', { session: signedUp('tabs') }, async (page, t, e2e) => {
  if (!me) throw new Error('signed up')
  const { token, username } = me
  await call(e2e, 'POST', '/api/posts', { content: 'Only words here' }, token)
  const { posts } = await call<{ posts: { _id: string; content: string }[] }>(e2e, 'GET', '/api/posts?limit=3')
  const liked = posts.find((post) => post.content !== 'Only words here')
  if (!liked) throw new Error('no post to like')
  await call(e2e, 'POST', `/api/posts/like/${liked._id}`, undefined, token)
  await page.goto(`/profile/${username}`)
  await postCard(page, 'Only words here').waitFor()
  await page.getByRole('tab', { name: 'Media' }).click()
  await page.getByText('No photos or videos yet.').waitFor()
  await page.getByRole('tab', { name: 'Likes' }).click()
  await postCard(page, liked.content.slice(0, 30)).waitFor()
  t.equal(await page.getByRole('tab', { name: 'Likes' }).getAttribute('aria-selected'), 'true')
})
