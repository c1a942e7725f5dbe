import type { Page } from 'playwright-core'
import t, { type Test } from 'tap'
import { scan, SCHEMES, showScheme } from './axe.js'
import { saveScreenshot, startE2E, type E2E } from './harness.js'
import { call, postCard, signupUser, waitForPath, type NewUser } from './helpers.js'
import { openLive } from './live-helpers.js'

/*
 * Who sees what (DECISIONS §12), in the browser: a followers-only post written in the composer reaches a
 * follower and no stranger; two people exchange direct messages, each seeing the other's live; a locked
 * account accepts a follow request, and the requester sees it accepted live. Each screen these add is
 * scanned by axe in light and dark on the way.
 */

const e2e = await startE2E(t)

/** axe finds nothing serious on the page as it stands, in light and in dark. */
async function scanned(t: Test, page: Page, what: string): Promise<void> {
  for (const scheme of SCHEMES) {
    await showScheme(page, scheme)
    t.same(await scan(page), [], `${what} (${scheme}): no serious or critical violations`)
  }
}

/** The user's id, as the API gives it. */
async function idOf(e2e: E2E, user: NewUser, reader: NewUser): Promise<string> {
  const { user: found } = await call<{ user: { _id: string } }>(
    e2e,
    'GET',
    `/api/users/${user.username}`,
    undefined,
    reader.token,
  )
  return found._id
}

/** Runs `steps` with the pages it opens; on failure each page leaves a screenshot. */
async function withPages(t: Test, steps: (pages: Page[]) => Promise<void>): Promise<void> {
  const pages: Page[] = []
  try {
    await steps(pages)
  } catch (error) {
    t.fail(String(error))
  }
  if (!t.passing()) for (const [i, page] of pages.entries()) t.comment(await saveScreenshot(page, `${t.name} ${i}`))
}

