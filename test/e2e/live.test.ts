import { existsSync } from 'node:fs'
import path from 'node:path'
import t from 'tap'
import type { Page } from 'playwright-core'
import type { Test } from 'tap'
import { saveScreenshot, startE2E, type E2E, type Session } from './harness.js'
import { login, postIdByContent, signupUser } from './helpers.js'
import { ROOT } from './server-process.js'

// DECISIONS §3: the client applies server-sent events to what is on screen. Until client/live/
// exists there is nothing to test here.
if (!existsSync(path.join(ROOT, 'client', 'live'))) {
  t.plan(0, 'the client has no live updates yet (client/live/)')
} else {
  const e2e = await startE2E(t)
  if (e2e) await twoUsers(e2e)
}

/** A signed-in page, and whether it opened its event stream once loaded. */
async function open(e2e: E2E, session: Session, url: string): Promise<{ page: Page; streaming: Promise<boolean> }> {
  const context = await e2e.newContext(session)
  t.teardown(() => context.close())
  const page = await context.newPage()
  const streaming = page.waitForResponse((res) => new URL(res.url()).pathname === '/api/events').then(
    () => true,
    () => false,
  )
  await page.goto(url)
  return { page, streaming }
}

async function twoUsers(e2e: E2E) {
  await t.test('a like and a comment in one browser appear in the other without a reload', async (t) => {
    const postUrl = `/post-detail/${await postIdByContent(e2e, 'Saturn was crisp')}`
    const actor = await open(e2e, await signupUser(e2e, 'actor'), postUrl)
    const watcher = await open(e2e, await login(e2e, 'maya.lin', 'mayapassword'), postUrl)
    try {
      t.ok(await actor.streaming, "the actor's page opens GET /api/events")
      t.ok(await watcher.streaming, "the watcher's page opens GET /api/events")
      if (t.passing()) await likeAndComment(t, actor.page, watcher.page)
    } catch (error) {
      t.fail(String(error))
    }
    if (!t.passing()) {
      t.comment(await saveScreenshot(actor.page, `${t.name} (actor)`))
      t.comment(await saveScreenshot(watcher.page, `${t.name} (watcher)`))
    }
  })
}

async function likeAndComment(t: Test, actor: Page, watcher: Page) {
  let reloads = 0
  watcher.on('framenavigated', (frame) => {
    if (frame === watcher.mainFrame()) reloads++
  })
  await watcher.getByRole('button', { name: 'Like, 1 like', exact: true }).waitFor()

  await actor.getByRole('button', { name: 'Like, 1 like', exact: true }).click()
  await actor.getByRole('button', { name: 'Unlike, 2 likes', exact: true }).waitFor()
  await watcher.getByRole('button', { name: 'Like, 2 likes', exact: true }).waitFor()
  t.pass('the like shows in the other browser')

  const comments = actor.getByRole('region', { name: 'Comments' })
  await comments.getByPlaceholder('Reply!').fill('Seen from the other side')
  await comments.getByRole('button', { name: 'Reply', exact: true }).click()
  await watcher.getByRole('region', { name: 'Comments' }).getByText('Seen from the other side').waitFor()
  t.pass('the comment shows in the other browser')
  t.equal(reloads, 0, 'the watching page never reloaded')
}
