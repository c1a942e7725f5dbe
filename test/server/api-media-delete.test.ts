import path from 'node:path'
import t from 'tap'
import type { Post } from '../../server/schemas/posts.js'
import type { Report } from '../../server/schemas/moderation.js'
import { signup, type SignedUp } from '../helpers/api.js'
import { html, ogPage, servePages } from '../helpers/https-pages.js'
import { PNG } from '../helpers/images.js'
import { untilMediaDeleted, untilOverview } from '../helpers/jobs.js'
import { buildModerationApp, call, imageBy } from '../helpers/moderation.js'

/**
 * Deleting what uses an upload deletes it (DECISIONS §16): each write that takes a use away enqueues a
 * `media-delete` job, which deletes the object once no post, card, profile or open report shows it. Run
 * on both stores, and under test/s3/ with the uploads in a bucket of a real S3-compatible server.
 */

const pages = await servePages(t, {
  '/kite': html(ogPage({ title: 'A kite', description: 'It flew', image: '/kite.png' })),
  '/boat': html(ogPage({ title: 'A boat', description: 'It sailed', image: '/boat.png' })),
  '/kite.png': (_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(PNG),
  '/boat.png': (_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(PNG),
})
const LOOPBACK = async () => [{ address: '127.0.0.1', family: 4 }]
const { api, admin, moderator } = await buildModerationApp(
  t,
  { linkPreviewAllow: [`localhost:${pages.port}`] },
  { linkFetch: { ca: pages.ca, resolve: LOOPBACK } },
)
const [ana, bo] = [await signup(api), await signup(api)]

const stored = async (url: string) => (await api.media.read(path.basename(url))) !== undefined
const deletions = () => untilMediaDeleted(api, admin)

const post = async (who: SignedUp, body: object): Promise<Post> =>
  ((await call(api, who.token, 'POST', '/api/posts', body)).json() as { post: Post }).post
const remove = (who: SignedUp, id: string) => call(api, who.token, 'DELETE', `/api/posts/${id}`)
const read = async (id: string) => ((await api.app.inject(`/api/posts/${id}`)).json() as { post: Post }).post
/** The post once its card has come. */
async function withCard(id: string, image?: string): Promise<Post> {
  for (let i = 0; i < 500; i++) {
    const found = await read(id)
    if (found.card && found.card.image !== image) return found
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  throw new Error(`post ${id} never got its card`)
}

await t.test("a deleted post's image goes once the job has run", async (t) => {
  const image = await imageBy(api, ana.token)
  const { _id } = await post(ana, { content: 'with a picture', mediaUrl: image })
  t.equal((await remove(ana, _id)).statusCode, 201)
  const overview = await deletions()
  t.equal(await stored(image), false, 'the object is gone')
  t.ok((overview.kinds['media-delete']?.done ?? 0) >= 1, 'the admin overview counts the job done')
})

await t.test('an upload two posts share stays until both are gone', async (t) => {
  const image = await imageBy(api, ana.token)
  const first = await post(ana, { content: 'one', mediaUrl: image })
  const second = await post(bo, { content: 'two', mediaUrl: image })
  await remove(ana, first._id)
  await deletions()
  t.equal(await stored(image), true, 'kept while the other post shows it')
  await remove(bo, second._id)
  await deletions()
  t.equal(await stored(image), false, 'gone with the last')
})

await t.test("an edit to another image lets the first go, and a post's own image stays", async (t) => {
  const [before, after] = [await imageBy(api, ana.token), await imageBy(api, ana.token)]
  const { _id } = await post(ana, { content: 'before', mediaUrl: before })
  await call(api, ana.token, 'POST', `/api/posts/edit/${_id}`, { content: 'same image', mediaUrl: before })
  await deletions()
  t.equal(await stored(before), true, 'an edit that keeps the image keeps it')
  t.equal((await call(api, ana.token, 'POST', `/api/posts/edit/${_id}`, { mediaUrl: after })).statusCode, 201)
  await deletions()
  t.equal(await stored(before), false, 'the image replaced is gone')
  t.equal(await stored(after), true, 'the new one stays')
})

await t.test('a replaced avatar and a removed banner go; one still shown elsewhere stays', async (t) => {
  const [first, second, banner] = [
    await imageBy(api, bo.token),
    await imageBy(api, bo.token),
    await imageBy(api, bo.token),
  ]
  await call(api, bo.token, 'POST', '/api/users/edit', { avatarURL: first, bannerURL: banner })
  await post(bo, { content: 'my banner as a post', mediaUrl: banner })
  await call(api, bo.token, 'POST', '/api/users/edit', { avatarURL: second, bannerURL: '' })
  await deletions()
  t.equal(await stored(first), false, 'the old avatar is gone')
  t.equal(await stored(second), true, 'the new avatar stays')
  t.equal(await stored(banner), true, 'the banner a post still shows stays')
})

await t.test("a reported post's image stays while a report about it is open", async (t) => {
  const image = await imageBy(api, ana.token)
  const { _id } = await post(ana, { content: 'reported', mediaUrl: image })
  const filed = await call(api, bo.token, 'POST', '/api/reports', {
    targetType: 'post',
    targetId: _id,
    category: 'spam',
  })
  const reportId = (filed.json() as { report: Report }).report._id
  await remove(ana, _id)
  await deletions()
  t.equal(await stored(image), true, 'the evidence is kept')
  const queue = (await call(api, moderator, 'GET', '/api/admin/reports?status=open')).json() as { reports: Report[] }
  const shown = queue.reports.find((report) => report._id === reportId)
  t.match(shown, { removed: true, target: { mediaUrl: image } }, 'the queue shows the post as it was')
  t.equal((await api.app.inject(image)).statusCode, 200, 'with its image')
  await call(api, moderator, 'POST', `/api/admin/reports/${reportId}/resolve`, { action: 'dismiss' })
  await deletions()
  t.equal(await stored(image), false, 'resolving the report lets it go')
})

await t.test('a report that goes with an account lets its evidence go', async (t) => {
  const leaver = await signup(api)
  const image = await imageBy(api, leaver.token)
  const { _id } = await post(leaver, { content: 'reported, then deleted', mediaUrl: image })
  await call(api, bo.token, 'POST', '/api/reports', { targetType: 'post', targetId: _id, category: 'spam' })
  await remove(leaver, _id)
  await deletions()
  t.equal(await stored(image), true, 'kept while the report is open')
  await call(api, leaver.token, 'DELETE', '/api/account', { password: leaver.password })
  await deletions()
  t.equal(await stored(image), false, 'the report went with its subject, and the image with it')
})

await t.test('a rejected signup lets its avatar go', async (t) => {
  const waiting = await buildModerationApp(t, { registration: 'approval' })
  const avatar = await imageBy(waiting.api, waiting.admin)
  const pending = await signup(waiting.api, { avatarURL: avatar })
  await call(waiting.api, waiting.moderator, 'POST', `/api/admin/users/${pending.user._id}/reject`)
  await untilOverview(waiting.api, waiting.admin, (r) => r.kinds['media-delete']?.done === 1)
  t.equal(await waiting.api.media.read(path.basename(avatar)), undefined)
})

await t.test("a card's image goes when another card replaces it, and a shared one with its last post", async (t) => {
  const first = await post(ana, { content: `see ${pages.url('/kite')}` })
  const kite = (await withCard(first._id)).card?.image ?? ''
  t.equal(await stored(kite), true, "the card's image is stored")
  const second = await post(bo, { content: `also ${pages.url('/kite')}` })
  t.equal((await withCard(second._id)).card?.image, kite, 'a link fetched once shares its image')

  await call(api, ana.token, 'POST', `/api/posts/edit/${first._id}`, { content: `now ${pages.url('/boat')}` })
  const boat = (await withCard(first._id, kite)).card?.image ?? ''
  await deletions()
  t.equal(await stored(kite), true, 'the replaced image stays while the other post shows it')
  await remove(bo, second._id)
  await deletions()
  t.equal(await stored(kite), false, 'and goes with it')

  const third = await post(bo, { content: `back to ${pages.url('/kite')}` })
  const again = (await withCard(third._id)).card?.image ?? ''
  t.not(again, kite, 'the cached card whose image went gets a new one')
  t.equal((await api.app.inject(again)).statusCode, 200, 'which is served')
  await remove(ana, first._id)
  await deletions()
  t.equal(await stored(boat), false, "a deleted post's card image goes")
})

await t.test('every image of a post goes with it, and an edit drops the images it no longer shows', async (t) => {
  const images = [
    await imageBy(api, ana.token),
    await imageBy(api, ana.token),
    await imageBy(api, ana.token),
    await imageBy(api, ana.token),
  ]
  const shared = await imageBy(api, ana.token)
  const four = await post(ana, { content: 'four', media: images.map((url) => ({ url })) })
  await post(bo, { content: 'the same second image', mediaUrl: images[1] })
  const [first, second, third, fourth] = images as [string, string, string, string]
  const edited = await call(api, ana.token, 'POST', `/api/posts/edit/${four._id}`, {
    media: [{ url: first }, { url: second }, { url: shared }],
  })
  t.equal(edited.statusCode, 201)
  await deletions()
  t.strictSame(
    await Promise.all([first, second, third, fourth, shared].map(stored)),
    [true, true, false, false, true],
    'the two it dropped are gone',
  )
  t.equal((await remove(ana, four._id)).statusCode, 201)
  await deletions()
  t.strictSame(
    await Promise.all([first, second, shared].map(stored)),
    [false, true, false],
    'the rest go with the post, but for the one another post shows',
  )
})
