import './dom.js'
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react'
import t from 'tap'
import { App } from '../../client/app.js'
import { EditProfileModal } from '../../client/components/edit-profile-modal.js'
import { Layout } from '../../client/components/layout.js'
import { MediaPreview } from '../../client/components/media-preview.js'
import { PostCard } from '../../client/components/post-card.js'
import { showError, showToast, toasts } from '../../client/state/toasts.js'
import { cardProps, fail, makePost, makeUser, renderAt, resetAll, stubApi, until } from './helpers.js'
import { allRules } from './stylesheets.js'

/** The small defects of a week on a phone: each as the reader meets it. */
t.beforeEach(() => resetAll())
t.afterEach(() => {
  cleanup()
  resetAll()
})
const noop = () => {}
const styles = await allRules()
const rule = (selector: string, within: string[] = []) =>
  styles.find((r) => r.selector === selector && r.within.join() === within.join())

await t.test('the offline banner takes its own room at the head of the page, so it covers no composer', async (t) => {
  renderAt(
    '/',
    <Layout username="guest" unread={0} onPost={noop} account={null} offline="offline">
      <div className="card composer">Create Post</div>
    </Layout>,
  )
  const main = screen.getByRole('main')
  const banner = within(main).getByText(/You're offline/)
  t.ok(
    banner.compareDocumentPosition(within(main).getByText('Create Post')) & Node.DOCUMENT_POSITION_FOLLOWING,
    'in the page, before the composer',
  )
  for (const r of styles.filter((r) => /offline/.test(r.selector))) {
    t.not(r.declarations.get('position'), 'fixed', `${r.selector} does not float over the page`)
  }
})

await t.test('one failed post shows one toast, however many times it is reported', async (t) => {
  const error = new Error("Can't reach Chirp. Check your connection and try again.")
  showError(error)
  showError(error)
  showToast("Can't reach Chirp. Check your connection and try again.", 'error')
  t.equal(toasts.items.length, 1)
  showToast('Your post was sent', 'success')
  t.equal(toasts.items.length, 2, 'other words still get their own')
})

await t.test("toasts come in at the top, clear of the reply box's Reply button at the foot", async (t) => {
  const toastsRule = rule('.toasts')
  t.ok(toastsRule?.declarations.get('top'), 'placed from the top')
  t.notOk(toastsRule?.declarations.get('bottom'), 'not from the bottom')
  t.notOk(rule('.toasts', ['@media (max-width: 640px)'])?.declarations.get('bottom'), 'on a phone too')
})

await t.test('the sticky page title is opaque', async (t) => {
  const title = rule('.page-title')
  t.equal(title?.declarations.get('background'), 'var(--bg)')
  t.notOk(title?.declarations.get('backdrop-filter'), 'nothing shows through')
})

await t.test('an edited post says so; one never edited does not', async (t) => {
  const post = makePost({ username: 'maya', content: 'Changed my mind', editedAt: '2026-01-10T12:30:00.000Z' })
  renderAt('/', <PostCard {...cardProps({ post })} />)
  t.ok(within(screen.getByRole('article')).getByText('Edited'))
  cleanup()
  renderAt('/', <PostCard {...cardProps()} />)
  t.notOk(within(screen.getByRole('article')).queryByText('Edited'))
})

await t.test('the website is a one-line field; the image description a text area', async (t) => {
  render(
    <EditProfileModal
      user={makeUser()}
      avatars={[]}
      onSave={async () => true}
      onUpload={async () => null}
      onFileError={noop}
      onClose={noop}
    />,
  )
  t.equal(screen.getByLabelText('Website').tagName, 'INPUT')
  cleanup()
  render(<MediaPreview url="/media/a.png" alt="" locked={false} onAltChange={noop} onRemove={noop} />)
  t.equal(screen.getByLabelText('Image description').tagName, 'TEXTAREA')
})

await t.test('a refused login is said at the field, not in a toast', async (t) => {
  const api = stubApi({
    'GET /api/health': () => ({ status: 200, body: { status: 'ok', guestLogin: true } }),
    'POST /api/auth/login': (request) =>
      (request.body as { username: string }).username === 'ghost'
        ? fail(404, 'The username you entered is not Registered. Not Found error')
        : fail(401, 'The credentials you entered are invalid. Unauthorized access error.'),
  })
  t.teardown(api.restore)
  renderAt('/login', <App />)
  await screen.findByRole('heading', { name: 'Log in to Chirp' })
  const username = screen.getByLabelText('Username')
  const password = screen.getByLabelText('Password')
  fireEvent.change(username, { target: { value: 'guest' } })
  fireEvent.change(password, { target: { value: 'wrong-password' } })
  fireEvent.click(screen.getByRole('button', { name: 'Login' }))
  await until(() => password.getAttribute('aria-invalid') === 'true')
  const said = document.getElementById(password.getAttribute('aria-describedby') ?? '')
  t.match(said?.textContent, /credentials you entered are invalid/, 'under the password')
  t.equal(toasts.items.length, 0, 'no toast')
  fireEvent.change(password, { target: { value: 'wrong-password2' } })
  t.equal(password.getAttribute('aria-invalid'), null, 'typing again clears it')

  fireEvent.change(username, { target: { value: 'ghost' } })
  fireEvent.click(screen.getByRole('button', { name: 'Login' }))
  await until(() => username.getAttribute('aria-invalid') === 'true')
  t.match(
    document.getElementById(username.getAttribute('aria-describedby') ?? '')?.textContent,
    /no account with that username/,
  )
})
