import './dom.js'
import { cleanup, fireEvent, render, screen } from '@testing-library/react'
import t from 'tap'
import { App } from '../../client/app.js'
import { CommentsSection } from '../../client/components/comments-section.js'
import { PostForm } from '../../client/components/post-form.js'
import { makeUser, ok, renderAt, resetAll, stubApi, summary } from './helpers.js'

t.beforeEach(() => resetAll())
t.afterEach(() => {
  cleanup()
  resetAll()
})

/** What the server refuses as empty: each renders as nothing. */
const INVISIBLE = ['\u200b', '\u2060', '\u2800', '\u3164', '\u00ad\ufe0f', ' \u3000 ']

const type = (element: HTMLElement, value: string) => fireEvent.change(element, { target: { value } })

await t.test('the composer keeps Post disabled for text made only of invisible characters', async (t) => {
  const noUpload = async () => null
  render(<PostForm onSubmit={async () => true} onUpload={noUpload} onFileError={() => {}} />)
  const text = screen.getByPlaceholderText('What is happening?!')
  const tweet = screen.getByRole('button', { name: 'Post' }) as HTMLButtonElement
  for (const value of INVISIBLE) {
    type(text, value)
    t.ok(tweet.disabled, `${JSON.stringify(value)} is empty`)
  }
  type(text, '\u3164hi')
  t.notOk(tweet.disabled, 'visible text among invisible characters is a post')
})

await t.test('Reply and Update stay disabled for invisible text, and nothing is sent', async (t) => {
  const mine = makeUser({ username: 'guest' })
  const added: string[] = []
  const edited: string[] = []
  const comment = {
    ...summary(mine),
    _id: 'c1',
    text: 'Mine',
    votes: { upvotedBy: [], downvotedBy: [] },
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    replyTo: null,
  }
  renderAt(
    '/post-detail/p1',
    <CommentsSection
      comments={[comment]}
      me="guest"
      postOwner="maya"
      now={Date.parse('2026-01-02T00:00:00.000Z')}
      handlers={{
        onAdd: async (text) => (added.push(text), true),
        onEdit: async (_id, text) => (edited.push(text), true),
        onDelete: () => {},
      }}
    />,
  )
  const replyBox = screen.getByPlaceholderText('Post your reply')
  const reply = screen.getByRole('button', { name: 'Reply' }) as HTMLButtonElement
  for (const value of INVISIBLE) {
    type(replyBox, value)
    t.ok(reply.disabled, `Reply with ${JSON.stringify(value)}`)
    fireEvent.submit(replyBox.closest('form')!)
  }
  fireEvent.click(screen.getByRole('button', { name: 'Comment options' }))
  fireEvent.click(screen.getByRole('menuitem', { name: 'Edit' }))
  const editBox = screen.getByLabelText('Edit comment')
  const update = screen.getByRole('button', { name: 'Update' }) as HTMLButtonElement
  type(editBox, '\u2800\u200b')
  t.ok(update.disabled, 'Update with invisible text')
  fireEvent.submit(editBox.closest('form')!)
  t.strictSame(added, [], 'no reply was sent')
  t.strictSame(edited, [], 'no edit was sent')
  type(replyBox, 'Nice')
  t.notOk(reply.disabled)
})

await t.test('signup tells what is wrong with a name and does not send it', async (t) => {
  const api = stubApi({ 'GET /api/health': () => ok({ status: 'ok', guestLogin: true }) })
  t.teardown(api.restore)
  renderAt('/signup', <App />)
  const fill = (label: string, value: string) => type(screen.getByLabelText(label), value)
  await screen.findByLabelText('First Name')
  fill('First Name', '\u3164')
  fill('Last Name', 'Love\u200flace')
  fill('Email', 'ada@example.com')
  fill('Username', 'ada')
  fill('Password', 'analytical')
  t.ok(screen.getByText('First name must not contain invisible or direction-changing characters'))
  t.ok(screen.getByText('Last name must not contain invisible or direction-changing characters'))
  t.equal(screen.getByLabelText('First Name').getAttribute('aria-invalid'), 'true')
  const create = screen.getByRole('button', { name: 'Create Account' }) as HTMLButtonElement
  t.ok(create.disabled)
  fireEvent.submit(create.closest('form')!)
  fill('First Name', ' ')
  t.ok(screen.getByText('First name must contain visible text'))
  fill('First Name', 'Ada\tB')
  t.ok(screen.getByText('First name must be one line, without tabs or line breaks'))
  t.equal(api.calls.filter((c) => c.path === '/api/auth/signup').length, 0, 'nothing was sent')
  fill('First Name', 'Ada')
  fill('Last Name', 'Lovelace')
  t.equal(screen.queryByRole('alert'), null, 'the messages go once the names are fine')
  t.notOk(create.disabled)
})
