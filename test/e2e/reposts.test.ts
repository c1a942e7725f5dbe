import t from 'tap'
import { journey, saveScreenshot, startE2E, type E2E } from './harness.js'
import { call, postCard, signupUser, type NewUser } from './helpers.js'
import { openLive } from './live-helpers.js'

/** A repost made in one browser appears, with who reposted it, in a follower's open home feed. */
const e2e = await startE2E(t)
if (e2e) await repostReachesFollower(e2e)

async function repostReachesFollower(e2e: E2E) {
  await t.test("a repost appears in a follower's open home feed, and says who reposted it", async (t) => {
    const [author, reposter, follower] = [
      await signupUser(e2e, 'author'),
      await signupUser(e2e, 'reposter'),
      await signupUser(e2e, 'follower'),
    ]
    const text = `Worth passing on ${Date.now().toString(36)}`
    const { post } = await call<{ post: { _id: string } }>(e2e, 'POST', '/api/posts', { content: text }, author.token)
    const me = await call<{ user: { _id: string } }>(
      e2e,
      'GET',
      `/api/users/${reposter.username}`,
      undefined,
      follower.token,
    )
    await call(e2e, 'POST', `/api/users/follow/${me.user._id}`, {}, follower.token)

    const watcher = await openLive(t, e2e, follower, '/')
    const actor = await openLive(t, e2e, reposter, `/post-detail/${post._id}`)
    try {
      t.ok(await watcher.streaming, "the follower's home opens its event stream")
      await watcher.page
        .getByText('No posts to show yet.', { exact: false })
        .or(watcher.page.getByRole('article'))
        .first()
        .waitFor()
      t.equal(await postCard(watcher.page, text).count(), 0, 'the post is not in the feed before the repost')

      await actor.page.getByRole('button', { name: 'Repost, 0 reposts' }).click()
      await actor.page.getByRole('menuitem', { name: 'Repost', exact: true }).click()
      await actor.page.getByRole('button', { name: 'Reposted, 1 repost' }).waitFor()
      t.pass('the reposter sees it reposted')

      await watcher.page.getByRole('button', { name: '1 new post' }).click()
      const card = postCard(watcher.page, text)
      await card.waitFor()
      await card.getByRole('link', { name: `Reposted by ${reposter.fullName}` }).waitFor()
      t.pass("the repost is in the follower's feed, with who reposted it")
      await card.getByRole('button', { name: 'Repost, 1 repost' }).waitFor()
      t.pass('with its count')
    } catch (error) {
      t.fail(String(error))
    }
    if (!t.passing()) {
      t.comment(await saveScreenshot(actor.page, `${t.name} (actor)`))
      t.comment(await saveScreenshot(watcher.page, `${t.name} (watcher)`))
    }
  })
}

let toggler: NewUser | undefined

/** Quick toggles of a repost and a pin end where the server is, and a reload shows the same. */
await journey(
  t,
  e2e,
  'fast repost and pin toggles end where the server is',
  { session: async (e2e) => (toggler = await signupUser(e2e, 'toggler')) },
  async (page, t, e2e) => {
    if (!toggler) throw new Error('signed up')
    const { token, username } = toggler
    const text = `Toggled quickly ${Date.now().toString(36)}`
    const { post } = await call<{ post: { _id: string } }>(e2e, 'POST', '/api/posts', { content: text }, token)
    const held = async () =>
      (
        await call<{ post: { reposted: boolean; pinned?: boolean } }>(
          e2e,
          'GET',
          `/api/posts/${post._id}`,
          undefined,
          token,
        )
      ).post

    await page.goto(`/profile/${username}`)
    const card = postCard(page, text)
    for (const item of ['Repost', 'Undo repost', 'Repost', 'Undo repost', 'Repost']) {
      await card.getByRole('button', { name: /^Repost(ed)?, / }).click()
      await page.getByRole('menuitem', { name: item, exact: true }).click()
    }
    for (const item of ['Pin to profile', 'Unpin from profile', 'Pin to profile', 'Unpin from profile']) {
      await card.getByRole('button', { name: 'Post options' }).click()
      await page.getByRole('menuitem', { name: item }).click()
    }
    await card.getByRole('button', { name: 'Reposted, 1 repost' }).waitFor()
    for (let tries = 0; ; tries++) {
      const now = await held()
      if (now.reposted && now.pinned !== true) break
      if (tries > 50) throw new Error(`the server holds ${JSON.stringify(now)}`)
      await page.waitForTimeout(100)
    }
    t.pass('the server holds the last clicks: reposted, not pinned')
    // The server may have taken the last click before the page has its answer: the card settles on it.
    await card
      .getByText('Pinned', { exact: true })
      .waitFor({ state: 'detached' })
      .catch(() => undefined)
    t.equal(await card.getByText('Pinned', { exact: true }).count(), 0, 'the post does not say Pinned')
    await page.reload()
    await postCard(page, text).getByRole('button', { name: 'Reposted, 1 repost' }).waitFor()
    t.equal(await postCard(page, text).getByText('Pinned', { exact: true }).count(), 0, 'nor after a reload')
  },
)
