import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import t from 'tap'
import { html, ogPage, servePages } from '../helpers/https-pages.js'
import { PNG } from '../helpers/images.js'
import { scan, SCHEMES, showScheme } from './axe.js'
import { journey, startE2E, type E2E } from './harness.js'
import { call, navLink, postCard, signupUser, type NewUser } from './helpers.js'

/*
 * Link cards in Chromium (DECISIONS §10): a card made on the server reaches an open screen even when the
 * list was read before the card was made and answers after its post.updated came; the link card and a
 * quote card are named for screen readers, and the screen is clean for axe in light and dark.
 */
let release: () => void = () => {}
const released = new Promise<void>((resolve) => (release = resolve))
const pages = await servePages(t, {
  // The page answers only once the test lets it: the card is made after the list was read.
  '/article': (req, res) =>
    void released.then(() =>
      html(ogPage({ title: 'A kite over the hill', description: 'How it flew', image: '/k.png' }))(req, res),
    ),
  '/k.png': (_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(PNG),
})
const caDir = await mkdtemp(path.join(tmpdir(), 'chirp-e2e-ca-'))
t.teardown(() => rm(caDir, { recursive: true, force: true }))
const caFile = path.join(caDir, 'ca.pem')
await writeFile(caFile, pages.ca)
const e2e = await startE2E(t, {
  env: { LINK_PREVIEW_ALLOW: `localhost:${pages.port}`, NODE_EXTRA_CA_CERTS: caFile },
})

type Card = { title: string } | null
/** Waits until the server holds the post's card. */
async function cardStored(e2e: E2E, postId: string, token: string): Promise<void> {
  for (;;) {
    const { post } = await call<{ post: { card: Card } }>(e2e, 'GET', `/api/posts/${postId}`, undefined, token)
    if (post.card) return
    await sleep(100)
  }
}

let watcher: NewUser | undefined
await journey(
  t,
  e2e,
  'a card made after the list was read still reaches the open screen; link and quote cards are named',
  { session: async (e2e) => (watcher = await signupUser(e2e, 'watcher')) },
  async (page, t, e2e) => {
    if (!watcher) throw new Error('signed up')
    const { token } = watcher
    const author = await signupUser(e2e, 'linker')
    const text = `Kites today ${pages.url('/article')}`
    const { post } = await call<{ post: { _id: string } }>(e2e, 'POST', '/api/posts', { content: text }, author.token)
    await call(e2e, 'POST', '/api/posts', { content: 'Look at this one', quoteOf: post._id }, author.token)

    // Home first, so the stream is open before Explore reads its list.
    const stream = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/events')
    await page.goto('/')
    await stream
    let held = false
    await page.route('**/api/posts?*', async (route) => {
      if (held) return route.continue()
      held = true
      // Read now, without the card; answered only once the card is made and its event has had time to come.
      const response = await route.fetch()
      release()
      await cardStored(e2e, post._id, token)
      await sleep(1500)
      await route.fulfill({ response })
    })
    await navLink(page, 'Explore').click()
    const card = postCard(page, 'Kites today')
    const link = card.getByRole('link', { name: /A kite over the hill/ })
    await link.waitFor()
    t.equal(await link.getAttribute('aria-label'), null, 'named by what it shows')
    t.pass('the card is on the open screen')
    const quote = postCard(page, 'Look at this one').getByRole('link', {
      name: new RegExp(`^Quoted post by ${author.fullName} @${author.username}`),
    })
    await quote.waitFor()
    t.pass('the quote card is named by who wrote it')
    for (const scheme of SCHEMES) {
      await showScheme(page, scheme)
      t.same(await scan(page), [], `explore with link and quote cards (${scheme}): no serious or critical violations`)
    }
  },
)
