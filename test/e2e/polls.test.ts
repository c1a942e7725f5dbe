import type { Page } from 'playwright-core'
import t from 'tap'
import { scan, SCHEMES, showScheme } from './axe.js'
import { saveScreenshot, startE2E, type E2E, type Session } from './harness.js'
import { call, signupUser } from './helpers.js'

/** Polls and content warnings in the browser: a vote in one browser updates the bars in another. */
const e2e = await startE2E(t)

/** A signed-in page on `url` in a colour scheme, once its event stream is open. */
async function open(e2e: E2E, session: Session, url: string, scheme: (typeof SCHEMES)[number]): Promise<Page> {
  const context = await e2e.newContext(session)
  t.teardown(() => context.close())
  const page = await context.newPage()
  await showScheme(page, scheme)
  const streaming = page.waitForResponse((res) => new URL(res.url()).pathname === '/api/events')
  await page.goto(url)
  await streaming
  return page
}

if (e2e) {
  await t.test('a vote in one browser updates the bars in another, without a reload', async (t) => {
    const [author, voter, watcher] = [
      await signupUser(e2e, 'pollster'),
      await signupUser(e2e, 'voter'),
      await signupUser(e2e, 'watcher'),
    ]
    const { post } = await call<{ post: { _id: string } }>(
      e2e,
      'POST',
      '/api/posts',
      { content: 'Tea or coffee?', spoilerText: 'Beverage opinions', poll: { options: ['Tea', 'Coffee'], days: 2 } },
      author.token,
    )
    const url = `/post-detail/${post._id}`
    // One page in each scheme, each scanned by axe as it is.
    const [theirs, mine] = [await open(e2e, watcher, url, 'dark'), await open(e2e, voter, url, 'light')]
    const scanned = async (what: string) => {
      for (const [page, scheme] of [
        [theirs, 'dark'],
        [mine, 'light'],
      ] as const) {
        t.same(await scan(page), [], `${what} (${scheme}): no serious or critical violations`)
      }
    }
    try {
      await theirs.getByRole('button', { name: 'Show', exact: true }).click()
      await theirs.getByText('Tea or coffee?').waitFor()
      t.pass('the warning opens on Show')
      await mine.getByRole('button', { name: 'Show', exact: true }).click()
      await scanned("the poll's form")
      await theirs.getByRole('radio', { name: 'Tea' }).check()
      await theirs.getByRole('button', { name: 'Vote', exact: true }).click()
      const results = theirs.getByRole('group', { name: 'Poll results' })
      await results.getByText('100% · 1 vote').waitFor()
      t.pass('the watcher voted and sees the bars')
      let reloads = 0
      theirs.on('framenavigated', (frame) => {
        if (frame === theirs.mainFrame()) reloads++
      })

      await mine.getByRole('radio', { name: 'Coffee' }).check()
      await mine.getByRole('button', { name: 'Vote', exact: true }).click()
      await mine
        .getByRole('group', { name: 'Poll results' })
        .getByText(/^2 votes · \d+ (day|days|hours) left$/)
        .waitFor()
      await results.getByText(/^2 votes · \d+ (day|days|hours) left$/).waitFor()
      t.equal(await results.getByRole('listitem').nth(1).textContent(), 'Coffee50% · 1 vote', "the other's vote")
      t.equal(await results.getByRole('listitem').nth(0).textContent(), 'Tea (your vote)50% · 1 vote')
      t.equal(reloads, 0, 'the watching page never reloaded')
      await scanned("the poll's results")
    } catch (error) {
      t.fail(String(error))
    }
    if (!t.passing()) {
      t.comment(await saveScreenshot(mine, `${t.name} (voter)`))
      t.comment(await saveScreenshot(theirs, `${t.name} (watcher)`))
    }
  })
}
