import './dom.js'
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react'
import t from 'tap'
import { EditPostModal } from '../../client/components/edit-post-modal.js'
import { PostForm, type PostDraft } from '../../client/components/post-form.js'
import type { Suggestion } from '../../client/lib/typeahead.js'
import { suggestionTexts, until } from './helpers.js'

t.afterEach(() => cleanup())

type Spy<A extends unknown[], R> = ((...args: A) => R) & { calls: A[] }
function spy<A extends unknown[], R>(result: (...args: A) => R): Spy<A, R> {
  const calls: A[] = []
  return Object.assign(
    (...args: A) => {
      calls.push(args)
      return result(...args)
    },
    { calls },
  )
}

function renderComposer() {
  const onSubmit = spy(async (_draft: PostDraft) => true)
  const onUpload = spy(async (_file: File) => '/media/uploaded.png' as string | null)
  const onFileError = spy((_message: string) => {})
  render(<PostForm resetAfterSubmit onSubmit={onSubmit} onUpload={onUpload} onFileError={onFileError} />)
  const text = screen.getByPlaceholderText('What is happening?!') as HTMLTextAreaElement
  const tweet = screen.getByRole('button', { name: 'Post' }) as HTMLButtonElement
  const picker = screen.getByLabelText('Image file') as HTMLInputElement
  return { onSubmit, onUpload, onFileError, text, tweet, picker }
}

function pick(input: HTMLInputElement, file: File) {
  fireEvent.change(input, { target: { files: [file] } })
}

function sized(file: File, size: number): File {
  Object.defineProperty(file, 'size', { value: size })
  return file
}

await t.test('Post is disabled while both content and media are empty', async (t) => {
  const { text, tweet } = renderComposer()
  t.ok(tweet.disabled, 'empty form')
  fireEvent.change(text, { target: { value: '   ' } })
  t.ok(tweet.disabled, 'blank text counts as empty')
  fireEvent.change(text, { target: { value: 'Hello' } })
  t.notOk(tweet.disabled, 'enabled with text')
  fireEvent.change(text, { target: { value: '' } })
  t.ok(tweet.disabled, 'disabled again once cleared')
})

await t.test('an image alone enables Post, and the form resets after a post', async (t) => {
  const { onSubmit, onUpload, text, tweet, picker } = renderComposer()
  pick(picker, new File(['png'], 'photo.png', { type: 'image/png' }))
  await screen.findByAltText('Image to be posted')
  t.equal(onUpload.calls.length, 1, 'the file went to the upload callback')
  t.notOk(tweet.disabled, 'media alone is enough')
  fireEvent.click(tweet)
  await until(() => onSubmit.calls.length === 1)
  t.equal(onSubmit.calls.length, 1)
  t.same(onSubmit.calls[0]?.[0], { content: '', media: [{ url: '/media/uploaded.png', alt: '' }] })
  await until(() => screen.queryByAltText('Image to be posted') === null)
  t.equal(screen.queryByAltText('Image to be posted'), null, 'preview cleared')
  t.equal(text.value, '')
  t.ok(tweet.disabled)
})

await t.test('a non-image is refused before upload with the catalogue message', async (t) => {
  const { onUpload, onFileError, picker } = renderComposer()
  pick(picker, new File(['%PDF'], 'doc.pdf', { type: 'application/pdf' }))
  t.same(onFileError.calls, [['file must be or an Image (JPEG/PNG)']])
  t.equal(onUpload.calls.length, 0)
})

await t.test('a file of 20 MB or more is refused before upload', async (t) => {
  const { onUpload, onFileError, picker } = renderComposer()
  pick(picker, sized(new File(['x'], 'big.png', { type: 'image/png' }), 20971520))
  t.same(onFileError.calls, [['file must be less than 20mb']])
  pick(picker, sized(new File(['x'], 'ok.png', { type: 'image/png' }), 20971519))
  t.equal(onFileError.calls.length, 1, 'one byte under the limit passes')
  await until(() => onUpload.calls.length === 1)
  t.equal(onUpload.calls.length, 1)
})

