import './dom.js'
import { cleanup, screen, within } from '@testing-library/react'
import axe from 'axe-core'
import t from 'tap'
import type { Post } from '../../client/api/types.js'
import { PostCard } from '../../client/components/post-card.js'
import { loadExplore } from '../../client/state/lists.js'
import { postCache } from '../../client/state/post-cache.js'
import { cardProps, makePost, ok, renderAt, resetAll } from './helpers.js'
import { LATER, liveApp, samples } from './live-app.js'

t.beforeEach(() => resetAll())
t.afterEach(() => {
  cleanup()
  resetAll()
})

const CARD = {
  url: 'https://www.example.com/kites?x=1',
  title: 'A kite over the hill',
  description: 'How it flew, and why',
  image: '/media/kite.png',
}

await t.test("a link card: the page's image, host, title and description, one link named by them", async (t) => {
  renderAt('/', <PostCard {...cardProps({ post: makePost({ content: `See ${CARD.url}`, card: CARD }) })} />)
  const link = screen.getByRole('link', {
    name: 'example.com A kite over the hill How it flew, and why (opens in a new tab)',
  })
  t.equal(link.getAttribute('href'), CARD.url)
  t.equal(link.getAttribute('target'), '_blank')
  t.equal(link.getAttribute('rel'), 'noopener noreferrer nofollow')
  const card = within(link)
  t.ok(card.getByText('example.com'), 'the host')
  t.ok(card.getByText('A kite over the hill'))
  t.ok(card.getByText('How it flew, and why'))
  const image = link.querySelector('img')
  t.equal(image?.getAttribute('src'), '/media/kite.png')
  t.equal(image?.getAttribute('alt'), '', 'the image is decoration: the link is named by its words')
  t.equal(link.getAttribute('aria-label'), null, 'no label apart from what it shows (WCAG 2.5.3)')
  link.focus()
  t.equal(document.activeElement, link, 'reachable by keyboard')
  // jsdom draws nothing, so contrast is the end-to-end scan's to check.
  const results = await axe.run(link.closest('article') as Element, { rules: { 'color-contrast': { enabled: false } } })
  t.strictSame(
    results.violations.map((violation) => violation.id),
    [],
    'axe finds nothing',
  )
})

await t.test('a card without title or image is named by its host; no card, nothing drawn', async (t) => {
  const bare = { ...CARD, title: '', image: '', description: '' }
  renderAt('/', <PostCard {...cardProps({ post: makePost({ card: bare }) })} />)
  const link = screen.getByRole('link', { name: 'example.com (opens in a new tab)' })
  t.equal(link.querySelector('img'), null)
  cleanup()
  renderAt('/', <PostCard {...cardProps({ post: makePost({ card: null }) })} />)
  t.equal(screen.queryByRole('link', { name: /opens in a new tab/ }), null)
})

await t.test('a card whose address is not https is not drawn', async (t) => {
  renderAt('/', <PostCard {...cardProps({ post: makePost({ card: { ...CARD, url: 'javascript:alert(1)' } }) })} />)
  t.equal(screen.queryByRole('link', { name: /opens in a new tab/ }), null)
})

await t.test('post.updated with a card shows it on the open screen; an edit to another link removes it', async (t) => {
  const { me, p1 } = samples()
  const post: Post = { ...p1, content: `A post to watch ${CARD.url}` }
  const { send } = await liveApp(t, me, '/explore', {
    'GET /api/posts': () => ok({ posts: [post], nextCursor: null }),
  })
  await screen.findByText(/A post to watch/)
  const delta = { postId: 'p1', content: post.content, mediaUrl: '', type: '', updatedAt: post.updatedAt }
  send('post.updated', { ...delta, card: CARD, post: { ...post, card: CARD, likes: { ...post.likes, likedBy: [] } } })
  t.ok(await screen.findByRole('link', { name: /^example\.com A kite over the hill .*\(opens in a new tab\)$/ }))
  t.strictSame(postCache.byId.p1?.card, CARD)
  t.notOk('post' in (postCache.byId.p1 ?? {}), 'the whole post the event carries is not kept inside the post')
  send('post.updated', { ...delta, content: 'Now elsewhere', card: null, updatedAt: LATER, editedAt: LATER })
  await screen.findByText('Now elsewhere')
  t.equal(screen.queryByRole('link', { name: /opens in a new tab/ }), null, 'the old card is gone')
})

/** A read held until the test lets it answer: as a slow list, read before the card was made, arrives late. */
function heldRead() {
  let answer: (post: Post) => void = () => {}
  const answered = new Promise<Post>((resolve) => (answer = resolve))
  return { answer, route: async () => ok({ posts: [await answered], nextCursor: null }) }
}

const cardEvent = (post: Post) => ({
  postId: post._id,
  content: post.content,
  mediaUrl: '',
  type: '',
  updatedAt: post.updatedAt,
  card: CARD,
  post: { ...post, card: CARD },
})
const cardLink = () =>
  screen.findByRole('link', { name: /^example\.com A kite over the hill .*\(opens in a new tab\)$/ })

await t.test('a card told before the list that was read without it arrives still shows', async (t) => {
  const { me, p1 } = samples()
  const post: Post = { ...p1, content: `Read before its card ${CARD.url}` }
  const held = heldRead()
  const { send } = await liveApp(t, me, '/explore', { 'GET /api/posts': held.route })
  send('post.updated', cardEvent(post))
  t.equal(postCache.byId.p1, undefined, 'the event came while the list was on its way')
  held.answer({ ...post, card: null })
  await screen.findByText(/Read before its card/)
  t.ok(await cardLink(), 'the card the event told of is on the post')
})

await t.test('an older read of a post on screen does not take away the card its event brought', async (t) => {
  const { me, p1 } = samples()
  const post: Post = { ...p1, content: `On screen ${CARD.url}` }
  let reads = 0
  const held = heldRead()
  const { send } = await liveApp(t, me, '/explore', {
    'GET /api/posts': () => (++reads === 1 ? ok({ posts: [post], nextCursor: null }) : held.route()),
  })
  await screen.findByText(/On screen/)
  // The list is read again (the stream came back, say), and that read is answered before the card is made.
  const again = loadExplore()
  send('post.updated', cardEvent(post))
  t.strictSame(postCache.byId.p1?.card, CARD, 'the event brought the card')
  held.answer({ ...post, card: null })
  await again
  t.strictSame(postCache.byId.p1?.card, CARD, 'the late read keeps the card')
  t.ok(await cardLink())
})

await t.test('a read of the post as edited since is the newer word: the card told for the old text goes', async (t) => {
  const { me, p1 } = samples()
  const post: Post = { ...p1, content: `Before the edit ${CARD.url}` }
  const held = heldRead()
  const { send } = await liveApp(t, me, '/explore', { 'GET /api/posts': held.route })
  send('post.updated', cardEvent(post))
  held.answer({ ...post, content: 'Edited: no link now', card: null })
  await screen.findByText('Edited: no link now')
  t.equal(screen.queryByRole('link', { name: /opens in a new tab/ }), null)
})
