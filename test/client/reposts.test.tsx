import './dom.js'
import { cleanup, fireEvent, screen, within } from '@testing-library/react'
import t from 'tap'
import * as MSG from '../../common/messages.js'
import { NotificationRow } from '../../client/components/notification-row.js'
import { PostCard } from '../../client/components/post-card.js'
import { groupNotifications } from '../../client/lib/notification-groups.js'
import { PostItem } from '../../client/pages/post-item.js'
import { ToastHost } from '../../client/pages/toast-host.js'
import { lists } from '../../client/state/lists.js'
import { postCache } from '../../client/state/post-cache.js'
import { applyRepost } from '../../client/state/reposts.js'
import {
  cardProps,
  choose,
  fail,
  makePost,
  makeUser,
  ok,
  renderAt,
  resetAll,
  signInAs,
  stubApi,
  summary,
  until,
} from './helpers.js'

/** Reposts, quotes and pins in the client: the Repost menu, "Reposted by", the quote card, Pin and the notifications' words. */
t.beforeEach(() => resetAll())
t.afterEach(() => {
  cleanup()
  resetAll()
})

await t.test('the Repost action opens a menu: Repost or Undo repost, and Quote', async (t) => {
  const chosen: string[] = []
  const props = cardProps({
    post: makePost({ repostCount: 2 }),
    onToggleRepost: () => chosen.push('repost'),
    onQuote: () => chosen.push('quote'),
  })
  renderAt('/', <PostCard {...props} />)
  const button = screen.getByRole('button', { name: 'Repost, 2 reposts' })
  t.equal(button.getAttribute('aria-haspopup'), 'menu', 'a menu button')
  choose('Repost, 2 reposts', 'Repost')
  choose('Repost, 2 reposts', 'Quote')
  t.strictSame(chosen, ['repost', 'quote'])
  cleanup()
  renderAt('/', <PostCard {...props} post={makePost({ repostCount: 3, reposted: true })} />)
  fireEvent.click(screen.getByRole('button', { name: 'Reposted, 3 reposts' }))
  t.ok(screen.getByRole('menuitem', { name: 'Undo repost' }), 'a repost can be undone')
})

await t.test('a reposted post in the home feed says who reposted it', async (t) => {
  renderAt('/', <PostCard {...cardProps({ repostedBy: { name: 'Theo Park', username: 'theo' } })} />)
  const link = screen.getByRole('link', { name: 'Reposted by Theo Park' })
  t.equal(link.getAttribute('href'), '/profile/theo')
})

await t.test('a quote shows the quoted post, or says it is unavailable', async (t) => {
  const quoted = makePost({
    _id: 'q1',
    id: 'q1',
    content: 'the original words',
    username: 'theo',
    firstName: 'Theo',
    lastName: 'Park',
  })
  renderAt('/', <PostCard {...cardProps({ post: makePost({ quoteOf: 'q1', quote: quoted }) })} />)
  const card = screen.getByRole('link', { name: 'Quoted post by Theo Park @theo the original words' })
  t.equal(card.getAttribute('aria-label'), null, 'named by what it shows, no label apart (WCAG 2.5.3)')
  t.equal(card.getAttribute('href'), '/post-detail/q1')
  t.ok(within(card).getByText('the original words'))
  cleanup()
  renderAt('/', <PostCard {...cardProps({ post: makePost({ quoteOf: 'q1', quote: null }) })} />)
  t.ok(screen.getByText('This post is unavailable'))
})

await t.test('a quoted post behind a content warning shows only the warning', async (t) => {
  const quoted = makePost({
    _id: 'q1',
    id: 'q1',
    content: 'the hidden words',
    mediaUrl: '/media/q.png',
    type: 'image',
    spoilerText: 'spoilers for the finale',
    firstName: 'Theo',
    lastName: 'Park',
  })
  renderAt('/', <PostCard {...cardProps({ post: makePost({ quoteOf: 'q1', quote: quoted }) })} />)
  const card = screen.getByRole('link', {
    name: 'Quoted post by Theo Park @maya Content warning: spoilers for the finale',
  })
  t.ok(within(card).getByText('Content warning: spoilers for the finale'))
  t.notOk(within(card).queryByText('the hidden words'), 'the text stays hidden')
  t.equal(card.querySelector('img.quote-media'), null, 'and so does the image')
})

await t.test("the owner's menu pins and unpins; the profile says Pinned", async (t) => {
  const chosen: string[] = []
  const own = makePost({ username: 'guest' })
  const props = cardProps({ post: own, onTogglePin: () => chosen.push('pin') })
  renderAt('/', <PostCard {...props} />)
  choose('Post options', 'Pin to profile')
  t.strictSame(chosen, ['pin'])
  t.equal(screen.queryByText('Pinned'), null, 'not pinned yet')
  cleanup()
  renderAt('/', <PostCard {...props} post={{ ...own, pinned: true }} showPinned />)
  t.ok(screen.getByText('Pinned'), 'the label on the profile')
  fireEvent.click(screen.getByRole('button', { name: 'Post options' }))
  t.ok(screen.getByRole('menuitem', { name: 'Unpin from profile' }))
})

