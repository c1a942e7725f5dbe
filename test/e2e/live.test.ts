import { existsSync } from 'node:fs'
import path from 'node:path'
import t from 'tap'
import type { BrowserContext, Page } from 'playwright-core'
import type { Test } from 'tap'
import { saveScreenshot, startE2E, type E2E, type Session } from './harness.js'
import { login, postCard, postIdByContent, signupUser } from './helpers.js'
import { openLive, recordStreams, seenAt, within, type Sight } from './live-helpers.js'
import { ROOT } from './server-process.js'

/** What one user does shows on the other's screen within a second of the write. */
const LIVE_MS = 1000

// The client applies server-sent events to what is on screen. Until client/live/
// exists there is nothing to test here.
if (!existsSync(path.join(ROOT, 'client', 'live'))) {
  t.plan(0, 'the client has no live updates yet (client/live/)')
} else {
  const e2e = await startE2E(t)
  if (e2e) {
    await twoUsers(e2e)
    await offlineAndBack(e2e)
  }
}

/** A signed-in page, and whether it opened its event stream once loaded. */
function open(e2e: E2E, session: Session, url: string) {
  return openLive(t, e2e, session, url)
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
  await comments.getByPlaceholder('Post your reply').fill('Seen from the other side')
  await comments.getByRole('button', { name: 'Reply', exact: true }).click()
  await watcher.getByRole('region', { name: 'Comments' }).getByText('Seen from the other side').waitFor()
  t.pass('the comment shows in the other browser')
  t.equal(reloads, 0, 'the watching page never reloaded')
}

/**
 * Does `act` in the actor's page and waits for its write (`isWrite`) to be answered, then for every sight on
 * the watcher's pages. Passes when the last of them changed the screen within LIVE_MS of the answer.
 */
async function liveStep(
  t: Test,
  actor: Page,
  what: string,
  act: () => Promise<void>,
  isWrite: (url: URL, method: string) => boolean,
  sights: [Page, Sight][],
) {
  // Both are settled on every path, so a page closed by a failure elsewhere is no unhandled rejection.
  const seen = Promise.all(sights.map(([page, sight]) => seenAt(page, sight))).catch(() => undefined)
  const answer = actor.waitForResponse((res) => isWrite(new URL(res.url()), res.request().method())).catch(() => null)
  const clickedAt = Date.now()
  await act()
  t.ok((await answer)?.ok(), `${what}: the write succeeds`)
  const answeredAt = Date.now()
  const times = await within(seen, 10_000)
  if (!times) return t.fail(`${what}: never reached the other browser`)
  const ms = Math.max(...times) - answeredAt
  t.comment(
    `${what}: on the other screen ${ms} ms after the write was answered, ${Math.max(...times) - clickedAt} ms after the click`,
  )
  t.ok(ms < LIVE_MS, `${what} reaches the other browser within ${LIVE_MS} ms`)
}

async function offlineAndBack(e2e: E2E) {
  await t.test(
    'guest watches maya: a like, a comment, a follow and a new post live; offline, then caught up',
    async (t) => {
      const watcher = await e2e.newContext(await login(e2e, 'guest', 'guestpassword'))
      const acting = await e2e.newContext(await login(e2e, 'maya.lin', 'mayapassword'))
      t.teardown(() => watcher.close())
      t.teardown(() => acting.close())
      const streams = recordStreams(watcher)
      const connected = watcher.waitForEvent('response', (res) => new URL(res.url()).pathname === '/api/events')
      const [home, profile, actor] = [await watcher.newPage(), await watcher.newPage(), await acting.newPage()]
      try {
        await Promise.all([home.goto('/'), profile.goto('/profile/maya.lin'), actor.goto('/')])
        await Promise.all([
          postCard(home, 'Redesigned our onboarding').waitFor(),
          profile.getByRole('button', { name: '3 Following' }).waitFor(),
        ])
        await connected
        await home.waitForTimeout(500)
        t.equal(streams.length, 1, "the watcher's two tabs share one event stream")

        const onboarding = postCard(actor, 'Redesigned our onboarding')
        const post = (url: URL, method: string, prefix: string) => method === 'POST' && url.pathname.startsWith(prefix)
        await liveStep(
          t,
          actor,
          'a like',
          () => onboarding.getByRole('button', { name: 'Like, 3 likes', exact: true }).click(),
          (url, m) => post(url, m, '/api/posts/like/'),
          [[home, { post: 'Redesigned our onboarding', label: 'Like, 4 likes' }]],
        )
        await liveStep(
          t,
          actor,
          'a comment',
          async () => {
            await onboarding.getByRole('button', { name: 'Comments, 1 comment' }).click()
            await onboarding.getByPlaceholder('Post your reply').fill('Seen from the other browser')
            await onboarding.getByRole('button', { name: 'Reply', exact: true }).click()
          },
          (url, m) => post(url, m, '/api/comments/add/'),
          [[home, { post: 'Redesigned our onboarding', label: 'Comments, 2 comments' }]],
        )

        await actor.goto('/profile/lucia.rossi')
        const luciaFollow = actor
          .getByRole('region', { name: 'Profile' })
          .getByRole('button', { name: 'Follow Lucia Rossi' })
        await liveStep(
          t,
          actor,
          'a follow',
          () => luciaFollow.click(),
          (url, m) => post(url, m, '/api/users/follow/'),
          [[profile, { button: '4 Following' }]],
        )

        await actor.goto('/')
        const firstBefore = await home.getByRole('article').first().textContent()
        await liveStep(
          t,
          actor,
          'a new post',
          async () => {
            await actor.getByRole('main').getByPlaceholder('What is happening?!').fill('Fresh from Maya, live')
            await actor.getByRole('main').getByRole('button', { name: 'Post', exact: true }).click()
          },
          (url, m) => m === 'POST' && url.pathname === '/api/posts',
          [[home, { button: '1 new post' }]],
        )
        t.equal(
          await home.getByRole('article').first().textContent(),
          firstBefore,
          'the feed did not move under the reader',
        )
        await home.getByRole('button', { name: '1 new post' }).click()
        await home.getByRole('article').first().filter({ hasText: 'Fresh from Maya, live' }).waitFor()
        t.pass('a click shows the new post on top')

        await catchUp(t, watcher, [home, profile], actor, streams)
      } catch (error) {
        t.fail(String(error))
      }
      if (!t.passing()) {
        for (const [name, page] of Object.entries({ home, profile, actor }))
          t.comment(await saveScreenshot(page, `${t.name} (${name})`))
      }
    },
  )
}

