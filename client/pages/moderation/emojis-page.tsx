import { useEffect, useState, type FormEvent } from 'react'
import { useSnapshot } from 'valtio'
import { codeOf } from '../../../common/error-codes.js'
import { FormError } from '../../components/form-error.js'
import { CustomEmoji } from '../../components/rich-text.js'
import { TextField } from '../../components/text-field.js'
import { useDocumentTitle } from '../../lib/document-title.js'
import { addEmoji, deleteEmoji, emojis, loadEmojis } from '../../state/emojis.js'
import { session } from '../../state/session.js'
import { showToast } from '../../state/toasts.js'
import { errorMessage } from '../../api/http.js'
import { useFormCall } from '../use-form-call.js'
import { StaffOnly } from './staff-only.js'

/** Which field a refusal of an upload is about. */
const FIELDS = {
  [codeOf('shortcodeTaken')]: 'shortcode',
  [codeOf('badShortcode')]: 'shortcode',
  [codeOf('emojiTooLarge')]: 'file',
  [codeOf('uploadNotImage')]: 'file',
} as const

function NewEmoji() {
  const [shortcode, setShortcode] = useState('')
  const [file, setFile] = useState<File | null>(null)
  const [formKey, setFormKey] = useState(0)
  const { busy, run, errorAt, clear } = useFormCall<'shortcode' | 'file'>(FIELDS)
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (!file) return
    if (await run(() => addEmoji(shortcode.trim(), file))) {
      setShortcode('')
      setFile(null)
      setFormKey((key) => key + 1)
    }
  }
  const fileError = errorAt('file')
  return (
    <form key={formKey} className="stack invite-form" aria-label="New emoji" onSubmit={(event) => void submit(event)}>
      <TextField
        label="Shortcode (2 to 32 letters, digits or _)"
        value={shortcode}
        onValue={(value) => {
          setShortcode(value)
          clear()
        }}
        pattern="[A-Za-z0-9_]{2,32}"
        required
        error={errorAt('shortcode')}
      />
      <div className="field">
        <label htmlFor="emoji-file">Image (PNG, JPEG, GIF or WebP, at most 256 KB)</label>
        <input
          id="emoji-file"
          type="file"
          accept="image/png,image/jpeg,image/gif,image/webp"
          aria-invalid={fileError ? true : undefined}
          aria-describedby={fileError ? 'emoji-file-error' : undefined}
          onChange={(event) => {
            setFile(event.currentTarget.files?.[0] ?? null)
            clear()
          }}
        />
        {fileError && (
          <p id="emoji-file-error" className="field-error" role="alert">
            {fileError}
          </p>
        )}
      </div>
      <FormError id="emoji-form-error" message={errorAt('form')} />
      <div className="row-end">
        <button type="submit" className="button dark" disabled={busy || !file}>
          Add emoji
        </button>
      </div>
    </form>
  )
}

function EmojiList() {
  const { list } = useSnapshot(emojis)
  const remove = async (shortcode: string) => {
    try {
      await deleteEmoji(shortcode)
      showToast(`:${shortcode}: deleted`)
    } catch (error) {
      showToast(errorMessage(error), 'error')
    }
  }
  if (list.length === 0) return <p className="empty-state">No custom emoji yet.</p>
  return (
    <ul className="moderation-list" aria-label="Custom emoji">
      {list.map((emoji) => (
        <li key={emoji.shortcode} className="moderation-row">
          <CustomEmoji shortcode={emoji.shortcode} url={emoji.url} />
          <code>:{emoji.shortcode}:</code>
          <button
            type="button"
            className="button outline small"
            aria-label={`Delete :${emoji.shortcode}:`}
            onClick={() => void remove(emoji.shortcode)}
          >
            Delete
          </button>
        </li>
      ))}
    </ul>
  )
}

/** /moderation/emojis: the community's custom emoji; admins add and delete them, moderators see them. */
export function ModerationEmojisPage() {
  useDocumentTitle('Custom emoji · Moderation')
  const { user } = useSnapshot(session)
  useEffect(() => void loadEmojis(true), [])
  return (
    <StaffOnly title="Custom emoji">
      {user?.role === 'admin' ? <NewEmoji /> : <p className="report-meta">Only admins add and delete emoji.</p>}
      <EmojiList />
    </StaffOnly>
  )
}
