import { randomBytes } from 'node:crypto'
import type { Page } from 'playwright-core'
import t from 'tap'
import { runAdmin } from '../../server/cli/admin.js'
import { dropSchema, TEST_DATABASE_URL } from '../helpers/pg.js'
import { scan, SCHEMES, showScheme } from './axe.js'
import { journey, startE2E, type E2E } from './harness.js'
import { call, followedAuthor, navLink, postCard, signupUser, type NewUser } from './helpers.js'

/**
 * A report from a reader reaches a moderator in another browser live; the moderator removes the post from the
 * queue, it leaves the reader's open feed, and the audit log shows the removal. The server runs on PostgreSQL,
 * where `npm run admin -- role` works while it runs, as an operator makes a moderator.
 */
const schema = `t_${randomBytes(6).toString('hex')}`
const env = { DATABASE_URL: TEST_DATABASE_URL, DATABASE_SCHEMA: schema }
const e2e = await startE2E(t, { env })
// After the server's own teardown, so that it never sees its schema vanish.
t.teardown(() => dropSchema(schema))

/** `npm run admin -- role <username> moderator`, on the server's database. */
async function makeModerator(username: string) {
  const errors: string[] = []
  const code = await runAdmin(['role', username, 'moderator'], env, { log: () => {}, error: (m) => errors.push(m) })
  if (code !== 0) throw new Error(`admin role: ${errors.join('\n')}`)
}

/** An author the reader follows, with one post in the reader's home feed: its text. */
async function followedPost(e2e: E2E, reader: NewUser) {
  const { text } = await followedAuthor(e2e, reader, 'spammer', (username) => `Cheap pills from ${username}`)
  return text
}

let reader: NewUser | undefined
await journey(
  t,
  e2e,
  'a report reaches a moderator live; Remove takes the post out of the reader’s feed; the log shows it',
  {
    session: async (e2e) => {
      reader = await signupUser(e2e, 'reporter')
      return reader
    },
  },
  async (page, t, e2e) => {
    if (!reader) throw new Error('the reader signed up')
    const text = await followedPost(e2e, reader)
    const moderator = await signupUser(e2e, 'mod')
    await makeModerator(moderator.username)
    const modContext = await e2e.newContext(moderator)
    t.teardown(() => modContext.close())
    const modPage = await modContext.newPage()
    await modPage.goto('/')
    await navLink(modPage, 'Moderation').waitFor()
    t.pass('a moderator sees Moderation in the navigation')

    await page.goto('/')
    await postCard(page, text).getByRole('button', { name: 'Post options' }).click()
    await page.getByRole('menuitem', { name: 'Report post' }).click()
    const dialog = page.getByRole('dialog', { name: 'Report this post' })
    await dialog.getByRole('radio', { name: /Spam/ }).check()
    await dialog.getByRole('textbox', { name: /Anything a moderator should know/ }).fill('Selling pills')
    await dialog.getByRole('button', { name: 'Send report' }).click()
    await page.getByText(/Thanks, your report was sent/).waitFor()
    t.pass('the reporter is thanked')

    await navLink(modPage, 'Moderation, 1 open reports').waitFor()
    t.pass("the moderator's count rose live")
    await navLink(modPage, 'Moderation, 1 open reports').click()
    const queue = modPage.getByRole('list', { name: 'Open reports (1)' })
    const report = queue.getByRole('listitem').filter({ hasText: text })
    await report.getByText('“Selling pills”').waitFor()
    t.pass('the queue shows the report with the post in context')
    await report.getByRole('textbox', { name: 'Note (optional)' }).fill('pill spam')
    await report.getByRole('button', { name: 'Remove post' }).click()
    await modPage.getByText('No open reports. All clear.').waitFor()

    await postCard(page, text).waitFor({ state: 'detached' })
    t.pass("the post left the reader's open feed")

    await modPage.getByRole('navigation', { name: 'Moderation' }).getByRole('link', { name: 'Audit log' }).click()
    await modPage
      .getByRole('list', { name: 'Audit log' })
      .getByText(new RegExp(`@${moderator.username} — remove post`))
      .waitFor()
    t.pass('the audit log shows the removal')
  },
)

/** Each moderation page with something on it, as a moderator sees it, scanned by axe in light and dark. */
async function moderationScreens(e2e: E2E, moderator: NewUser) {
  const reader = await signupUser(e2e, 'reader')
  const text = await followedPost(e2e, reader)
  const { posts } = await call<{ posts: { _id: string; content: string }[] }>(e2e, 'GET', '/api/posts?limit=5')
  const post = posts.find((p) => p.content === text)
  await call(e2e, 'POST', '/api/reports', { targetType: 'post', targetId: post?._id, category: 'abuse' }, reader.token)
  await call(e2e, 'POST', '/api/invites', { uses: 2, days: 3 }, moderator.token)
  const { user } = await call<{ user: { _id: string } }>(
    e2e,
    'GET',
    `/api/users/${reader.username}`,
    undefined,
    moderator.token,
  )
  const list = (name: string) => (page: Page) => page.getByRole('list', { name }).waitFor()
  // Someone suspended, whom the audit log names.
  const suspended = await signupUser(e2e, 'suspended')
  const them = await call<{ user: { _id: string } }>(e2e, 'GET', `/api/users/${suspended.username}`)
  const reason = { reason: 'spam', days: 1 }
  await call(e2e, 'POST', `/api/admin/users/${them.user._id}/suspend`, reason, moderator.token)
  const named = `${suspended.fullName} (@${suspended.username})`
  return [
    { path: '/moderation', ready: (page: Page) => page.getByRole('button', { name: 'Remove post' }).first().waitFor() },
    { path: '/moderation/users', ready: (page: Page) => page.getByText('Nobody is waiting for approval.').waitFor() },
    {
      path: `/moderation/users/${user._id}`,
      ready: (page: Page) => page.getByRole('form', { name: /^Suspend/ }).waitFor(),
    },
    { path: '/moderation/invites', ready: list('Invites') },
    {
      path: '/moderation/log',
      ready: (page: Page) => page.getByRole('list', { name: 'Audit log' }).getByRole('link', { name: named }).waitFor(),
    },
  ]
}

let staff: NewUser | undefined
for (const scheme of SCHEMES) {
  await journey(
    t,
    e2e,
    `the moderation pages pass axe, ${scheme}`,
    {
      session: async (e2e) => {
        staff ??= await signupUser(e2e, 'staff')
        await makeModerator(staff.username)
        return staff
      },
    },
    async (page, t, e2e) => {
      if (!staff) throw new Error('the moderator signed up')
      await showScheme(page, scheme)
      for (const screen of await moderationScreens(e2e, staff)) {
        await page.goto(screen.path)
        await screen.ready(page)
        t.same(await scan(page), [], `${screen.path} (${scheme}): no serious or critical violations`)
      }
    },
  )
}