await t.test('the emoji picker offers 23 emojis and puts the chosen one at the caret', async (t) => {
  const { text, tweet } = renderComposer()
  fireEvent.change(text, { target: { value: 'Nice' } })
  const opener = screen.getByRole('button', { name: 'Add emoji' })
  fireEvent.click(opener)
  const grid = screen.getByRole('group', { name: 'Emojis' })
  const options = within(grid).getAllByRole('button')
  t.equal(options.length, 23)
  t.equal(document.activeElement, options[0], 'focus moves into the grid')
  fireEvent.click(within(grid).getByRole('button', { name: 'fire' }))
  t.equal(text.value, 'Nice🔥')
  t.equal(screen.queryByRole('group', { name: 'Emojis' }), null, 'the grid closes')
  t.equal(document.activeElement, text, 'focus returns to the text, to type on')
  t.notOk(tweet.disabled)

  fireEvent.change(text, { target: { value: 'Hello world' } })
  text.setSelectionRange(5, 5)
  fireEvent.click(opener)
  fireEvent.click(within(screen.getByRole('group', { name: 'Emojis' })).getByRole('button', { name: 'rocket' }))
  t.equal(text.value, 'Hello🚀 world', 'in the middle, where the caret was, not at the end')
  t.equal(text.selectionStart, 'Hello🚀'.length, 'and the caret after it')
  text.setSelectionRange(0, 5)
  fireEvent.click(opener)
  fireEvent.click(within(screen.getByRole('group', { name: 'Emojis' })).getByRole('button', { name: 'fire' }))
  t.equal(text.value, '🔥🚀 world', 'a selection is replaced')
})

await t.test('typing @ or # offers people or tags as a listbox the keys operate', async (t) => {
  const asked: string[] = []
  const suggest = async (trigger: '@' | '#', query: string): Promise<Suggestion[]> => {
    asked.push(`${trigger}${query}`)
    return trigger === '@'
      ? [
          { kind: 'person', username: 'maya.lin', name: 'Maya Lin', avatarURL: '/avatars/avatar-2.svg' },
          { kind: 'person', username: 'mayan', name: 'Mayan Ruins', avatarURL: '/avatars/avatar-1.svg' },
        ]
      : [{ kind: 'tag', tag: 'tea', posts: 3 }]
  }
  render(<PostForm onSubmit={async () => true} onUpload={async () => null} onFileError={() => {}} suggest={suggest} />)
  const text = screen.getByPlaceholderText('What is happening?!') as HTMLTextAreaElement
  text.focus()
  fireEvent.change(text, { target: { value: 'Tea with @ma' } })
  const list = await screen.findByRole('listbox', { name: 'Suggestions' })
  t.same(asked, ['@ma'], 'asked once the typing paused, for what follows the @')
  t.equal(text.getAttribute('aria-controls'), list.id)
  t.equal(text.getAttribute('aria-autocomplete'), 'list')
  fireEvent.keyDown(text, { key: 'ArrowDown' })
  fireEvent.keyDown(text, { key: 'ArrowDown' })
  fireEvent.keyDown(text, { key: 'ArrowUp' })
  const first = within(list).getAllByRole('option')[0]!
  t.equal(text.getAttribute('aria-activedescendant'), first.id)
  t.equal(first.getAttribute('aria-selected'), 'true')
  fireEvent.keyDown(text, { key: 'Enter' })
  t.equal(text.value, 'Tea with @maya.lin ', 'the whole username, and a space to go on')
  t.equal(screen.queryByRole('listbox'), null)

  fireEvent.change(text, { target: { value: 'Tea with @maya.lin #t' } })
  t.same(await suggestionTexts(), ['#tea3 posts this week'])
  fireEvent.mouseDown(screen.getByRole('option'))
  t.equal(text.value, 'Tea with @maya.lin #tea ')
  fireEvent.change(text, { target: { value: 'mail ada@ex' } })
  await new Promise((resolve) => setTimeout(resolve, 300))
  t.equal(screen.queryByRole('listbox'), null, 'an email address mentions nobody')
  fireEvent.change(text, { target: { value: 'Hi @ma' } })
  await screen.findByRole('listbox')
  fireEvent.keyDown(text, { key: 'Escape' })
  t.equal(screen.queryByRole('listbox'), null, 'Escape closes it and keeps the text')
  t.equal(text.value, 'Hi @ma')
})