/**
 * The watcher goes offline while the actor writes; back online, it resumes from its last event. Chromium's
 * offline emulation leaves an open EventSource alone, so the gap exists because the client drops its
 * stream on the browser's `offline` event, as it would lose it on a real network.
 */
async function catchUp(
  t: Test,
  watcher: BrowserContext,
  [home, profile]: Page[],
  actor: Page,
  streams: { lastEventId: string | null }[],
) {
  if (!home || !profile) return
  await watcher.setOffline(true)
  const hotTake = postCard(actor, 'Hot take: dark mode')
  await hotTake.getByRole('button', { name: 'Like, 2 likes', exact: true }).click()
  await hotTake.getByRole('button', { name: 'Unlike, 3 likes', exact: true }).waitFor()
  await hotTake.getByRole('button', { name: 'Comments, 0 comments' }).click()
  await hotTake.getByPlaceholder('Post your reply').fill('Written while you were away')
  await hotTake.getByRole('button', { name: 'Reply', exact: true }).click()
  await hotTake.getByRole('button', { name: 'Comments, 1 comment' }).waitFor()
  await actor.getByRole('main').getByPlaceholder('What is happening?!').fill('Posted while you were offline')
  await actor.getByRole('main').getByRole('button', { name: 'Post', exact: true }).click()
  await postCard(actor, 'Posted while you were offline').waitFor()
  await actor.goto('/profile/lucia.rossi')
  await actor.getByRole('region', { name: 'Profile' }).getByRole('button', { name: 'Following Lucia Rossi' }).click()
  await actor.getByRole('region', { name: 'Profile' }).getByRole('button', { name: 'Follow Lucia Rossi' }).waitFor()
  await home.waitForTimeout(3000)
  t.ok(
    await postCard(home, 'Hot take: dark mode').getByRole('button', { name: 'Like, 2 likes', exact: true }).isVisible(),
    'offline, the watcher still shows the old count',
  )

  const caught = Promise.all([
    seenAt(home, { post: 'Hot take: dark mode', label: 'Like, 3 likes' }),
    seenAt(home, { post: 'Hot take: dark mode', label: 'Comments, 1 comment' }),
    seenAt(home, { button: '1 new post' }),
    seenAt(profile, { button: '3 Following' }),
  ])
  const before = streams.length
  const onlineAt = Date.now()
  await watcher.setOffline(false)
  const times = await within(caught, 10_000)
  if (!times) return t.fail('the watcher did not catch up within 10 s of coming back')
  t.comment(`back online: caught up on all four changes ${Math.max(...times) - onlineAt} ms after the network returned`)
  t.pass('like, comment, new post and unfollow all arrived after the gap')
  const resumed = streams.slice(before)
  t.equal(resumed.length, 1, 'one new stream')
  t.match(resumed[0]?.lastEventId, /^\d+$/, 'resumed from the last event id it had seen')
  await home.getByRole('button', { name: '1 new post' }).click()
  await home.getByRole('article').first().filter({ hasText: 'Posted while you were offline' }).waitFor()
  t.pass('the post made while offline waits behind the button, then tops the feed')
}