await t.test('a repost is optimistic, and rolls back when refused', async (t) => {
  // A refusal that the server holds a repost already would leave it reposted (toggle-queue.test.ts).
  const me = makeUser({ username: 'guest' })
  signInAs(me)
  postCache.byId.p1 = makePost({ _id: 'p1', id: 'p1' })
  renderAt(
    '/',
    <>
      <PostItem postId="p1" />
      <ToastHost />
    </>,
  )
  let release: () => void = () => {}
  const api = stubApi({
    'POST /api/posts/repost/p1': () =>
      new Promise((resolve) => {
        release = () => resolve(fail(403, MSG.cannotInteract))
      }),
  })
  t.teardown(api.restore)
  choose('Repost, 0 reposts', 'Repost')
  t.ok(await screen.findByRole('button', { name: 'Reposted, 1 repost' }), 'shown at once')
  release()
  t.ok(await screen.findByText(MSG.cannotInteract), 'the refusal is shown')
  await until(() => screen.queryByRole('button', { name: 'Repost, 0 reposts' }) !== null)
})

await t.test('the quote composer sends quoteOf with the text', async (t) => {
  const me = makeUser({ username: 'guest' })
  signInAs(me)
  postCache.byId.p1 = makePost({ _id: 'p1', id: 'p1', content: 'quote me' })
  renderAt('/', <PostItem postId="p1" />)
  const api = stubApi({
    'POST /api/posts': () => ok({ post: makePost({ _id: 'p2', id: 'p2', quoteOf: 'p1', username: 'guest' }) }),
  })
  t.teardown(api.restore)
  choose('Repost, 0 reposts', 'Quote')
  const dialog = await screen.findByRole('dialog', { name: 'Quote post' })
  t.ok(within(dialog).getByRole('link', { name: /^Quoted post by/ }), 'the quoted card under the composer')
  fireEvent.change(within(dialog).getByRole('textbox'), { target: { value: 'so true' } })
  fireEvent.click(within(dialog).getByRole('button', { name: 'Post' }))
  await until(() => api.calls.length === 1)
  t.match(api.calls[0]?.body, { postData: { content: 'so true', quoteOf: 'p1' } })
  await until(() => screen.queryByRole('dialog') === null)
})

await t.test("a live repost by someone I follow joins my open home feed behind 'new posts'", async (t) => {
  const theo = makeUser({ username: 'theo', _id: 'id-theo' })
  signInAs(makeUser({ username: 'guest', following: [summary(theo)] }))
  lists.home.loaded = true
  const post = makePost({
    _id: 'p9',
    id: 'p9',
    username: 'stranger',
    repostedBy: summary(theo),
    repostedAt: new Date().toISOString(),
  })
  applyRepost({ postId: 'p9', user: summary(theo), reposted: true, repostCount: 1, at: post.repostedAt ?? '', post })
  t.strictSame(lists.home.waiting, ['p9'], 'waiting at the top')
  t.equal(lists.reposted.p9?.by.username, 'theo', 'with who reposted it')
  applyRepost({ postId: 'p9', user: summary(theo), reposted: true, repostCount: 1, at: post.repostedAt ?? '', post })
  t.strictSame(lists.home.waiting, ['p9'], 'once')
  const mine = makePost({ _id: 'p10', id: 'p10', username: 'theo' })
  applyRepost({
    postId: 'p10',
    user: summary(theo),
    reposted: true,
    repostCount: 1,
    at: post.repostedAt ?? '',
    post: mine,
  })
  t.notOk(lists.home.waiting.includes('p10'), "a followed author's post is in the feed as itself")
})

await t.test('the notifications page words reposts and quotes', async (t) => {
  const actor = summary(makeUser({ username: 'theo', firstName: 'Theo', lastName: 'Park', _id: 'id-theo' }))
  const base = { actor, post: { _id: 'p1', content: 'Tea at noon', mediaUrl: '' }, read: false }
  const at = new Date().toISOString()
  const groups = groupNotifications([
    { _id: 'n1', type: 'repost', createdAt: at, ...base },
    { _id: 'n2', type: 'quote', createdAt: at, ...base },
  ])
  renderAt(
    '/',
    <ul>
      {groups.map((group) => (
        <NotificationRow key={group.id} group={group} now={Date.now()} />
      ))}
    </ul>,
  )
  t.ok(screen.getByText('reposted your post', { exact: false }))
  t.ok(screen.getByText('quoted your post', { exact: false }))
})