await t.test('an emoji alone makes the post non-empty; Escape closes the grid', async (t) => {
  const { text, tweet } = renderComposer()
  fireEvent.click(screen.getByRole('button', { name: 'Add emoji' }))
  fireEvent.keyDown(screen.getByRole('button', { name: 'grinning face' }), { key: 'Escape' })
  t.equal(screen.queryByRole('group', { name: 'Emojis' }), null)
  fireEvent.click(screen.getByRole('button', { name: 'Add emoji' }))
  fireEvent.click(screen.getByRole('button', { name: 'rocket' }))
  t.equal(text.value, '🚀')
  t.notOk(tweet.disabled)
})

await t.test('the Edit Post modal starts from the post, closes after Update, and checks files too', async (t) => {
  const onSubmit = spy(async (_draft: PostDraft) => true)
  const onClose = spy(() => {})
  const onFileError = spy((_message: string) => {})
  render(
    <EditPostModal
      initial={{ content: 'Old text', media: [] }}
      onSubmit={onSubmit}
      onUpload={async () => null}
      onFileError={onFileError}
      onClose={onClose}
    />,
  )
  const dialog = screen.getByRole('dialog', { name: 'Edit Post' })
  const text = within(dialog).getByPlaceholderText('What is happening?!') as HTMLTextAreaElement
  t.equal(text.value, 'Old text')
  t.equal(document.activeElement, text, 'focus moves into the modal')
  fireEvent.keyDown(dialog, { key: 'Escape' })
  t.equal(onClose.calls.length, 1, 'Escape closes at once while nothing changed')
  const update = within(dialog).getByRole('button', { name: 'Update' }) as HTMLButtonElement
  fireEvent.change(text, { target: { value: '' } })
  t.ok(update.disabled, 'Update disabled when content and media are empty')
  pick(
    within(dialog).getByLabelText('Image file') as HTMLInputElement,
    new File(['gif'], 'a.txt', { type: 'text/plain' }),
  )
  t.same(onFileError.calls, [['file must be or an Image (JPEG/PNG)']])
  fireEvent.change(text, { target: { value: 'New text' } })
  fireEvent.keyDown(dialog, { key: 'Escape' })
  const ask = screen.getByRole('alertdialog', { name: 'Discard post?' })
  t.equal(onClose.calls.length, 1, 'with changes, Escape asks first')
  fireEvent.click(within(ask).getByRole('button', { name: 'Cancel' }))
  fireEvent.click(update)
  await until(() => onClose.calls.length === 2)
  t.equal(onClose.calls.length, 2, 'closed after submit')
  t.same(onSubmit.calls[0]?.[0], { content: 'New text', media: [] })
})

await t.test('the ring shows the characters left from the start, and the count describes the text box', async (t) => {
  const { text } = renderComposer()
  const form = text.closest('form')!
  const left = () => form.querySelector('.char-left')?.textContent
  t.equal(left(), '500', 'before a keystroke')
  t.equal(document.getElementById(text.getAttribute('aria-describedby') ?? '')?.textContent, '500 characters left')
  fireEvent.change(text, { target: { value: 'Hello' } })
  t.equal(left(), '495')
  fireEvent.change(text, { target: { value: 'x'.repeat(490) } })
  t.ok(form.querySelector('.char-ring.is-near'), 'near the limit it warns')
  t.equal(screen.getByText('10 left').getAttribute('aria-live'), 'polite', 'and says so aloud')
})

