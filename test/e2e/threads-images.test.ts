import t, { type Test } from 'tap'
import { scan, SCHEMES, showScheme } from './axe.js'
import { journey, startE2E } from './harness.js'
import { call, drawImage, imageLoaded, postCard, signupUser } from './helpers.js'

/** Posts with four described images, and replies to replies drawn as a tree, in the browser (DECISIONS §15). */
const e2e = await startE2E(t)

/** No serious or critical axe finding on the page as it stands, in either colour scheme. */
async function clean(page: Parameters<typeof scan>[0], t: Test, what: string) {
  for (const scheme of SCHEMES) {
    await showScheme(page, scheme)
    t.same(await scan(page), [], `${what} (${scheme}): no serious or critical violations`)
  }
}

await journey(
  t,
  e2e,
  'post four images with their descriptions, answer the reminder, see ALT and the descriptions in the viewer',
  { session: (e2e) => signupUser(e2e, 'pictures') },
  async (page, t) => {
    await page.goto('/')
    const composer = page.getByRole('main')
    const text = `Four at once ${Date.now()}`
    await composer.getByPlaceholder('What is happening?!').fill(text)
    for (let i = 1; i <= 4; i++) {
      const chooser = page.waitForEvent('filechooser')
      await composer.getByRole('button', { name: 'Add image', exact: true }).click()
      await (await chooser).setFiles(await drawImage(page, 'image/png'))
      await composer.getByLabel(i === 1 ? 'Image description' : `Image ${i} description`).waitFor()
    }
    t.ok(
      await composer.getByRole('button', { name: 'Add image (at most 4)' }).isDisabled(),
      'no fifth image can be added',
    )
    const descriptions = ['A blue sky', 'A pink dusk', '', 'The same sky again']
    for (const [i, description] of descriptions.entries()) {
      if (description) await composer.getByLabel(`Image ${i + 1} description`).fill(description)
    }
    await clean(page, t, 'the composer with four images')
    await composer.getByRole('button', { name: 'Post', exact: true }).click()

    const ask = page.getByRole('alertdialog', { name: 'Post without a description?' })
    await ask.waitFor()
    t.pass('an image without a description asks first')
    await clean(page, t, 'the reminder')
    await ask.getByRole('button', { name: 'Post anyway' }).click()

    const card = postCard(page, text)
    await card.waitFor()
    for (const description of ['A blue sky', 'A pink dusk', 'The same sky again']) {
      t.ok(await imageLoaded(card.getByRole('img', { name: description })), `"${description}" shows, named by it`)
    }
    t.ok(await imageLoaded(card.getByRole('img', { name: /^Image 3 of 4 posted by / })), 'the undescribed one too')
    t.equal(await card.locator('.alt-badge').count(), 3, 'ALT on each described image')
    await clean(page, t, 'the post with four images')

    await card.getByRole('img', { name: 'A pink dusk' }).click()
    const viewer = page.getByRole('dialog', { name: 'Image 2 of 4' })
    await viewer.getByText('A pink dusk').waitFor()
    t.pass('the viewer writes the description out')
    await clean(page, t, 'the viewer')
    await viewer.getByRole('button', { name: 'Next image' }).click()
    await page.getByRole('dialog', { name: 'Image 3 of 4' }).waitFor()
    await page.keyboard.press('Escape')

    // Turned off in Settings, the reminder no longer asks.
    await page.goto('/settings#composing')
    const reminder = page.getByRole('checkbox', { name: 'Remind me to describe images' })
    await reminder.uncheck()
    await page.getByText('The reminder is off').waitFor()
    await clean(page, t, 'Settings')
    await page.goto('/')
    const again = `Not described ${Date.now()}`
    await composer.getByPlaceholder('What is happening?!').fill(again)
    const chooser = page.waitForEvent('filechooser')
    await composer.getByRole('button', { name: 'Add image', exact: true }).click()
    await (await chooser).setFiles(await drawImage(page, 'image/png'))
    await composer.getByLabel('Image description').waitFor()
    await composer.getByRole('button', { name: 'Post', exact: true }).click()
    await postCard(page, again).waitFor()
    t.equal(await page.getByRole('alertdialog').count(), 0, 'posted without asking')
  },
)

await journey(
  t,
  e2e,
  'reply to a reply: each answer sits under the comment it answers',
  { session: (e2e) => signupUser(e2e, 'threader') },
  async (page, t, e2e) => {
    const [author, first] = [await signupUser(e2e, 'poster'), await signupUser(e2e, 'first')]
    const { post } = await call<{ post: { _id: string } }>(
      e2e,
      'POST',
      '/api/posts',
      { content: 'Talk to me' },
      author.token,
    )
    await call(e2e, 'POST', `/api/comments/add/${post._id}`, { commentData: { text: 'The first word' } }, first.token)

    await page.goto(`/post-detail/${post._id}`)
    const comments = page.getByRole('region', { name: 'Comments' })
    await comments.getByText('The first word').waitFor()
    await comments.getByRole('button', { name: `Reply to @${first.username}` }).click()
    await comments.getByRole('textbox', { name: `Reply to @${first.username}` }).fill('An answer to it')
    await comments.getByRole('button', { name: 'Reply', exact: true }).click()
    const toFirst = comments.getByRole('list', { name: `Replies to @${first.username}` })
    await toFirst.getByText('An answer to it').waitFor()
    t.pass('the reply sits under the comment it answers')

    const myName = ((await toFirst.locator('.author-handle').first().textContent()) ?? '').replace(/^@/, '')
    await toFirst.getByRole('button', { name: `Reply to @${myName}` }).click()
    await comments.getByRole('textbox', { name: `Reply to @${myName}` }).fill('And an answer to the answer')
    await comments.getByRole('button', { name: 'Reply', exact: true }).click()
    const toMine = toFirst.getByRole('list', { name: `Replies to @${myName}` })
    await toMine.getByText('And an answer to the answer').waitFor()
    t.pass('a reply to a reply sits under the reply, a level deeper')

    const { comments: kept } = await call<{ comments: { _id: string; text: string; replyTo: string | null }[] }>(
      e2e,
      'GET',
      `/api/comments/${post._id}`,
      undefined,
      author.token,
    )
    const byText = new Map(kept.map((comment) => [comment.text, comment]))
    t.equal(byText.get('An answer to it')?.replyTo, byText.get('The first word')?._id)
    t.equal(
      byText.get('And an answer to the answer')?.replyTo,
      byText.get('An answer to it')?._id,
      'the server keeps the real parent',
    )
    await clean(page, t, 'the thread')
  },
)
