import t from 'tap'
import { saveScreenshot, startE2E, type E2E } from './harness.js'
import { call, postCard, signupUser } from './helpers.js'
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
