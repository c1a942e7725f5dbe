import './dom.js'
import { cleanup, fireEvent, screen, within } from '@testing-library/react'
import t from 'tap'
import { App } from '../../client/app.js'
import { choose, makePost, makeUser, ok, renderAt, resetAll, signInAs, stubApi, summary, until } from './helpers.js'

t.beforeEach(() => resetAll())
t.afterEach(() => {
  cleanup()
  resetAll()
})

const me = makeUser({ username: 'guest' })
const quiet = {
  'GET /api/users/suggestions': () => ok({ users: [] }),
  'GET /api/feed': () => ok({ posts: [], nextCursor: null }),
  'GET /api/posts': () => ok({ posts: [], nextCursor: null }),
}
const last = (history: string[] | undefined) => history?.[history.length - 1]

await t.test('deleting a post asks first; Cancel keeps it, Delete removes it and says so', async (t) => {
  signInAs(me)
  const mine = makePost({ _id: 'm1', id: 'm1', username: 'guest', content: 'Soon to go' })
  const api = stubApi({
    ...quiet,
    'GET /api/posts': () => ok({ posts: [mine], nextCursor: null }),
    'DELETE /api/posts/m1': () => ({ status: 201, body: {} }),
  })
  t.teardown(api.restore)
  renderAt('/explore', <App />)
  await screen.findByText('Soon to go')
  const askDelete = () => {
    fireEvent.click(screen.getByRole('button', { name: 'Post options' }))
    fireEvent.click(screen.getByRole('menuitem', { name: 'Delete Post' }))
    return screen.getByRole('alertdialog', { name: 'Delete post?' })
  }
  const first = askDelete()
  t.equal(document.activeElement, within(first).getByRole('button', { name: 'Cancel' }), 'Cancel has the focus')
  fireEvent.click(within(first).getByRole('button', { name: 'Cancel' }))
  t.equal(screen.queryByRole('alertdialog'), null)
  t.notOk(
    api.calls.some((c) => c.method === 'DELETE'),
    'nothing deleted',
  )
  t.ok(screen.getByText('Soon to go'))

  fireEvent.click(within(askDelete()).getByRole('button', { name: 'Delete' }))
  await screen.findByText('Your post was deleted')
  await until(() => screen.queryByText('Soon to go') === null)
  t.ok(api.calls.some((c) => c.method === 'DELETE' && c.path === '/api/posts/m1'))
})

await t.test('deleting a comment asks first and says when it is done', async (t) => {
  signInAs(me)
  const comment = {
    ...summary(me),
    _id: 'c1',
    text: 'A regrettable comment',
    votes: { upvotedBy: [], downvotedBy: [] },
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    replyTo: null,
  }
  const post = makePost({ _id: 'p1', id: 'p1', comments: [comment] })
  const api = stubApi({
    ...quiet,
    'GET /api/posts/p1': () => ok({ post }),
    'POST /api/comments/delete/p1/c1': () => ({ status: 201, body: { post: { ...post, comments: [] } } }),
  })
  t.teardown(api.restore)
  renderAt('/post-detail/p1', <App />)
  await screen.findByText('A regrettable comment')
  choose('Comment options', 'Delete')
  const dialog = screen.getByRole('alertdialog', { name: 'Delete comment?' })
  t.notOk(
    api.calls.some((c) => c.path.startsWith('/api/comments/delete')),
    'not before the answer',
  )
  fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }))
  await screen.findByText('Your comment was deleted')
  await until(() => screen.queryByText('A regrettable comment') === null)
})

