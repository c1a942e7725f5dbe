import { randomBytes } from 'node:crypto'
import t from 'tap'
import { journey, startE2E } from './harness.js'
import { call, login, signupUser, waitForPath } from './helpers.js'

/**
 * Mentions in the browser: the Mentions tab of the notifications page, answering a mention from it,
 * and the composer's typeahead, which names a person as `@` is typed and is worked with the keys.
 */
const e2e = await startE2E(t)
const reader = e2e && (await signupUser(e2e, 'reader'))

await journey(
  t,
  e2e,
  'the Mentions tab, a reply from the list, and @ typeahead in the composer, at 390 px',
  { session: async () => reader! },
  async (page, t, e2e) => {
    await page.setViewportSize({ width: 390, height: 844 })
    const maya = await login(e2e, 'maya.lin', 'mayapassword')
    const words = `tea ${randomBytes(3).toString('hex')}`
    await call(e2e, 'POST', '/api/posts', { content: `@${reader!.username} ${words}?` }, maya.token)
    await call(
      e2e,
      'POST',
      `/api/users/follow/${(await call<{ user: { _id: string } }>(e2e, 'GET', `/api/users/${reader!.username}`)).user._id}`,
      undefined,
      maya.token,
    )

    await page.goto('/notifications')
    const list = page.getByRole('list', { name: 'Notifications' })
    await list.getByText('Maya Lin @maya.lin followed you').waitFor()
    await page.getByRole('tab', { name: 'Mentions' }).click()
    await list.getByText('Maya Lin @maya.lin mentioned you in a post').waitFor()
    t.equal(await list.getByText('followed you').count(), 0, 'Mentions shows only mentions')

    await list.getByRole('button', { name: 'Reply to Maya Lin' }).click()
    const box = list.getByRole('textbox', { name: 'Reply to Maya Lin' })
    t.equal(await box.inputValue(), '@maya.lin ')
    await box.pressSequentially('count me in', { delay: 10 })
    await list.getByRole('button', { name: 'Send reply' }).click()
    await page.getByText('Your reply was sent').waitFor()
    const { posts } = await call<{ posts: { content: string; comments: { text: string }[] }[] }>(
      e2e,
      'GET',
      `/api/posts/user/maya.lin`,
    )
    const answered = posts.find((p) => p.content.includes(words))
    t.same(
      answered?.comments.map((c) => c.text),
      ['@maya.lin count me in'],
      'the reply is a comment on the post',
    )

    await page.goto('/')
    await waitForPath(page, '/')
    const composer = page.getByRole('textbox', { name: 'Post text' })
    await composer.click()
    await composer.pressSequentially('Tea with @may', { delay: 30 })
    const suggestions = page.getByRole('listbox', { name: 'Suggestions' })
    await suggestions.getByRole('option', { name: /Maya Lin/ }).waitFor()
    await composer.press('ArrowDown')
    const chosen = await composer.getAttribute('aria-activedescendant')
    t.ok(chosen, 'the arrow chooses an option, named by aria-activedescendant')
    t.match(await page.locator(`[id="${chosen}"]`).textContent(), /@maya/)
    await page.keyboard.press('Enter')
    t.match(await composer.inputValue(), /^Tea with @maya\S* $/, 'Enter writes the username in whole')
    t.equal(await suggestions.count(), 0, 'and the list closes')
  },
)
