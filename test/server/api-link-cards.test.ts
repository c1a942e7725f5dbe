import type { Static } from '@sinclair/typebox'
import t, { type Test } from 'tap'
import { PostUpdatedEventSchema } from '../../server/schemas/events.js'
import { PostReplySchema, type Post } from '../../server/schemas/posts.js'
import { buildApiApp, checkSchema, expectOk, signup, type SignedUp } from '../helpers/api.js'
import { html, ogPage, servePages } from '../helpers/https-pages.js'
import { PNG } from '../helpers/images.js'
import { buildLiveApi } from '../helpers/live-api.js'
import type { SseClient } from '../helpers/sse.js'

/**
 * Link cards through the real app (DECISIONS §10): a post answers at once with `card: null`, and the card
 * follows as a live post.updated carrying the compact post, stored so that a GET shows it. The page server
 * is local, so its host is on the allow list; the fetcher's refusals are link-fetch.test.ts's.
 */

/**
 * The article is served once the first test has its create's answer: the queue may start the card's job
 * before the post's write is answered, so a page served at once could be in the answer already.
 */
let articleServed: () => void = () => {}
const served = new Promise<void>((resolve) => (articleServed = resolve))
const article = html(ogPage({ title: 'A kite over the hill', description: 'How it flew', image: '/kite.png' }))
const pages = await servePages(t, {
  '/article': (req, res) => void served.then(() => article(req, res)),
  '/kite.png': (_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(PNG),
  '/other': html('<html><head><title>Another page</title><meta name="description" content="Elsewhere"></head></html>'),
  '/broken-image': html(ogPage({ title: 'Broken picture', description: 'Its image is not one', image: '/broken.png' })),
  '/broken.png': (_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end('not a png at all'),
  '/kept': html(ogPage({ title: 'Kept', description: 'Fetched once' })),
  '/only-on': html(ogPage({ title: 'On', description: 'Fetched by the app with previews on' })),
})
const LOOPBACK = async () => [{ address: '127.0.0.1', family: 4 }]
const { api, write, stream } = await buildLiveApi(t, {
  config: { linkPreviewAllow: [`localhost:${pages.port}`] },
  options: { linkFetch: { ca: pages.ca, resolve: LOOPBACK } },
})
const [author, watcher] = [await signup(api), await signup(api)]

/** The next post.updated that carries a card for `postId`, as the stream delivers it. */
async function cardEvent(t: Test, client: SseClient, postId: string) {
  const message = await client.until((m) => {
    if (m.event !== 'post.updated') return false
    const data = JSON.parse(m.data ?? '{}') as { postId?: string; post?: Post }
    return data.postId === postId && data.post !== undefined
  }, 10_000)
  t.match(message.id, /^\d+$/, 'the event has an id')
  const data = JSON.parse(message.data ?? '{}') as Static<typeof PostUpdatedEventSchema>
  checkSchema(t, PostUpdatedEventSchema, data, 'post.updated matches its schema')
  return data
}

const posted = async (who: SignedUp, content: string) => {
  const res = await write(who, 'POST', '/api/posts', { content })
  return expectOk(t, res, 201, PostReplySchema, 'create').post
}
const read = async (id: string) => expectOk(t, await api.app.inject(`/api/posts/${id}`), 200, PostReplySchema).post

await t.test('the card follows the post live, and a read shows it', async (t) => {
  const client = await stream(t, watcher)
  const link = `${pages.url('/article')}?from=chirp`
  const post = await posted(author, `Look at this (${link}).`)
  t.equal(post.card, null, 'the create answers at once, without the card')
  articleServed()
  const data = await cardEvent(t, client, post._id)
  t.match(data.card, { url: link, title: 'A kite over the hill', description: 'How it flew' })
  t.match(data.card?.image, /^\/media\/[0-9a-f-]+\.png$/, 'the image is stored here as an upload')
  t.strictSame(data.post?.card, data.card, 'the compact post carries it')
  t.strictSame(data.post?.comments, [], 'the post is in its compact form')
  t.equal(data.content, post.content)
  t.strictSame((await read(post._id)).card, data.card, 'GET /api/posts/{id} shows the card')
  const image = await api.app.inject(data.card?.image ?? '')
  t.equal(image.statusCode, 200, 'the card image is served')
  t.equal(image.headers['content-type'], 'image/png')
  t.ok(image.rawPayload.equals(await api.media.fileOf(data.card?.image ?? '')), 'from where uploads are stored')
})

await t.test('one link is fetched once', async (t) => {
  const client = await stream(t, watcher)
  const first = await posted(author, `first ${pages.url('/kept')}`)
  await cardEvent(t, client, first._id)
  const second = await posted(author, `again ${pages.url('/kept')}`)
  const data = await cardEvent(t, client, second._id)
  t.equal(data.card?.title, 'Kept')
  t.equal(pages.requested.filter((path) => path === '/kept').length, 1, 'the page was asked for once')
})

await t.test('a broken card image leaves the card without one', async (t) => {
  const client = await stream(t, watcher)
  const post = await posted(author, pages.url('/broken-image'))
  const data = await cardEvent(t, client, post._id)
  t.match(data.card, { title: 'Broken picture', description: 'Its image is not one', image: '' })
  t.ok(pages.requested.includes('/broken.png'), 'the image was fetched')
})

await t.test('an edit to another link clears the card and fetches the new one; the same link keeps it', async (t) => {
  const client = await stream(t, watcher)
  const post = await posted(author, `kite ${pages.url('/article')}`)
  const first = await cardEvent(t, client, post._id)
  const sameLink = await write(author, 'POST', `/api/posts/edit/${post._id}`, {
    content: `still the kite ${pages.url('/article')}`,
  })
  t.strictSame(expectOk(t, sameLink, 201, PostReplySchema).post.card, first.card, 'the same link keeps its card')
  const edited = await write(author, 'POST', `/api/posts/edit/${post._id}`, { content: `now ${pages.url('/other')}` })
  // The answer does not wait for the new card, but the queue may have fetched it by the time it is read.
  const answered = expectOk(t, edited, 201, PostReplySchema).post.card
  t.ok(answered === null || answered.url === pages.url('/other'), "the old link's card is gone from the answer")
  const data = await cardEvent(t, client, post._id)
  t.match(data.card, { url: pages.url('/other'), title: 'Another page', description: 'Elsewhere', image: '' })
  t.strictSame((await read(post._id)).card, data.card)
  const removed = await write(author, 'POST', `/api/posts/edit/${post._id}`, { content: 'no link any more' })
  t.equal(expectOk(t, removed, 201, PostReplySchema).post.card, null, 'no link, no card')
})

await t.test('http links and posts without links get no card', async (t) => {
  const before = pages.requested.length
  const post = await posted(author, `plain http://localhost:${pages.port}/article and text`)
  t.equal(post.card, null)
  t.equal(pages.requested.length, before, 'nothing was fetched')
})

await t.test('a start with LINK_PREVIEW_ALLOW set warns that it is for tests only', async (t) => {
  const lines: string[] = []
  await buildApiApp(t, {
    config: { logLevel: 'warn', linkPreviewAllow: ['pages.test:8443'] },
    options: { logStream: { write: (line) => lines.push(line) } },
  })
  t.ok(lines.some((line) => line.includes('LINK_PREVIEW_ALLOW is set (pages.test:8443)')))
})

await t.test('LINK_PREVIEWS=false: no card is fetched', async (t) => {
  const off = await buildApiApp(t, {
    config: { linkPreviews: false, linkPreviewAllow: [`localhost:${pages.port}`] },
    options: { linkFetch: { ca: pages.ca, resolve: LOOPBACK } },
  })
  const who = await signup(off)
  const res = await off.as(who.token, {
    method: 'POST',
    url: '/api/posts',
    payload: { content: pages.url('/only-on') },
  })
  const { post } = expectOk(t, res, 201, PostReplySchema)
  t.equal(post.card, null)
  // The same link posted afterwards where previews are on: its card arrives, and it was the one fetch.
  const client = await stream(t, watcher)
  const on = await posted(author, pages.url('/only-on'))
  await cardEvent(t, client, on._id)
  t.equal(pages.requested.filter((path) => path === '/only-on').length, 1, 'only the app with previews fetched it')
  const again = await off.app.inject(`/api/posts/${post._id}`)
  t.equal(expectOk(t, again, 200, PostReplySchema).post.card, null, 'the post stays without a card')
})
