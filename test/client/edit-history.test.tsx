import './dom.js'
import { cleanup, fireEvent, screen, within } from '@testing-library/react'
import t from 'tap'
import { PostCard } from '../../client/components/post-card.js'
import { PostItem } from '../../client/pages/post-item.js'
import { ToastHost } from '../../client/pages/toast-host.js'
import { postCache } from '../../client/state/post-cache.js'
import { cardProps, fail, makePost, makeUser, ok, renderAt, resetAll, signInAs, stubApi, until } from './helpers.js'

t.beforeEach(() => resetAll())
t.afterEach(() => {
  cleanup()
  resetAll()
})

const VERSIONS = [
  { content: 'first words', spoilerText: '', media: [], poll: null, editedAt: '2026-12-01T10:00:00.000Z' },
  {
    content: 'second words',
    spoilerText: 'careful',
    media: [{ url: '/media/a.png', alt: 'a cat' }],
    poll: null,
    editedAt: '2026-12-02T10:00:00.000Z',
  },
]

await t.test('"Edited" is a mark alone without a way to show the history, and a button with one', async (t) => {
  const post = makePost({ editedAt: '2026-12-02T10:00:00.000Z' })
  const { unmount } = renderAt('/', <PostCard {...cardProps({ post })} />)
  t.ok(screen.getByText('Edited'), 'the mark shows')
  t.equal(screen.queryByRole('button', { name: /Edited/ }), null, 'but opens nothing')
  unmount()
  let opened = 0
  renderAt('/', <PostCard {...cardProps({ post, onShowHistory: () => (opened += 1) })} />)
  fireEvent.click(screen.getByRole('button', { name: /Edited .*show the edit history/ }))
  t.equal(opened, 1, 'a click asks for the history')
})

await t.test('"Edited" on a post opens its history: every version, the newest first, with dates', async (t) => {
  const api = stubApi({ 'GET /api/posts/p1/history': () => ok({ versions: VERSIONS }) })
  signInAs(makeUser({ username: 'guest' }))
  postCache.byId.p1 = makePost({ _id: 'p1', id: 'p1', content: 'second words', editedAt: VERSIONS[1]?.editedAt })
  renderAt('/', <PostItem postId="p1" />)
  fireEvent.click(screen.getByRole('button', { name: /show the edit history/ }))
  const dialog = screen.getByRole('dialog', { name: 'Edit history' })
  await until(() => within(dialog).queryAllByRole('listitem').length === 2)
  const items = within(dialog).getAllByRole('listitem')
  t.match(items[0]?.textContent, /Current version, edited.*Content warning: careful.*second words.*1 image: a cat/)
  t.match(items[1]?.textContent, /Original.*first words/)
  t.equal(items[1]?.querySelector('time')?.getAttribute('dateTime'), VERSIONS[0]?.editedAt, 'each dated')
  t.equal(api.calls.filter((call) => call.path === '/api/posts/p1/history').length, 1)
  fireEvent.keyDown(dialog, { key: 'Escape' })
  t.equal(screen.queryByRole('dialog'), null, 'Escape closes it')
})

await t.test('a history that cannot be read closes and says why', async (t) => {
  stubApi({ 'GET /api/posts/p2/history': () => fail(404, 'Post not found') })
  signInAs(makeUser({ username: 'guest' }))
  postCache.byId.p2 = makePost({ _id: 'p2', id: 'p2', editedAt: '2026-12-02T10:00:00.000Z' })
  renderAt(
    '/',
    <>
      <PostItem postId="p2" />
      <ToastHost />
    </>,
  )
  fireEvent.click(screen.getByRole('button', { name: /show the edit history/ }))
  await until(() => screen.queryByRole('alert') !== null)
  t.match(screen.getByRole('alert').textContent, /doesn't exist/, 'the reason is told')
  t.equal(screen.queryByRole('dialog'), null, 'no dialog stays open')
})
