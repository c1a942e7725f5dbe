import './dom.js'
import { cleanup, fireEvent, screen, within } from '@testing-library/react'
import t from 'tap'
import { App } from '../../client/app.js'
import { session } from '../../client/state/session.js'
import { choose, makePost, makeUser, ok, renderAt, resetAll, signInAs, stubApi, until } from './helpers.js'

t.beforeEach(() => resetAll())
t.afterEach(() => {
  cleanup()
  resetAll()
})

const me = makeUser({ username: 'guest' })
const quiet = { 'GET /api/users/suggestions': () => ok({ users: [] }) }

await t.test('the composer uploads an image, posts with return=minimal, and the post tops the feed', async (t) => {
  signInAs(me)
  const older = makePost({ content: 'An older post' })
  const api = stubApi({
    ...quiet,
    'GET /api/feed': () => ok({ posts: [older], nextCursor: null }),
    'POST /api/media': () => ({ status: 201, body: { url: '/media/abc.png' } }),
    'POST /api/posts': (req) => {
      const { postData } = req.body as { postData: { content: string; mediaUrl: string } }
      return {
        status: 201,
        body: { post: makePost({ ...postData, type: 'image', username: 'guest', content: postData.content }) },
      }
    },
  })
  t.teardown(api.restore)
  renderAt('/', <App />)
  await screen.findByText('An older post')
  const composer = screen.getAllByPlaceholderText('What is happening?!')[0]!
  fireEvent.change(composer, { target: { value: 'Fresh from the test' } })
  const form = composer.closest('form')!
  fireEvent.change(within(form).getByLabelText('Image file'), {
    target: { files: [new File(['png'], 'shot.png', { type: 'image/png' })] },
  })
  await within(form).findByAltText('Image to be posted')
  fireEvent.change(within(form).getByLabelText('Image description'), { target: { value: 'A gradient, blue to pink' } })
  const upload = api.calls.find((c) => c.path === '/api/media')
  t.ok(upload?.body instanceof FormData, 'multipart upload')
  t.equal((upload?.body as FormData).get('file') instanceof Blob, true, 'in the field named file')

  fireEvent.click(within(form).getByRole('button', { name: 'Post' }))
  await screen.findByText('Fresh from the test')
  const create = api.calls.find((c) => c.method === 'POST' && c.path === '/api/posts')
  t.same(
    create?.body,
    {
      postData: {
        content: 'Fresh from the test',
        media: [{ url: '/media/abc.png', alt: 'A gradient, blue to pink' }],
        visibility: 'public',
      },
    },
    'the description goes beside the image, and the audience shown in the composer',
  )
  t.equal(create?.headers.get('prefer'), 'return=minimal')
  const contents = screen.getAllByRole('article').map((a) => a.querySelector('.post-content')?.textContent)
  t.same(contents, ['Fresh from the test', 'An older post'], 'newest on top')
  await until(() => (composer as HTMLTextAreaElement).value === '')
  t.equal(within(form).queryByAltText('Image to be posted'), null, 'composer reset')
})

await t.test('edit and delete from the three-dots menu', async (t) => {
  signInAs(me)
  const mine = makePost({
    _id: 'm1',
    id: 'm1',
    username: 'guest',
    firstName: 'Guest',
    lastName: 'User',
    content: 'Typo in here',
  })
  const api = stubApi({
    ...quiet,
    'GET /api/posts': () => ok({ posts: [mine], nextCursor: null }),
    'POST /api/posts/edit/m1': () => ({ status: 201, body: { post: { ...mine, content: 'Fixed the typo' } } }),
    'DELETE /api/posts/m1': () => ({ status: 201, body: {} }),
  })
  t.teardown(api.restore)
  renderAt('/explore', <App />)
  await screen.findByText('Typo in here')
  choose('Post options', 'Edit Post')
  const dialog = screen.getByRole('dialog', { name: 'Edit Post' })
  fireEvent.change(within(dialog).getByPlaceholderText('What is happening?!'), { target: { value: 'Fixed the typo' } })
  fireEvent.click(within(dialog).getByRole('button', { name: 'Update' }))
  await screen.findByText('Fixed the typo')
  await until(() => screen.queryByRole('dialog') === null)
  t.same(
    api.calls.find((c) => c.path === '/api/posts/edit/m1')?.body,
    { postData: { content: 'Fixed the typo', media: [] } },
    'no description without an image',
  )

  choose('Post options', 'Delete Post')
  fireEvent.click(
    within(screen.getByRole('alertdialog', { name: 'Delete post?' })).getByRole('button', { name: 'Delete' }),
  )
  await until(() => screen.queryByText('Fixed the typo') === null)
  t.ok(
    api.calls.some((c) => c.method === 'DELETE' && c.path === '/api/posts/m1'),
    'deleted on the server',
  )
  t.ok(await screen.findByText('Nobody has posted yet.'))
})

await t.test('removing a bookmark on the Bookmark page takes the post off the list', async (t) => {
  const saved = makePost({ _id: 'b1', id: 'b1', content: 'Saved for later' })
  signInAs({ ...me, bookmarks: [saved] })
  const api = stubApi({
    ...quiet,
    'GET /api/users/bookmark': () => ok({ bookmarks: [saved], nextCursor: null }),
    'POST /api/users/remove-bookmark/b1': () => ok({ bookmarks: [] }),
  })
  t.teardown(api.restore)
  renderAt('/bookmark', <App />)
  await screen.findByText('Saved for later')
  const button = screen.getByRole('button', { name: 'Remove bookmark' })
  t.equal(button.getAttribute('aria-pressed'), 'true')
  fireEvent.click(button)
  t.ok(await screen.findByText('You have not added any Bookmarks!'))
  t.same(session.user?.bookmarks, [])
})

await t.test('an image description goes with the image, and an empty one clears what the post had', async (t) => {
  signInAs(me)
  const pictured = makePost({
    _id: 'm2',
    id: 'm2',
    username: 'guest',
    content: 'Look',
    mediaUrl: '/media/a.png',
    type: 'image',
    mediaAlt: 'A red kite',
  })
  const api = stubApi({
    ...quiet,
    'GET /api/posts': () => ok({ posts: [pictured], nextCursor: null }),
    'POST /api/posts/edit/m2': (req) => ({
      status: 201,
      body: { post: { ...pictured, ...(req.body as { postData: object }).postData } },
    }),
  })
  t.teardown(api.restore)
  renderAt('/explore', <App />)
  await screen.findByAltText('A red kite')
  choose('Post options', 'Edit Post')
  const dialog = screen.getByRole('dialog', { name: 'Edit Post' })
  const description = within(dialog).getByLabelText('Image description') as HTMLInputElement
  t.equal(description.value, 'A red kite', 'the edit starts from the description')
  fireEvent.change(description, { target: { value: '' } })
  fireEvent.click(within(dialog).getByRole('button', { name: 'Update' }))
  await until(() => api.calls.some((c) => c.path === '/api/posts/edit/m2'))
  t.same(api.calls.find((c) => c.path === '/api/posts/edit/m2')?.body, {
    postData: { content: 'Look', media: [{ url: '/media/a.png', alt: '' }] },
  })
})
