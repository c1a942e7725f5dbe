import { useId, useState, type FormEvent } from 'react'
import { hasVisibleText } from '../../server/schemas/text.js'
import { LIMITS } from '../../common/limits.js'
import { messageRoom, recipientsOf } from '../lib/people.js'

type NewMessageFormProps = {
  /** Sends the message to the people named in `to`; resolves what went wrong, or null once it is sent. */
  onSend: (to: string, text: string) => Promise<string | null>
}

/**
 * A new conversation: to whom (their usernames) and what. The message goes to them alone, as a direct
 * post mentioning each (DECISIONS §12). A recipient who is nobody is said at the To field.
 */
export function NewMessageForm({ onSend }: NewMessageFormProps) {
  const [to, setTo] = useState('')
  const [text, setText] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [sending, setSending] = useState(false)
  const toId = useId()
  const hintId = useId()
  const errorId = useId()
  const textId = useId()
  const ready = to.trim() !== '' && hasVisibleText(text)

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (!ready || sending) return
    setSending(true)
    const failure = await onSend(to, text.trim())
    setSending(false)
    setError(failure)
  }

  return (
    <form className="stack new-message" aria-busy={sending} onSubmit={(event) => void submit(event)}>
      <div className="field">
        <label htmlFor={toId}>To</label>
        <input
          id={toId}
          type="text"
          autoComplete="off"
          placeholder="@username"
          value={to}
          readOnly={sending}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${hintId} ${errorId}` : hintId}
          onChange={(event) => {
            setTo(event.currentTarget.value)
            setError(null)
          }}
        />
        <p id={hintId} className="field-hint">
          Usernames, separated by spaces or commas. Only they will see the message.
        </p>
        {error && (
          <p id={errorId} className="field-error" role="alert">
            {error}
          </p>
        )}
      </div>
      <div className="field">
        <label htmlFor={textId}>Message</label>
        <textarea
          id={textId}
          rows={4}
          maxLength={Math.max(1, messageRoom(recipientsOf(to), LIMITS.postContent))}
          value={text}
          readOnly={sending}
          onChange={(event) => setText(event.currentTarget.value)}
        />
      </div>
      <div className="row-end">
        <button type="submit" className="button primary" disabled={!ready || sending}>
          {sending ? 'Sending…' : 'Send'}
        </button>
      </div>
    </form>
  )
}
