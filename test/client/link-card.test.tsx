import './dom.js'
import { cleanup, screen, within } from '@testing-library/react'
import axe from 'axe-core'
import t from 'tap'
import type { Post } from '../../client/api/types.js'
import { PostCard } from '../../client/components/post-card.js'
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