await t.test('closing the composer modal with a draft asks "Discard post?"; an empty one closes at once', async (t) => {
  signInAs(me)
  const api = stubApi(quiet)
  t.teardown(api.restore)
  renderAt('/', <App />)
  const open = async () => {
    fireEvent.click(
      within(await screen.findByRole('navigation', { name: 'Main' })).getByRole('button', { name: 'Post' }),
    )
    return screen.getByRole('dialog', { name: 'Create Post' })
  }
  fireEvent.keyDown(await open(), { key: 'Escape' })
  await until(() => screen.queryByRole('dialog') === null)
  t.equal(screen.queryByRole('alertdialog'), null, 'nothing to lose, nothing asked')

  const dialog = await open()
  fireEvent.change(within(dialog).getByRole('textbox'), { target: { value: 'Half a thought' } })
  fireEvent.keyDown(dialog, { key: 'Escape' })
  const ask = screen.getByRole('alertdialog', { name: 'Discard post?' })
  fireEvent.keyDown(ask, { key: 'Escape' })
  t.equal(screen.queryByRole('alertdialog'), null, 'Escape on the question keeps the draft')
  t.equal((within(dialog).getByRole('textbox') as HTMLTextAreaElement).value, 'Half a thought')
  t.ok(document.body.classList.contains('has-modal'), 'the page behind stays still while the composer is open')
  fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }))
  fireEvent.click(
    within(screen.getByRole('alertdialog', { name: 'Discard post?' })).getByRole('button', { name: 'Discard' }),
  )
  await until(() => screen.queryByRole('dialog') === null)
  t.notOk(document.body.classList.contains('has-modal'))
})

await t.test('leaving a page with an unsent reply asks "Discard post?"', async (t) => {
  signInAs(me)
  const api = stubApi({
    ...quiet,
    'GET /api/posts/p1': () => ok({ post: makePost({ _id: 'p1', id: 'p1', content: 'Reply to me' }) }),
  })
  t.teardown(api.restore)
  const { location } = renderAt('/post-detail/p1', <App />)
  await screen.findByText('Reply to me')
  const unloading = () => {
    const event = new window.Event('beforeunload', { cancelable: true })
    window.dispatchEvent(event)
    return event.defaultPrevented
  }
  t.notOk(unloading(), 'nothing typed: the tab closes without a question')
  fireEvent.change(screen.getByRole('textbox', { name: 'Reply' }), { target: { value: 'Unsent words' } })
  t.ok(unloading(), 'closing or reloading the tab makes the browser ask')
  const explore = within(screen.getByRole('navigation', { name: 'Main' })).getByRole('link', { name: 'Explore' })
  fireEvent.click(explore)
  const ask = screen.getByRole('alertdialog', { name: 'Discard post?' })
  t.equal(last(location.history), '/post-detail/p1', 'not gone yet')
  fireEvent.click(within(ask).getByRole('button', { name: 'Cancel' }))
  t.equal(
    (screen.getByRole('textbox', { name: 'Reply' }) as HTMLTextAreaElement).value,
    'Unsent words',
    'the draft is still there',
  )
  fireEvent.click(explore)
  fireEvent.click(
    within(screen.getByRole('alertdialog', { name: 'Discard post?' })).getByRole('button', { name: 'Discard' }),
  )
  await until(() => last(location.history) === '/explore')
  fireEvent.click(within(screen.getByRole('navigation', { name: 'Main' })).getByRole('link', { name: 'Home' }))
  await until(() => last(location.history) === '/')
  t.equal(screen.queryByRole('alertdialog'), null, 'with no draft, links just go')
})

await t.test('the home composer keeps its draft across visits until it is sent', async (t) => {
  signInAs(me)
  const api = stubApi({
    ...quiet,
    'POST /api/posts': () => ({
      status: 201,
      body: { post: makePost({ username: 'guest', content: 'Kept for later' }) },
    }),
  })
  t.teardown(api.restore)
  renderAt('/', <App />)
  const composer = () => within(screen.getByRole('main')).getAllByRole('textbox')[0] as HTMLTextAreaElement
  await screen.findByRole('heading', { name: 'Latest Posts' })
  fireEvent.change(composer(), { target: { value: 'Kept for later' } })
  cleanup()
  renderAt('/', <App />)
  await screen.findByRole('heading', { name: 'Latest Posts' })
  t.equal(composer().value, 'Kept for later', 'the draft came back')
  fireEvent.click(within(screen.getByRole('main')).getByRole('button', { name: 'Post' }))
  await until(() => composer().value === '')
  // The draft is written from an effect after the box is drawn empty: wait for that, not only the box.
  await until(() => localStorage.getItem('composerDraft') === null).catch(() => undefined)
  t.equal(localStorage.getItem('composerDraft'), null, 'sent, so forgotten')
})
