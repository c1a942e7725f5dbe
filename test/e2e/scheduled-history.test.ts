import t from 'tap'
import { journey, startE2E } from './harness.js'
import { call, postCard, signupUser } from './helpers.js'

/** A post scheduled from the composer waits on Scheduled posts, where it is cancelled; "Edited" opens a post's history. */
const e2e = await startE2E(t)
const writer = e2e && (await signupUser(e2e, 'planner'))

/** An ISO time an hour from now, as a datetime-local input takes it (local time, to the minute). */
function inAnHour(): string {
  const at = new Date(Date.now() + 3600_000)
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`
}

await journey(
  t,
  e2e,
  "schedule a post from the composer, find it on Scheduled posts, cancel it; open an edited post's history",
  { session: async () => writer ?? Promise.reject(new Error('no writer')) },
  async (page, t) => {
    if (!e2e || !writer) throw new Error('the writer signed up')
    await page.goto('/')
    await page.getByRole('textbox', { name: 'Post text' }).fill('A post for later')
    await page.getByRole('button', { name: 'Schedule', pressed: false }).click()
    await page.getByLabel(/Publish at/).fill(inAnHour())
    await page.locator('button[type="submit"]', { hasText: 'Schedule' }).click()
    await page.getByText(/Your post is scheduled for/).waitFor()
    t.equal(await postCard(page, 'A post for later').count(), 0, 'nothing is published yet')

    await page.getByRole('link', { name: 'Scheduled posts' }).click()
    const row = page.getByRole('listitem').filter({ hasText: 'A post for later' })
    await row.waitFor()
    t.pass('Scheduled posts lists it')
    await row.getByRole('button', { name: 'Cancel post' }).click()
    await page
      .getByRole('alertdialog', { name: 'Cancel this post?' })
      .getByRole('button', { name: 'Cancel post' })
      .click()
    await page.getByText(/No scheduled posts/).waitFor()
    t.pass('cancelled, it is gone')

    const made = await call<{ post: { _id: string } }>(
      e2e,
      'POST',
      '/api/posts',
      { postData: { content: 'The first words' } },
      writer.token,
    )
    await call(
      e2e,
      'POST',
      `/api/posts/edit/${made.post._id}`,
      { postData: { content: 'The better words' } },
      writer.token,
    )
    await page.goto(`/post-detail/${made.post._id}`)
    await page.getByRole('button', { name: /show the edit history/ }).click()
    const dialog = page.getByRole('dialog', { name: 'Edit history' })
    const versions = dialog.getByRole('listitem')
    await versions.nth(1).waitFor()
    t.match(await versions.nth(0).textContent(), /Current version, edited.*The better words/)
    t.match(await versions.nth(1).textContent(), /Original.*The first words/)
  },
)
