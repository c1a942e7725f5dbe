import './dom.js'
import { cleanup, fireEvent, screen } from '@testing-library/react'
import t from 'tap'
import { EmojiPicker } from '../../client/components/emoji-picker.js'
import { EmojiText, RichText } from '../../client/components/rich-text.js'
import { ModerationEmojisPage } from '../../client/pages/moderation/index.js'
import * as MSG from '../../common/messages.js'
import { fail, makeUser, ok, renderAt, resetAll, signInAs, stubApi, until } from './helpers.js'

/** Custom emoji (DECISIONS §15): shown as images in texts, offered by the picker, managed by admins. */
t.beforeEach(resetAll)
t.afterEach(() => {
  cleanup()
  resetAll()
})

const BLOB = { shortcode: 'blob', url: '/media/blob.png' }

await t.test('a known :shortcode: shows its image, named by its shortcode; others stay as typed', async (t) => {
  const { container } = renderAt('/', <RichText text="hi :blob: and :nope: @maya.lin" emojis={[BLOB]} />)
  const image = screen.getByRole('img', { name: ':blob:' })
  t.equal(image.getAttribute('src'), '/media/blob.png')
  t.equal(image.getAttribute('title'), ':blob:')
  t.ok(image.classList.contains('custom-emoji'), 'sized to the text by its class')
  t.match(container.textContent, /and :nope: @maya\.lin/, 'an unknown shortcode stays text, a mention still a link')
  t.ok(screen.getByRole('link', { name: '@maya.lin' }))
})

await t.test('a name with emoji shows them; without emoji it is plain text', async (t) => {
  renderAt('/', <EmojiText text="Maya :blob:" emojis={[BLOB]} />)
  t.ok(screen.getByRole('img', { name: ':blob:' }))
  cleanup()
  const { container } = renderAt('/', <EmojiText text="Maya :blob:" />)
  t.equal(container.textContent, 'Maya :blob:')
})

await t.test('the picker offers custom emoji first, and picking one hands over :shortcode:', async (t) => {
  const picked: string[] = []
  renderAt('/', <EmojiPicker custom={[BLOB]} onPick={(emoji) => picked.push(emoji)} />)
  fireEvent.click(screen.getByRole('button', { name: 'Add emoji' }))
  const option = screen.getByRole('button', { name: ':blob:' })
  t.equal(document.activeElement, option, 'the first option has the focus, for the keyboard')
  fireEvent.keyDown(option, { key: 'ArrowRight' })
  t.not(document.activeElement, option, 'arrow keys move between the options')
  fireEvent.click(screen.getByRole('button', { name: 'Add emoji' }))
  fireEvent.click(screen.getByRole('button', { name: 'Add emoji' }))
  fireEvent.click(screen.getByRole('button', { name: ':blob:' }))
  t.same(picked, [':blob:'])
})

await t.test('admins see the emoji and delete one; a moderator may only look', async (t) => {
  const admin = makeUser({ username: 'boss', role: 'admin' })
  signInAs(admin)
  let list = [BLOB]
  const api = stubApi({
    'GET /api/v1/custom_emojis': () => ok(list),
    'DELETE /api/admin/emojis/blob': () => {
      list = []
      return ok({})
    },
    'GET /api/users/boss': () => ok({ user: admin }),
  })
  t.teardown(api.restore)
  renderAt('/moderation/emojis', <ModerationEmojisPage />)
  await screen.findByRole('img', { name: ':blob:' })
  t.ok(screen.getByRole('form', { name: 'New emoji' }), 'an admin has the form')
  fireEvent.click(screen.getByRole('button', { name: 'Delete :blob:' }))
  await screen.findByText('No custom emoji yet.')
  t.ok(api.calls.some((call) => call.method === 'DELETE' && call.path === '/api/admin/emojis/blob'))
  cleanup()
  signInAs(makeUser({ username: 'mod', role: 'moderator' }))
  renderAt('/moderation/emojis', <ModerationEmojisPage />)
  await screen.findByText('Only admins add and delete emoji.')
  t.equal(screen.queryByRole('form', { name: 'New emoji' }), null)
})

await t.test('a taken shortcode and a file too large are told by their fields', async (t) => {
  signInAs(makeUser({ username: 'boss', role: 'admin' }))
  const api = stubApi({ 'GET /api/v1/custom_emojis': () => ok([]) })
  t.teardown(api.restore)
  const answers = [fail(422, MSG.shortcodeTaken), fail(413, MSG.emojiTooLarge)]
  const original = globalThis.XMLHttpRequest
  class FakeXhr {
    status = 0
    responseText = ''
    onload: (() => void) | null = null
    onerror: (() => void) | null = null
    upload = { onprogress: null, onload: null }
    open() {}
    setRequestHeader() {}
    getAllResponseHeaders() {
      return 'content-type: application/json\r\n'
    }
    send() {
      const answer = answers.shift()
      this.status = answer?.status ?? 500
      this.responseText = JSON.stringify(answer?.body ?? {})
      setTimeout(() => this.onload?.(), 0)
    }
  }
  globalThis.XMLHttpRequest = FakeXhr as unknown as typeof XMLHttpRequest
  t.teardown(() => void (globalThis.XMLHttpRequest = original))
  renderAt('/moderation/emojis', <ModerationEmojisPage />)
  const shortcode = await screen.findByLabelText('Shortcode (2 to 32 letters, digits or _)')
  const file = screen.getByLabelText('Image (PNG, JPEG, GIF or WebP, at most 256 KB)')
  fireEvent.change(shortcode, { target: { value: 'blob' } })
  fireEvent.change(file, { target: { files: [new File(['x'], 'blob.png', { type: 'image/png' })] } })
  fireEvent.click(screen.getByRole('button', { name: 'Add emoji' }))
  await until(() => shortcode.getAttribute('aria-invalid') === 'true')
  t.equal(screen.getByRole('alert').textContent, MSG.shortcodeTaken, 'the 422 under the shortcode')
  fireEvent.click(screen.getByRole('button', { name: 'Add emoji' }))
  await until(() => file.getAttribute('aria-invalid') === 'true')
  t.equal(screen.getByRole('alert').textContent, MSG.emojiTooLarge, 'the size under the file')
  t.equal(shortcode.getAttribute('aria-invalid'), null)
})