await t.test('the text box grows with its text', async (t) => {
  const { text } = renderComposer()
  Object.defineProperty(text, 'scrollHeight', {
    configurable: true,
    get: () => 40 + text.value.split('\n').length * 20,
  })
  fireEvent.change(text, { target: { value: 'one\ntwo\nthree\nfour' } })
  t.equal(text.style.height, '120px')
  fireEvent.change(text, { target: { value: 'one' } })
  t.equal(text.style.height, '60px', 'and shrinks back')
})

await t.test('while posting the button says so and the text is locked; Ctrl+Enter and Cmd+Enter send', async (t) => {
  let finish: (ok: boolean) => void = () => {}
  const sent: PostDraft[] = []
  render(
    <PostForm
      resetAfterSubmit
      onSubmit={(draft) =>
        new Promise((resolve) => {
          sent.push(draft)
          finish = resolve
        })
      }
      onUpload={async () => null}
      onFileError={() => {}}
    />,
  )
  const text = screen.getByPlaceholderText('What is happening?!') as HTMLTextAreaElement
  fireEvent.change(text, { target: { value: 'Sent from the keyboard' } })
  fireEvent.keyDown(text, { key: 'Enter' })
  t.equal(sent.length, 0, 'Enter alone is a new line')
  fireEvent.keyDown(text, { key: 'Enter', ctrlKey: true })
  t.equal(sent.length, 1)
  const button = await screen.findByRole('button', { name: 'Posting…' })
  t.ok((button as HTMLButtonElement).disabled)
  t.ok(text.readOnly, 'the text cannot change under the post on its way')
  fireEvent.keyDown(text, { key: 'Enter', ctrlKey: true })
  t.equal(sent.length, 1, 'no second send while the first is on its way')
  finish(true)
  await screen.findByRole('button', { name: 'Post' })
  t.notOk(text.readOnly)
  fireEvent.change(text, { target: { value: 'From a Mac' } })
  fireEvent.keyDown(text, { key: 'Enter', metaKey: true })
  t.equal(sent.length, 2)
})

await t.test('an image carries the description its author writes; the picker is a real button', async (t) => {
  const { onSubmit, picker, tweet } = renderComposer()
  const button = screen.getByRole('button', { name: 'Add image' })
  let opened = 0
  picker.click = () => void (opened += 1)
  fireEvent.click(button)
  t.equal(opened, 1, 'the button opens the file picker (a button answers Enter and Space alike)')
  pick(picker, new File(['png'], 'photo.png', { type: 'image/png' }))
  const description = (await screen.findByLabelText('Image description')) as HTMLInputElement
  t.equal(description.maxLength, 1000)
  fireEvent.change(description, { target: { value: 'A cat asleep on a keyboard' } })
  t.ok(screen.getByAltText('A cat asleep on a keyboard'), 'the preview reads it as its alt')
  fireEvent.click(tweet)
  await until(() => onSubmit.calls.length === 1)
  t.same(onSubmit.calls[0]?.[0], {
    content: '',
    media: [{ url: '/media/uploaded.png', alt: 'A cat asleep on a keyboard' }],
  })
})