if (e2e) {
  await t.test('a followers-only post is seen by a follower and not by a stranger', (t) =>
    withPages(t, async (pages) => {
      const author = await signupUser(e2e, 'author')
      const follower = await signupUser(e2e, 'follower')
      const stranger = await signupUser(e2e, 'stranger')
      await call(e2e, 'POST', `/api/users/follow/${await idOf(e2e, author, follower)}`, {}, follower.token)
      const text = `Only for my followers, from ${author.username}`

      const writer = (await openLive(t, e2e, author, '/')).page
      pages.push(writer)
      const composer = writer.locator('.composer form')
      await composer.getByRole('combobox', { name: 'Audience' }).selectOption({ label: 'Followers only' })
      await composer.getByLabel('Post text').fill(text)
      await composer.getByRole('button', { name: 'Post', exact: true }).click()
      await postCard(writer, text).getByRole('img', { name: 'Audience: Followers only' }).waitFor()
      t.pass('the author sees the post, marked followers only')

      const reader = (await openLive(t, e2e, follower, '/')).page
      pages.push(reader)
      const card = postCard(reader, text)
      await card.getByRole('img', { name: 'Audience: Followers only' }).waitFor()
      t.pass('the follower sees it in the home feed')
      const repost = card.getByRole('button', { name: /^Repost, / })
      t.equal(await repost.getAttribute('aria-disabled'), 'true', 'and cannot repost it')
      await reader.goto(`/profile/${author.username}`)
      await postCard(reader, text).waitFor()
      t.pass("and sees it on the author's profile")

      const { posts } = await call<{ posts: { _id: string; content: string }[] }>(
        e2e,
        'GET',
        `/api/posts/user/${author.username}`,
        undefined,
        author.token,
      )
      const postId = posts.find((post) => post.content === text)?._id ?? ''
      const outsider = (await openLive(t, e2e, stranger, `/profile/${author.username}`)).page
      pages.push(outsider)
      await outsider.getByText(`@${author.username} hasn't posted yet.`).waitFor()
      t.equal(await postCard(outsider, text).count(), 0, "a stranger does not see it on the author's profile")
      await outsider.goto('/explore')
      await outsider.getByRole('article').first().waitFor()
      t.equal(await postCard(outsider, text).count(), 0, 'nor on Explore')
      await outsider.goto(`/post-detail/${postId}`)
      await outsider.getByText("This post doesn't exist. It may have been deleted.").waitFor()
      t.pass('and its own page is not found for them')
    }),
  )

  await t.test('a direct message exchanged live between two browsers', (t) =>
    withPages(t, async (pages) => {
      const alice = await signupUser(e2e, 'alice')
      const bob = await signupUser(e2e, 'bob')
      const bobs = await openLive(t, e2e, bob, '/messages')
      const alices = await openLive(t, e2e, alice, '/messages')
      pages.push(alices.page, bobs.page)
      t.ok(await bobs.streaming, "Bob's page streams its events")
      await bobs.page.getByText(/No messages yet/).waitFor()

      const writer = alices.page
      await writer.getByRole('button', { name: 'New message' }).click()
      const dialog = writer.getByRole('dialog', { name: 'New message' })
      await dialog.getByRole('textbox', { name: 'To' }).fill(`@${bob.username}`)
      await dialog.getByRole('textbox', { name: 'Message' }).fill('Hello Bob, are you there?')
      await dialog.getByRole('button', { name: 'Send' }).click()
      await writer.waitForURL((url) => /^\/messages\/[^/]+$/.test(url.pathname))
      await writer.getByRole('list', { name: 'Messages' }).getByText('Hello Bob, are you there?').waitFor()
      t.pass("Alice's new conversation opens with her message")
      const reloads = { count: 0 }
      writer.on('framenavigated', (frame) => {
        if (frame === writer.mainFrame()) reloads.count++
      })

      const reader = bobs.page
      const row = reader.getByRole('list', { name: 'Conversations' }).getByRole('listitem').first()
      await row.getByText('Hello Bob, are you there?').waitFor()
      await row.getByText('1 unread').waitFor()
      await reader.getByRole('link', { name: 'Messages, 1 unread conversations' }).waitFor()
      t.pass("the conversation shows in Bob's open list live, unread, with the badge")
      await scanned(t, reader, 'Messages')

      await row.getByRole('link').click()
      await reader.getByRole('list', { name: 'Messages' }).getByText('Hello Bob, are you there?').waitFor()
      await reader.getByRole('link', { name: 'Messages', exact: true }).waitFor()
      t.pass('opened, it is read: the badge is gone')
      const box = reader.getByRole('textbox', { name: /^Message to / })
      await box.fill('Here, Alice!')
      await box.press('Enter')
      await reader.getByRole('list', { name: 'Messages' }).getByText('Here, Alice!').waitFor()
      await scanned(t, reader, 'a conversation')

      await writer.getByRole('list', { name: 'Messages' }).getByText('Here, Alice!').waitFor()
      t.pass("Bob's answer shows in Alice's open conversation live")
      // A direct message names its recipients: Alice's starts with Bob's mention.
      const texts = await writer.locator('.message-text').allTextContents()
      t.same(
        texts.slice(-2),
        [`@${bob.username} Hello Bob, are you there?`, 'Here, Alice!'],
        'the newest at the bottom',
      )
      t.equal(reloads.count, 0, 'without a reload')
    }),
  )

  await t.test('a locked account accepts a follow request', (t) =>
    withPages(t, async (pages) => {
      const owner = await signupUser(e2e, 'owner')
      const asker = await signupUser(e2e, 'asker')

      const owners = (await openLive(t, e2e, owner, '/settings')).page
      pages.push(owners)
      await owners.getByRole('checkbox', { name: 'Lock account' }).check()
      await owners.getByText('Your account is locked').waitFor()
      await call(
        e2e,
        'POST',
        '/api/posts',
        { postData: { content: 'Locked in', visibility: 'followers' } },
        owner.token,
      )

      const askers = await openLive(t, e2e, asker, `/profile/${owner.username}`)
      pages.push(askers.page)
      const profile = askers.page
      await profile.getByRole('img', { name: 'Locked account' }).waitFor()
      await scanned(t, profile, 'a locked profile')
      await profile.getByRole('button', { name: `Follow ${owner.fullName}` }).click()
      await profile.getByRole('button', { name: `Requested: follow request to ${owner.fullName}` }).waitFor()
      t.pass('following a locked account shows Requested')
      t.equal(await postCard(profile, 'Locked in').count(), 0, 'its followers-only post stays hidden meanwhile')

      await owners.getByRole('button', { name: /^Account menu/ }).click()
      await owners.getByRole('menuitem', { name: 'Follow requests (1)' }).click()
      await waitForPath(owners, '/follow-requests')
      const accept = owners.getByRole('button', { name: `Accept @${asker.username}` })
      await accept.waitFor()
      await scanned(t, owners, 'Follow requests')
      await accept.click()
      await owners.getByText(`@${asker.username} now follows you`).waitFor()

      await profile.getByRole('button', { name: `Following ${owner.fullName}` }).waitFor()
      t.pass('the asker sees the request accepted, live')
      await postCard(profile, 'Locked in').waitFor()
      t.pass('and the followers-only post shows on the profile')
      await profile.goto('/notifications')
      await profile.getByText('accepted your follow request').waitFor()
      t.pass('the notification says the request was accepted')
    }),
  )
}
