import { useId, useState, type FormEvent } from 'react'
import { hasVisibleText } from '../../server/schemas/text.js'
import { Avatar } from './avatar.js'
import { EmojiPicker } from './emoji-picker.js'
import { CloseIcon } from './icons.js'
import { ImagePicker } from './image-picker.js'

export type PostDraft = { content: string; mediaUrl: string }

/** DECISIONS §1: the server takes at most 500 characters of content. */
export const MAX_CONTENT = 500

type PostFormProps = {
  placeholder: string
  submitLabel: string
  initial?: PostDraft
  author?: { avatarURL: string; name: string }
  /** The composer starts over after a post; the edit modal closes instead. */
  resetAfterSubmit?: boolean
  autoFocus?: boolean
  onSubmit: (draft: PostDraft) => Promise<boolean>
  onUpload: (file: File) => Promise<string | null>
  onFileError: (message: string) => void
}

/** The post composer and the edit form: text, one image, emojis, and a submit button. */
export function PostForm(props: PostFormProps) {
  const { placeholder, submitLabel, initial, author, resetAfterSubmit = false, autoFocus = false } = props
  const [content, setContent] = useState(initial?.content ?? '')
  const [mediaUrl, setMediaUrl] = useState(initial?.mediaUrl ?? '')
  const [busy, setBusy] = useState<'idle' | 'uploading' | 'sending'>('idle')
  const textId = useId()
  // The server's own test: text made only of invisible characters would post as an empty card.
  const isEmpty = !hasVisibleText(content) && mediaUrl === ''

  const upload = async (file: File) => {
    setBusy('uploading')
    const url = await props.onUpload(file)
    setBusy('idle')
    if (url) setMediaUrl(url)
  }

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (isEmpty || busy !== 'idle') return
    setBusy('sending')
    const ok = await props.onSubmit({ content: content.trim(), mediaUrl })
    setBusy('idle')
    if (ok && resetAfterSubmit) {
      setContent('')
      setMediaUrl('')
    }
  }

  return (
    <form className="post-form" onSubmit={submit}>
      {author && <Avatar src={author.avatarURL} name={author.name} />}
      <div className="post-form-main">
        <label htmlFor={textId} className="visually-hidden">
          Post text
        </label>
        <textarea
          id={textId}
          className="post-form-text"
          placeholder={placeholder}
          value={content}
          maxLength={MAX_CONTENT}
          rows={3}
          autoFocus={autoFocus}
          onChange={(e) => setContent(e.currentTarget.value)}
        />
        {mediaUrl && (
          <div className="media-preview">
            <img src={mediaUrl} alt="Image to be posted" />
            <button type="button" className="icon-button on-media" aria-label="Remove image" onClick={() => setMediaUrl('')}>
              <CloseIcon />
            </button>
          </div>
        )}
        {busy === 'uploading' && <p className="form-note" role="status">Uploading image…</p>}
        <div className="post-form-bar">
          <ImagePicker disabled={busy !== 'idle'} onFile={upload} onError={props.onFileError} />
          <EmojiPicker onPick={(emoji) => setContent((text) => (text + emoji).slice(0, MAX_CONTENT))} />
          <span className="char-count" aria-live="polite">
            {content.length > MAX_CONTENT - 50 ? `${MAX_CONTENT - content.length} left` : ''}
          </span>
          <button type="submit" className="button primary" disabled={isEmpty || busy !== 'idle'}>
            {submitLabel}
          </button>
        </div>
      </div>
    </form>
  )
}