await t.test('up to four images, each with its own description; a fifth cannot be added', async (t) => {
  const onSubmit = spy(async (_draft: PostDraft) => true)
  let uploaded = 0
  const onUpload = async () => `/media/upload-${++uploaded}.png`
  render(<PostForm resetAfterSubmit onSubmit={onSubmit} onUpload={onUpload} onFileError={() => {}} />)
  const picker = screen.getByLabelText('Image file') as HTMLInputElement
  for (let i = 1; i <= 4; i++) {
    pick(picker, new File(['png'], `photo-${i}.png`, { type: 'image/png' }))
    await screen.findByLabelText(i === 1 ? 'Image description' : `Image ${i} description`)
  }
  const add = screen.getByRole('button', { name: 'Add image (at most 4)' }) as HTMLButtonElement
  t.ok(add.disabled, 'the picker stops at four')
  fireEvent.change(screen.getByLabelText('Image 1 description'), { target: { value: 'First' } })
  fireEvent.change(screen.getByLabelText('Image 3 description'), { target: { value: 'Third' } })
  fireEvent.click(screen.getByRole('button', { name: 'Remove image 2' }))
  t.equal(screen.queryByLabelText('Image 4 description'), null, 'three left, numbered again')
  t.notOk((screen.getByRole('button', { name: 'Add image' }) as HTMLButtonElement).disabled, 'room for one more')
  fireEvent.click(screen.getByRole('button', { name: 'Post' }))
  await until(() => onSubmit.calls.length === 1)
  t.same(onSubmit.calls[0]?.[0], {
    content: '',
    media: [
      { url: '/media/upload-1.png', alt: 'First' },
      { url: '/media/upload-3.png', alt: 'Third' },
      { url: '/media/upload-4.png', alt: '' },
    ],
  })
})

await t.test('the alt-text reminder asks before an image without a description goes, when it is on', async (t) => {
  const onSubmit = spy(async (_draft: PostDraft) => true)
  render(<PostForm remindAlt onSubmit={onSubmit} onUpload={async () => '/media/uploaded.png'} onFileError={() => {}} />)
  pick(screen.getByLabelText('Image file') as HTMLInputElement, new File(['png'], 'p.png', { type: 'image/png' }))
  await screen.findByLabelText('Image description')
  fireEvent.click(screen.getByRole('button', { name: 'Post' }))
  const ask = await screen.findByRole('alertdialog', { name: 'Post without a description?' })
  t.equal(onSubmit.calls.length, 0, 'nothing sent yet')
  fireEvent.click(within(ask).getByRole('button', { name: 'Cancel' }))
  t.equal(screen.queryByRole('alertdialog'), null, 'back to the composer')
  t.equal(onSubmit.calls.length, 0)
  fireEvent.click(screen.getByRole('button', { name: 'Post' }))
  fireEvent.click(
    within(await screen.findByRole('alertdialog', { name: 'Post without a description?' })).getByRole('button', {
      name: 'Post anyway',
    }),
  )
  await until(() => onSubmit.calls.length === 1)
  t.same(onSubmit.calls[0]?.[0], { content: '', media: [{ url: '/media/uploaded.png', alt: '' }] })
  cleanup()
  // Described, or with the reminder off, the post goes at once.
  const described = spy(async (_draft: PostDraft) => true)
  render(
    <PostForm remindAlt onSubmit={described} onUpload={async () => '/media/uploaded.png'} onFileError={() => {}} />,
  )
  pick(screen.getByLabelText('Image file') as HTMLInputElement, new File(['png'], 'p.png', { type: 'image/png' }))
  fireEvent.change(await screen.findByLabelText('Image description'), { target: { value: 'A kite' } })
  fireEvent.click(screen.getByRole('button', { name: 'Post' }))
  await until(() => described.calls.length === 1)
  t.equal(screen.queryByRole('alertdialog'), null, 'no question for a described image')
  cleanup()
  const off = spy(async (_draft: PostDraft) => true)
  render(<PostForm onSubmit={off} onUpload={async () => '/media/uploaded.png'} onFileError={() => {}} />)
  pick(screen.getByLabelText('Image file') as HTMLInputElement, new File(['png'], 'p.png', { type: 'image/png' }))
  await screen.findByLabelText('Image description')
  fireEvent.click(screen.getByRole('button', { name: 'Post' }))
  await until(() => off.calls.length === 1)
  t.equal(screen.queryByRole('alertdialog'), null, 'no question with the reminder off')
})
